"""The Rulings page's registry: how the app reads each unclear rule, by id (R1, R2, …; a game's
own: GF1, SS1…). The Dust Devils rulings (``conflicts.rulings``) come first, then each declared
game's readings (``tables.game.Game.rulings``, registered by the site). The page
(``/rulings/``) and docs/rulings.md (``manage.py rulings_doc``) are made from it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    group: str
    text: str
    house_rule: bool = False
    # Where the rulebook's text is unclear: the reading the team made, and why, shown beside
    # the ruling and where the choice is made (issue 15).
    reading: str = ""
    # For the companion games' readings: the seed's own words the reading is about, quoted
    # beside it (issue 31).
    seed_words: str = ""

    @property
    def anchor(self) -> str:
        return self.id


_BASE: list[Ruling] = []
_GAMES: list[Ruling] = []
BY_ID: dict[str, Ruling] = {}


def register(*rulings: Ruling, base: bool = False) -> None:
    """Rulings on the page (``base``: the Dust Devils rulings, first); an id only once."""
    for ruling in rulings:
        if ruling.id in BY_ID:
            raise ValueError(f"ruling {ruling.id} is already on the page")
        BY_ID[ruling.id] = ruling
        (_BASE if base else _GAMES).append(ruling)


def grouped() -> list[tuple[str, list[Ruling]]]:
    """The rulings in their sections, in order: the Dust Devils rulings, then each game's."""
    groups: dict[str, list[Ruling]] = {}
    for ruling in (*_BASE, *_GAMES):
        groups.setdefault(ruling.group, []).append(ruling)
    return list(groups.items())
