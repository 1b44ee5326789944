"""Issue 39: the translations compile on a machine without GNU gettext (a newcomer's), through
polib (``dustdevils.catalogues``), into a catalogue Python's gettext reads as msgfmt's."""

from __future__ import annotations

import gettext
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from dustdevils import catalogues


def test_without_msgfmt_polib_compiles_a_catalogue_that_translates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po = Path(settings.BASE_DIR) / "locale" / "it" / "LC_MESSAGES" / "django.po"
    copy = tmp_path / "locale" / "it" / "LC_MESSAGES" / "django.po"
    copy.parent.mkdir(parents=True)
    shutil.copy(po, copy)
    monkeypatch.setattr(catalogues.shutil, "which", lambda name: None)  # no gettext here
    assert catalogues.compile_stale(tmp_path) == [copy.with_suffix(".mo")]
    assert catalogues.compile_stale(tmp_path) == []  # compiled once, until the .po changes
    with copy.with_suffix(".mo").open("rb") as mo:
        italian = gettext.GNUTranslations(mo)
    # A one-line entry of the catalogue itself, read back as Italian.
    text = po.read_text()
    msgid, msgstr = re.search(r'\nmsgid "([^"]+)"\nmsgstr "([^"]+)"\n', text).groups()  # type: ignore[union-attr]
    assert italian.gettext(msgid.replace('\\"', '"')) == msgstr.replace('\\"', '"')
