"""High card under the contract suite: two seats draw at once; a third draw of the same seat is
refused; a drawn card is the drawer's alone until all have drawn."""

from __future__ import annotations

from typing import Any

from tests.contract import Contract
from tests.highcard.engine import from_data


def secrets(row: Any) -> dict[str, list[str]]:
    """Each drawn card is its drawer's alone until all have drawn; the deck is nobody's."""
    state = from_data(row.state)
    hidden: dict[str, list[str]] = {"*": [card.text for card in state.deck[:3]]}
    for pid, _ in state.seats:
        hidden[pid] = [] if state.winner else [c.text for p, c in state.drawn if p != pid]
    return hidden


CONTRACT = Contract(
    setup=(("p3", "draw", {}),),
    together=(("p1", "draw", {}), ("p2", "draw", {})),
    refused=(("p3", "draw", {}), "You have drawn your card already."),
    secrets=secrets,
)
