"""Every game of a campaign in its file (format version 3, issue 37): fights, Death Enters the
Saloon, Saloon Showdown and The Gunfighter, each through its game's codec (``tables.codecs``,
found in each game's ``codec.py`` by ``autodiscover_modules``), so this module names no game.

The file's ``games`` holds one list per kind of game (``"fights"``, ``"gunfights"``,
``"saloons"``, ``"showdowns"``), each game with its seats, its public timeline and its state
sealed: no value a viewer may not see is written, finished or running. A restore or an import
deals or hides again whatever a file could stack, says so on the game's timeline, and says game
by game what it did (``ImportResult.games``). Each game written is shown to every kind of viewer
in the import's transaction (``tables.codecs.shown``), as conflicts are (``exchange.showing``):
a page that cannot be shown refuses the file and nothing is written."""

from __future__ import annotations

from typing import Any

from campaigns.models import Campaign
from exchange.reading import Checker, ImportRefused
from tables.codecs import CheckRefs, ExportRefs, PlannedGame, Unshowable, WriteRefs, codecs


def games_export(campaign: Campaign, keys: dict[int, str]) -> dict[str, list[dict[str, Any]]]:
    """Every kind of game's list, in the kinds' order (an empty list for a kind not played)."""
    refs = ExportRefs(keys=keys)
    return {codec.kind: codec.export(campaign, refs) for codec in codecs()}


def games_checked(
    c: Checker, games: dict[str, list[Any]], *, characters: dict[str, str], sessions: set[int],
    members: set[str],
) -> dict[str, list[PlannedGame]]:  # fmt: skip
    """Each kind's games, checked by its codec (the schema names the kinds there are)."""
    refs = CheckRefs(checker=c, characters=characters, sessions=sessions, members=members)
    known = {codec.kind: codec for codec in codecs()}
    return {
        kind: known[kind].check(games[kind], f"games.{kind}", refs)
        for kind in known
        if games.get(kind)
    }


def games_cleared(campaign: Campaign) -> None:
    """A restore takes the campaign's games away first: the file's replace them."""
    for codec in codecs():
        codec.clear(campaign)


def games_written(
    plans: dict[str, list[PlannedGame]], campaign: Campaign, refs: WriteRefs
) -> list[str]:
    """The games, kind by kind, and what was done with each, in words."""
    said: list[str] = []
    for codec in codecs():
        if plans.get(codec.kind):
            try:
                said += codec.write(plans[codec.kind], campaign, refs)
            except Unshowable as error:  # the import's transaction writes nothing
                raise ImportRefused([str(error)]) from None
    return said
