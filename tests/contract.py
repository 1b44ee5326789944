"""What a declared game tells the contract suite (tests/tables/test_contract.py) about itself:
each game's ``tests/<app>/contract.py`` defines ``CONTRACT``. The suite itself knows no game."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tables.game import Game

# A move as a seat makes it: (pid, action, posted fields — or a function of the table's row
# giving them, for a move that names what only that seat holds).
Tap = tuple[str, str, Mapping[str, str] | Callable[[Any], Mapping[str, Any]]]


@dataclass(frozen=True)
class Contract:
    # The new-game form's fields beside the players (``users``: the seats' users, in order).
    new: Callable[[list[Any]], Mapping[str, str]] = lambda users: {}
    # Moves that take a new game to where ``together`` applies (in order, one at a time).
    setup: Sequence[Tap] = ()
    # Two seats' moves that are legal at the same version, each about its own seat.
    together: tuple[Tap, Tap] | None = None
    # A move the engine refuses at the start (after ``setup``), and why (a part of the reason).
    refused: tuple[Tap, str] | None = None
    # The strings each seat's screens must never carry after ``setup`` (another seat's hidden
    # cards or counts; under "*", what no screen may carry), given the table's row.
    secrets: Callable[[Any], Mapping[str, Sequence[str]]] = lambda row: {}
    # Fields the odd posts add (a game's own field names).
    fields: Sequence[str] = field(default_factory=tuple)
    # A game whose tables are not made by the site's ``create`` (the conflict's Dealer sets
    # its hands up): a new table at ``campaign`` for ``users`` (the host first).
    start: Callable[[Any, list[Any]], Any] | None = None
    # The game's pid of the seat a tap names ("p2"), given the table's row.
    hand: Callable[[Any, str], str] = lambda row, pid: pid
    # Who sits at a table, in order (the new-game form's players).
    seated: Callable[[Any], list[Any]] = lambda row: [
        s.user for s in row.seats.order_by("position")
    ]
    # A game whose new-game form seats no users (a fight's Dealer picks characters): the form's
    # whole post (but its key) starting a game for ``users`` at ``campaign``.
    new_post: Callable[[Any, list[Any]], Mapping[str, Any]] | None = None


def start_game(game: Game, campaign: Any, users: list[Any]) -> Any:
    """A new table of ``game`` at ``campaign`` for ``users`` (the host first), as its contract
    says (else through the site, with the new-game form's fields)."""
    from tests.kit import new_game

    contract = contract_of(game)
    if contract.start is not None:
        return contract.start(campaign, users)
    data = {k: int(v) if v.isdigit() else v for k, v in contract.new(users).items()}
    return new_game(game.kind, campaign=campaign, actor=users[0], players=users, **data)


def new_post(game: Game, campaign: Any, users: list[Any], key: str) -> dict[str, Any]:
    """What the list page's new-game form posts to start a game for ``users``."""
    contract = contract_of(game)
    if contract.new_post is not None:
        return {**contract.new_post(campaign, users), "key": key}
    return {"player": [u.pk for u in users], "key": key, **contract.new(users)}


def contract_of(game: Game) -> Contract:
    """The game's ``tests/<app>/contract.py`` (or, for a test app, its own ``contract``)."""
    module = game.model.__module__.rsplit(".", 1)[0]
    name = f"{module}.contract" if module.startswith("tests.") else f"tests.{module}.contract"
    contract: Contract = importlib.import_module(name).CONTRACT
    return contract
