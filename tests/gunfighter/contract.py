"""The Gunfighter under the contract suite (tests/tables/test_contract.py): decks dealt at
random; two gunfighters set their bandoliers at once; the clock refused while others are not
ready. Nothing is private (GF10): no secrets."""

from __future__ import annotations

from tests.contract import Contract

CONTRACT = Contract(
    together=(("p1", "ready", {}), ("p2", "ready", {})),
    refused=(("p1", "clock", {}), "Not yet"),
    fields=("deck", "hit_p2", "left", "last"),
)
