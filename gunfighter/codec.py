"""The Gunfighter in a campaign file (issue 37; ``tables.codecs``). GF10: nothing the app keeps
of it is private — the covert cards and bandoliers are physical and the app only counts them,
in view of the whole table — so its state is written whole and comes back as it was."""

from __future__ import annotations

from typing import Any

from gunfighter.engine.serial import state_from_data, state_to_data
from tables.seated import SeatedCodec


class GunfighterCodec(SeatedCodec):
    kind = "gunfights"
    extra = ("showdown", "pid")

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        return state_to_data(state_from_data(state))  # every count is the table's (GF10)

    def unseal(self, data: Any) -> tuple[dict[str, Any], str]:
        return state_to_data(state_from_data(data)), ""

    def pids(self, state: dict[str, Any]) -> list[str]:
        return [g["pid"] for g in state["gunfighters"]]
