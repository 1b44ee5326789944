"""Death Enters the Saloon in a campaign file (issue 37; ``tables.codecs``): its state sealed
by ``saloon.engine.seal`` (no hand's hidden face, no deck order), its seats and its timeline
(the answers typed included: they are the table's)."""

from __future__ import annotations

from typing import Any

from cards.deck import system_rng
from saloon.engine.seal import sealed, unsealed
from tables.seated import SeatedCodec


class SaloonCodec(SeatedCodec):
    kind = "saloons"
    extra = ("deal", "kind", "pid", "said", "struck")
    bounded = ("deal",)

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        return sealed(state)

    def unseal(self, data: Any) -> tuple[dict[str, Any], str]:
        return unsealed(data, system_rng())

    def pids(self, state: dict[str, Any]) -> list[str]:
        return [p["pid"] for p in state["players"]]
