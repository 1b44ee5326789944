"""Death Enters the Saloon under the contract suite (tests/tables/test_contract.py): the
numbered cards dealt, two players discard their pairs at once; a draw before the play is
refused; each hand is its holder's alone (S2)."""

from __future__ import annotations

from typing import Any

from saloon.engine.serial import state_from_data
from saloon.engine.setup import proposed_keep
from tests.contract import Contract


def discard(pid: str) -> Any:
    def fields(row: Any) -> dict[str, Any]:
        hand = state_from_data(row.state).player(pid).hand
        return {"keep": [card.text for card in proposed_keep(hand)]}

    return fields


def secrets(row: Any) -> dict[str, list[str]]:
    """Every other player's hand, as its cards are shown and as they are said."""
    state = state_from_data(row.state)
    return {
        me.pid: [s for p in state.players if p.pid != me.pid for c in p.hand
                 for s in (c.text, c.words)]
        for me in state.players
    }  # fmt: skip


CONTRACT = Contract(
    together=(("p1", "discard", discard("p1")), ("p2", "discard", discard("p2"))),
    refused=(("p1", "draw", {"position": "0"}), ""),
    secrets=secrets,
    fields=("keep", "position", "card", "name", "text", "subject", "brought_up"),
)
