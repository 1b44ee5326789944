"""The games that can be started at a table: Death Enters the Saloon, and each game app that
joins it (``register`` from its ``AppConfig.ready``). The one-off table's lobby and the campaign
page list them, each with a link to its own page at that table; campaigns imports none of them.

A game's page at a table is a URL name taking the table's ``slug`` (``saloon:list``…): it lists
that table's games of its kind and starts new ones. Guests at a one-off table are taken to a
game the host starts for them by the lobby itself, whatever its kind: it asks
``tables.running`` (``new_for``), where every game registers its running tables already.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.urls import reverse

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class TableGame:
    kind: str  # as in tables.running: "saloon", "showdown"…
    name: str  # "Death Enters the Saloon"
    players: StrOrPromise  # "3–5"
    blurb: StrOrPromise  # one line: what it is
    url_name: str  # its page at a table, taking ``slug``
    order: int = 100  # where it is listed (lower first)

    def url(self, slug: str) -> str:
        return reverse(self.url_name, kwargs={"slug": slug})


_GAMES: dict[str, TableGame] = {}


def register(game: TableGame) -> None:
    _GAMES[game.kind] = game


def games() -> list[TableGame]:
    """Every game a table can start, in their order."""
    return sorted(_GAMES.values(), key=lambda g: (g.order, g.name))


def others(kind: str) -> list[TableGame]:
    """The games a table can start beside ``kind``'s (the one whose page this is)."""
    return [g for g in games() if g.kind != kind]
