"""Saloon Showdown in a campaign file (issue 37; ``tables.codecs``): its state sealed by
``showdown.engine.seal`` (no count before it is shown), its seats and its public timeline."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from showdown.engine.seal import sealed, unsealed
from showdown.engine.state import state_from_data
from showdown.models import Showdown, ShowdownLine, ShowdownSeat
from showdown.selectors import showdown_view
from tables.codecs import register
from tables.seated import SeatedCodec


class ShowdownCodec(SeatedCodec):
    kind = "showdowns"
    noun = "Saloon Showdown"
    model = Showdown
    seat_model = ShowdownSeat
    line_model = ShowdownLine
    fk = "showdown"
    extra = ("kind", "pid")

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        return sealed(state)

    def unseal(self, data: Any) -> tuple[dict[str, Any], str]:
        return unsealed(data)

    def load(self, state: dict[str, Any]) -> Any:
        return state_from_data(state)

    def screens(
        self, row: Any, viewers: list[Any]
    ) -> Iterator[tuple[str, Callable[[], dict[str, Any]]]]:
        for user in viewers:
            yield "showdown/detail.html#main", partial(showdown_view, row, user)
        yield "showdown/table.html#main", partial(showdown_view, row, viewers[-2], as_table=True)

    def pids(self, state: dict[str, Any]) -> list[str]:
        return [p["pid"] for p in state["players"]]

    def phase_of(self, state: dict[str, Any]) -> str:
        return state_from_data(state).phase.value

    def again_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"kind": ShowdownLine.Kind.RULE, "pid": ""}


CODEC = register(ShowdownCodec())
