"""Issue 26: the table kit (``tables/``) is the only place that locks a table, checks or moves
its version, writes a line of its timeline or publishes it — read from the games' own code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)
GAMES = ("conflicts", "fights", "saloon", "gunfighter", "showdown")
TABLES = r"(?:Conflict|Fight|Saloon|Gunfight|Showdown)"
LINES = r"(?:Event|FightEvent|SaloonLine|GunfightLine|ShowdownLine)"

ONLY_THE_KIT = {
    "locks a table": re.compile(TABLES + r"\.objects\.select_for_update"),
    "checks a version": re.compile(r"\bversion\s*!=|!=\s*[\w.]*\.version\b"),
    "moves a version on": re.compile(r"version\s*\+=|F\(\"version\"\)"),
    "writes a timeline line": re.compile(LINES + r"\.objects\.(?:create|bulk_create)\("),
    "publishes a table": re.compile(r"\bpublish\("),
}


def game_sources() -> list[Path]:
    return sorted(
        path
        for game in GAMES
        for path in (BASE_DIR / game).rglob("*.py")
        if "migrations" not in path.parts
    )


@pytest.mark.parametrize("what", sorted(ONLY_THE_KIT))
def test_only_the_kit(what: str) -> None:
    pattern = ONLY_THE_KIT[what]
    found = [
        f"{path.relative_to(BASE_DIR)}:{n}: {line.strip()}"
        for path in game_sources()
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == [], f"{what} outside tables/"


def test_the_patterns_catch_what_the_copies_did() -> None:
    """The copies the kit replaced, as they were written before issue 26."""
    before = {
        "locks a table": 'Fight.objects.select_for_update(of=("self",))',
        "checks a version": "if version is not None and version != saloon.version:",
        "moves a version on": "conflict.version += 1",
        "writes a timeline line": "FightEvent.objects.bulk_create(rows)",
        "publishes a table": "transaction.on_commit(lambda: live.publish(channel, now))",
    }
    for what, line in before.items():
        assert ONLY_THE_KIT[what].search(line), what
