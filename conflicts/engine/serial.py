"""Conflict state to and from plain JSON-able data, for storing in the database.

Cards are stored in the app's notation (R1). Loading checks the 54 cards are all there once:
a corrupted row fails loudly instead of dealing from a broken deck. It checks every value the
screens read too (issue 28): each name an attribute's, each pid a hand's, each number a whole
number — a state that loads is one every page can show (an import is refused otherwise).
"""

from __future__ import annotations

from typing import Any

from cards.deck import Card, Deck, assert_conserved, parse_card

from .conflict import ATTRIBUTES, Bid, ConflictState, Kind, Owed, Participant, Phase, all_cards

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


class BadState(ValueError):
    """A stored state the engine cannot read: the message names the value."""


def _attribute(value: Any, where: str) -> str:
    if value not in ATTRIBUTES:
        raise BadState(f"{where} must be one of {', '.join(ATTRIBUTES)}, got {value!r:.40}")
    return str(value)


def _pair(value: Any, where: str) -> tuple[str, str]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise BadState(f"{where} must be two attributes, got {value!r:.40}")
    return _attribute(value[0], where), _attribute(value[1], where)


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadState(f"{where} must be a whole number, got {value!r:.40}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise BadState(f"{where} must be text, got {value!r:.40}")
    return value


def _by_attribute(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise BadState(f"{where} must map attributes to numbers")
    return {_attribute(k, where): _whole(v, where) for k, v in value.items()}


def _check(state: ConflictState) -> ConflictState:
    """What the screens rely on beyond each value's type: pids unique and every pid the state
    names a hand's; a lay made of its own hand's cards."""
    pids = [p.pid for p in state.participants]
    if len(set(pids)) != len(pids) or not all(pids):
        raise BadState("each hand needs its own pid")
    named = [state.winner, state.narrator, *state.bidders, *(b.pid for b in state.bids)]
    named += [o.pid for o in state.owed] + ([state.recovery[0]] if state.recovery else [])
    if any(pid is not None and pid not in pids for pid in named):
        raise BadState("the state names a hand it does not have")
    for p in state.participants:
        if p.lay is not None and not set(p.lay) <= set(p.hand):
            raise BadState(f"{p.pid}'s lay is not made of its own hand")
    if state.phase not in (Phase.SIZING, Phase.CANCELLED, Phase.FOLDED) and state.deck is None:
        raise BadState(f"a conflict in the {state.phase.value} phase needs its deck")
    return state


def state_from_data(data: dict[str, Any]) -> ConflictState:
    """The state stored as ``data``; ``BadState`` (or another ``ValueError``, a ``KeyError``, a
    ``TypeError``) when it cannot be one."""
    if not isinstance(data, dict):
        raise BadState("a conflict state is an object")
    if data.get("format") != FORMAT:
        raise BadState(f"unknown conflict state format {data.get('format')!r}")
    participants = []
    for p in data["participants"]:
        proposal = p.get("proposal")
        participants.append(
            Participant(
                pid=_text(p["pid"], "pid"),
                name=_text(p["name"], "name"),
                kind=Kind(p["kind"]),
                side=_text(p["side"], "side"),
                currents=_by_attribute(p["currents"], "currents"),
                devil_rating=_whole(p["devil_rating"], "devil_rating"),
                stud_size=_whole(p["stud_size"], "stud_size"),
                winner_bonus=_whole(p["winner_bonus"], "winner_bonus"),
                proposal=(_pair(proposal[0], "proposal"), bool(proposal[1])) if proposal else None,
                attributes=_pair(p["attributes"], "attributes") if p["attributes"] else None,
                trait=bool(p["trait"]),
                devil=_whole(p["devil"], "devil"),
                extra_card=bool(p["extra_card"]),
                awards=_whole(p["awards"], "awards"),
                knack=_text(p.get("knack", ""), "knack"),
                knack_rating=_whole(p.get("knack_rating", 0), "knack_rating"),
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
        stakes=_whole(data["stakes"], "stakes"),
        deck=deck,
        order=_parse(data.get("order")),
        salt=data.get("salt", ""),
        commitment=data.get("commitment", ""),
        winner=data.get("winner"),
        narrator=data.get("narrator"),
        bidders=tuple(data.get("bidders", [])),
        bids=tuple(
            Bid(_text(pid, "bids"), _whole(amount, "bids")) for pid, amount in data.get("bids", [])
        ),
        answer=_whole(data.get("answer", 0), "answer"),
        bids_closed=bool(data.get("bids_closed", False)),
        narration_paid=_whole(data.get("narration_paid", 0), "narration_paid"),
        restored=bool(data.get("restored", False)),
        owed=tuple(
            Owed(
                pid=_text(o["pid"], "owed.pid"),
                points=_whole(o["points"], "owed.points"),
                attributes=tuple(_attribute(a, "owed.attributes") for a in o["attributes"]),
                source=_text(o["source"], "owed.source"),
                allocation=(
                    _by_attribute(o["allocation"], "owed.allocation")
                    if o["allocation"] is not None
                    else None
                ),
            )
            for o in data.get("owed", [])
        ),
        recovery=(_text(recovery[0], "recovery"), _whole(recovery[1], "recovery"))
        if recovery
        else None,
    )
    if state.deck is not None:
        assert_conserved(Deck(tuple(all_cards(state)), ()))
    return _check(state)
