"""Issue 39: the Italian catalogue is kept complete. ``makemessages`` (the project's, with its
defaults) run again over the sources finds no string the catalogue lacks, and ``msgfmt`` counts
0 untranslated and 0 fuzzy entries.

The apps not yet marked for translation (the conflict and the fight, Death Enters the
Saloon, the campaign's pages…) add nothing to the catalogue yet: marking a string there makes
this test ask for its Italian."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings
from django.core.management import call_command

PO = Path(settings.BASE_DIR) / "locale" / "it" / "LC_MESSAGES" / "django.po"
# GNU gettext's tools read and remake the catalogue as makemessages does: CI installs them
# (.ci/run); a fresh machine without them compiles with polib (dustdevils/catalogues.py) and
# skips these checks, saying so.
pytestmark = pytest.mark.skipif(
    not (shutil.which("msgfmt") and shutil.which("xgettext")),
    reason="needs GNU gettext (apt-get install gettext); .ci/run installs it",
)


def statistics(po: Path) -> str:
    done = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stderr.strip()


def entries(po: Path, *flags: str) -> str:
    done = subprocess.run(
        ["msgattrib", *flags, "--no-obsolete", str(po)], capture_output=True, text=True, check=True
    )
    return "\n".join(re.findall(r'^msgid "(.+)"$', done.stdout, re.M))


@pytest.fixture
def remade(tmp_path: Path) -> Path:
    """The catalogue as ``makemessages -l it`` leaves it after reading the sources again, made
    in a copy (the repository's is not touched)."""
    assert shutil.which("xgettext"), "GNU gettext is needed: apt-get install gettext"
    # makemessages writes into the repository's locale/ (the sources' own): what it makes is
    # copied aside and the repository's catalogue put back as it was.
    copy = tmp_path / "django.po"
    original = PO.read_bytes()
    try:
        call_command("makemessages", locale=["it"], verbosity=0)
        copy.write_bytes(PO.read_bytes())
    finally:
        PO.write_bytes(original)
    return copy


def test_the_italian_catalogue_is_complete() -> None:
    said = statistics(PO)
    assert "untranslated" not in said, said
    assert "fuzzy" not in said, said


def test_makemessages_finds_no_string_missing_from_the_italian_catalogue(remade: Path) -> None:
    said = statistics(remade)
    missing = entries(remade, "--untranslated") + entries(remade, "--only-fuzzy")
    assert "untranslated" not in said, f"{said}\n{missing}"
    assert "fuzzy" not in said, f"{said}\n{missing}"


def test_every_source_string_is_in_the_repository_catalogue(remade: Path) -> None:
    """The catalogue holds no entry the sources dropped (a changed English sentence leaves
    its old entry obsolete: run makemessages and translate the new one)."""
    ours = {e.msgid for e in polib.pofile(str(PO)) if not e.obsolete}
    theirs = {e.msgid for e in polib.pofile(str(remade)) if not e.obsolete}
    assert theirs <= ours, sorted(theirs - ours)
    obsolete = [line for line in PO.read_text().splitlines() if line.startswith("#~ msgid")]
    assert not obsolete, obsolete
