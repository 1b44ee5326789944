"""Death Enters the Saloon in a campaign file (issue 37; ``tables.codecs``): its state sealed
by ``saloon.engine.seal`` (no hand's hidden face, no deck order), its seats and its timeline
(the answers typed included: they are the table's)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from cards.deck import system_rng
from saloon.engine.seal import sealed, unsealed
from saloon.engine.serial import state_from_data
from saloon.models import Saloon, SaloonLine, SaloonSeat
from saloon.selectors import saloon_view
from tables.codecs import register
from tables.seated import SeatedCodec


class SaloonCodec(SeatedCodec):
    kind = "saloons"
    noun = "Death Enters the Saloon"
    model = Saloon
    seat_model = SaloonSeat
    line_model = SaloonLine
    fk = "saloon"
    extra = ("deal", "kind", "pid", "said", "struck")
    bounded = ("deal",)

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        return sealed(state)

    def unseal(self, data: Any) -> tuple[dict[str, Any], str]:
        return unsealed(data, system_rng())

    def load(self, state: dict[str, Any]) -> Any:
        return state_from_data(state)

    def screens(
        self, row: Any, viewers: list[Any]
    ) -> Iterator[tuple[str, Callable[[], dict[str, Any]]]]:
        for user in viewers:
            yield "saloon/detail.html#main", partial(saloon_view, row, user)
        yield "saloon/table.html#main", partial(saloon_view, row, viewers[-2], as_table=True)

    def pids(self, state: dict[str, Any]) -> list[str]:
        return [p["pid"] for p in state["players"]]

    def again_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"deal": state["deal"], "kind": SaloonLine.Kind.RULE, "pid": "", "said": "",
                "struck": False}  # fmt: skip


CODEC = register(SaloonCodec())
