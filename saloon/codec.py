"""Death Enters the Saloon in a campaign file (issue 37; ``tables.codecs``): its state sealed
by ``saloon.engine.seal`` (no hand's hidden face, no deck order), its seats and its timeline
(the answers typed included: they are the table's)."""

from __future__ import annotations

from typing import Any

from cards.deck import system_rng
from saloon.engine.seal import sealed, unsealed
from saloon.engine.serial import state_from_data
from saloon.models import SaloonLine
from tables.seated import SeatedCodec


class SaloonCodec(SeatedCodec):
    kind = "saloons"
    extra = ("deal", "kind", "pid", "said", "struck")
    bounded = ("deal",)

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        return sealed(state)

    def unseal(self, data: Any) -> tuple[dict[str, Any], str]:
        return unsealed(data, system_rng())

    def load(self, state: dict[str, Any]) -> Any:
        return state_from_data(state)

    def pids(self, state: dict[str, Any]) -> list[str]:
        return [p["pid"] for p in state["players"]]

    def again_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"deal": state["deal"], "kind": SaloonLine.Kind.RULE, "pid": "", "said": "",
                "struck": False}  # fmt: skip
