"""High card's declaration: everything the site needs to serve it (tests/highcard/apps.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tables.game import Game, plain
from tables.moves import basis_of
from tables.site import site
from tests.highcard import engine as e
from tests.highcard.models import HighCard, HighCardKey, HighCardLine, HighCardSeat


class HighCardGame(Game):
    kind = "highcard"
    name = "High card"
    players = "2\u20136 players"
    blurb = "each draws a card; the highest wins"
    labels: ClassVar[Mapping[str, str]] = {"draw": "drawing"}
    model, seat_model, line_model, key_model = HighCard, HighCardSeat, HighCardLine, HighCardKey
    fk = "game"
    moves = {"draw": plain(e.Draw)}  # noqa: RUF012

    def new_state(
        self, seats: list[tuple[str, str]], data: Mapping[str, Any], pid_of: Mapping[int, str],
        rng: random.Random,
    ) -> tuple[Any, Sequence[Any]]:  # fmt: skip
        return e.new_game(seats, rng)

    def apply(self, state: Any, move: Any, rng: random.Random) -> tuple[Any, Sequence[Any]]:
        return e.apply(state, move)

    def load(self, data: Any) -> Any:
        return e.from_data(data)

    def dump(self, state: Any) -> Any:
        return e.to_data(state)

    def phase(self, state: Any) -> str:
        return str(state.phase)

    def seat_name(self, state: Any, pid: str) -> str | None:
        return state.name(pid) if state.has(pid) else None

    def basis(self, state: Any, pid: str) -> str:
        return basis_of(state.phase, pid, state.card(pid) is not None) if state.has(pid) else ""

    def note(self, text: str, pid: str = "") -> Any:
        return e.Event(text, pid)

    def screen(self, state: Any, me: str | None, context: Mapping[str, Any]) -> dict[str, Any]:
        return {"row": context[self.fk], "view": e.visible(state, me)}


HIGHCARD = site.register(HighCardGame())
