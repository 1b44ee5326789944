"""The docs in the repository are true (issue 35): docs/rulings.md is the Rulings page as it is
now (``manage.py rulings_doc``), and every file the README, the docs and the code's docstrings
and comments name exists in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

BASE_DIR = Path(settings.BASE_DIR)
# A path as the docs write it: folders then a file with a known suffix, or a bare NAME.md.
NAMED = re.compile(
    r"(?<![\w/.:-])((?:[\w.-]+/)+[\w.-]+\.(?:py|md|html|js|css|json|conf|toml|yaml|yml|txt|sh)"
    r"|[A-Z][A-Z_]+\.md)(?![\w/])"
)
# Where a named file may be: from the root, or under the folders templates and statics are in.
ROOTS = ("", "templates/", "static/", "static/js/", "static/css/", "tests/", "deploy/")
SOURCES = ("README.md", "docs", "deploy", "Makefile", ".ci")
APPS = ("cards", "dustdevils", "tables", "campaigns", "characters", "conflicts", "fights",
        "saloon", "gunfighter", "showdown", "exchange")  # fmt: skip


def test_the_rulings_doc_is_current() -> None:
    call_command("rulings_doc", "--check")


def texts() -> list[Path]:
    files = [BASE_DIR / "README.md", BASE_DIR / "Makefile"]
    for top in ("docs", "deploy", ".ci", *APPS):
        files += [
            p for p in (BASE_DIR / top).rglob("*")
            if p.is_file() and p.suffix in (".md", ".py", ".conf", ".yaml", ".example", "")
            and "migrations" not in p.parts
        ]  # fmt: skip
    return files


def missing(path: Path) -> list[str]:
    found = []
    for name in NAMED.findall(path.read_text(errors="replace")):
        if "*" in name or name.startswith(("http", "www.")) or "<" in name:
            continue
        here = path.parent / name
        if here.exists() or any((BASE_DIR / root / name).exists() for root in ROOTS):
            continue
        found.append(name)
    return found


def test_it_finds_a_missing_file() -> None:
    assert NAMED.findall("see docs/nowhere.md and DESIGN.md, not https://x.org/a.md") == [
        "docs/nowhere.md", "DESIGN.md",
    ]  # fmt: skip


@pytest.mark.parametrize("path", texts(), ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_every_file_the_docs_name_exists(path: Path) -> None:
    assert missing(path) == []
