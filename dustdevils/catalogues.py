"""The translations compiled (issue 39): each ``locale/<language>/LC_MESSAGES/*.po`` into the
``.mo`` Django reads, again only when the ``.po`` is newer. With GNU gettext's ``msgfmt``
installed (CI, the Docker image) it compiles them, checking them as it goes; on a fresh machine
without it, ``polib``'s compiler does (a dev dependency), so ``make run`` and ``make test`` need
nothing installed by hand. ``python -m dustdevils.catalogues`` is what ``make`` runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def compile_stale(base_dir: Path = BASE_DIR) -> list[Path]:
    """Compile every catalogue whose ``.mo`` is missing or older than its ``.po``; the ``.mo``
    files made."""
    made = []
    for po in sorted(base_dir.glob("locale/*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        if shutil.which("msgfmt"):
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)
        else:
            import polib  # type: ignore[import-untyped]  # no stubs; one call

            polib.pofile(str(po)).save_as_mofile(str(mo))
        made.append(mo)
    return made


if __name__ == "__main__":
    compile_stale()
