"""Saloon Showdown in a campaign file (issue 37; ``tables.codecs``): its state sealed by
``showdown.engine.seal`` (no count before it is shown), its seats and its public timeline."""

from __future__ import annotations

from typing import Any

from showdown.engine.seal import sealed, unsealed
from tables.seated import SeatedCodec


class ShowdownCodec(SeatedCodec):
    kind = "showdowns"
    extra = ("kind", "pid")

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        return sealed(state)

    def unseal(self, data: Any) -> tuple[dict[str, Any], str]:
        return unsealed(data)

    def pids(self, state: dict[str, Any]) -> list[str]:
        return [p["pid"] for p in state["players"]]
