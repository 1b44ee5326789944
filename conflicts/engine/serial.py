"""Conflict state to and from plain JSON-able data, for storing in the database.

Cards are stored in the app's notation (R1). Loading checks the 54 cards are all there once:
a corrupted row fails loudly instead of dealing from a broken deck.
"""

from __future__ import annotations

from typing import Any

from cards.deck import Card, Deck, assert_conserved, parse_card

from .conflict import Bid, ConflictState, Kind, Owed, Participant, Phase, all_cards

FORMAT = 1


def _cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [c.text for c in cards]


def _parse(texts: list[str] | None) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts or [])


def state_to_data(state: ConflictState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "phase": state.phase.value,
        "stakes": state.stakes,
        "participants": [
            {
                "pid": p.pid,
                "name": p.name,
                "kind": p.kind.value,
                "side": p.side,
                "currents": dict(p.currents),
                "devil_rating": p.devil_rating,
                "stud_size": p.stud_size,
                "winner_bonus": p.winner_bonus,
                "proposal": [list(p.proposal[0]), p.proposal[1]] if p.proposal else None,
                "attributes": list(p.attributes) if p.attributes else None,
                "trait": p.trait,
                "devil": p.devil,
                "extra_card": p.extra_card,
                "awards": p.awards,
                "knack": p.knack,
                "knack_rating": p.knack_rating,
                "knack_approved": p.knack_approved,
                "hand": _cards(p.hand),
                "discarded": _cards(p.discarded),
                "drew": p.drew,
                "extra_draw": p.extra_draw,
                "folded": p.folded,
                "lay": _cards(p.lay),
                "lay_chosen": p.lay_chosen,
            }
            for p in state.participants
        ],
        "deck": (
            {"stock": _cards(state.deck.stock), "discards": _cards(state.deck.discards)}
            if state.deck is not None
            else None
        ),
        "order": _cards(state.order),
        "salt": state.salt,
        "commitment": state.commitment,
        "winner": state.winner,
        "narrator": state.narrator,
        "bidders": list(state.bidders),
        "bids": [[b.pid, b.amount] for b in state.bids],
        "answer": state.answer,
        "bids_closed": state.bids_closed,
        "narration_paid": state.narration_paid,
        "restored": state.restored,
        "owed": [
            {
                "pid": o.pid,
                "points": o.points,
                "attributes": list(o.attributes),
                "source": o.source,
                "allocation": dict(o.allocation) if o.allocation is not None else None,
            }
            for o in state.owed
        ],
        "recovery": list(state.recovery) if state.recovery else None,
    }


def state_from_data(data: dict[str, Any]) -> ConflictState:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown conflict state format {data.get('format')!r}")
    participants = []
    for p in data["participants"]:
        proposal = p.get("proposal")
        participants.append(
            Participant(
                pid=p["pid"],
                name=p["name"],
                kind=Kind(p["kind"]),
                side=p["side"],
                currents={k: int(v) for k, v in p["currents"].items()},
                devil_rating=int(p["devil_rating"]),
                stud_size=int(p["stud_size"]),
                winner_bonus=int(p["winner_bonus"]),
                proposal=((proposal[0][0], proposal[0][1]), bool(proposal[1]))
                if proposal
                else None,
                attributes=(p["attributes"][0], p["attributes"][1]) if p["attributes"] else None,
                trait=bool(p["trait"]),
                devil=int(p["devil"]),
                extra_card=bool(p["extra_card"]),
                awards=int(p["awards"]),
                knack=str(p.get("knack", "")),
                knack_rating=int(p.get("knack_rating", 0)),
                knack_approved=bool(p.get("knack_approved", False)),
                hand=_parse(p["hand"]),
                discarded=_parse(p["discarded"]),
                drew=bool(p["drew"]),
                extra_draw=bool(p["extra_draw"]),
                folded=bool(p["folded"]),
                lay=_parse(p["lay"]) if p["lay"] is not None else None,
                lay_chosen=bool(p["lay_chosen"]),
            )
        )
    deck_data = data.get("deck")
    deck = (
        Deck(_parse(deck_data["stock"]), _parse(deck_data["discards"]))
        if deck_data is not None
        else None
    )
    recovery = data.get("recovery")
    state = ConflictState(
        phase=Phase(data["phase"]),
        participants=tuple(participants),
        stakes=int(data["stakes"]),
        deck=deck,
        order=_parse(data.get("order")),
        salt=data.get("salt", ""),
        commitment=data.get("commitment", ""),
        winner=data.get("winner"),
        narrator=data.get("narrator"),
        bidders=tuple(data.get("bidders", [])),
        bids=tuple(Bid(pid, int(amount)) for pid, amount in data.get("bids", [])),
        answer=int(data.get("answer", 0)),
        bids_closed=bool(data.get("bids_closed", False)),
        narration_paid=int(data.get("narration_paid", 0)),
        restored=bool(data.get("restored", False)),
        owed=tuple(
            Owed(
                pid=o["pid"],
                points=int(o["points"]),
                attributes=tuple(o["attributes"]),
                source=o["source"],
                allocation=(
                    {k: int(v) for k, v in o["allocation"].items()}
                    if o["allocation"] is not None
                    else None
                ),
            )
            for o in data.get("owed", [])
        ),
        recovery=(recovery[0], int(recovery[1])) if recovery else None,
    )
    if state.deck is not None:
        assert_conserved(Deck(tuple(all_cards(state)), ()))
    return state
