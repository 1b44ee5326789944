"""Saloon Showdown under the contract suite (tests/tables/test_contract.py): a threat, a bluff
called, and both players' hidden bullet counts entered at once; each count is its owner's alone
until both are in (SS15)."""

from __future__ import annotations

from tests.contract import Contract

CONTRACT = Contract(
    new=lambda users: {"dealer": str(users[0].pk)},
    # Delia deals: Abe (p2) plays first and threatens Bess (p3), who calls his bluff.
    setup=(
        ("p2", "threaten", {"target": "p3", "pistol": "red"}),
        ("p3", "bluff", {}),
    ),
    together=(("p2", "bullets", {"count": "7"}), ("p3", "bullets", {"count": "5"})),
    refused=(("p1", "draw", {"from": "deck"}), ""),
    fields=("count", "target", "pistol", "from", "cards", "event", "loot"),
)
