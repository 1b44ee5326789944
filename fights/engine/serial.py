"""Fight state (``action_deck.FightState``) to and from plain JSON-able data, for the database.

Cards are stored in the app's notation (R1). Loading checks that the 54 cards are all there
once (deck, discards, hands, sleeves and the table): a corrupted row fails loudly instead of
dealing from a broken deck. ``state_from_data(state_to_data(s)) == s`` for every state.
"""

from __future__ import annotations

from typing import Any

from cards.deck import Card, Deck, assert_conserved, parse_card
from cards.dice import DiceSpec, Opposed, dice_spec

from .action_deck import (
    Combatant,
    CombatantKind,
    Extended,
    FateDraw,
    FightState,
    Phase,
    Play,
    Speed,
    all_cards,
)

FORMAT = 1


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [c.text for c in cards]


def _parse(texts: list[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


def _combatant_data(c: Combatant) -> dict[str, Any]:
    return {
        "cid": c.cid,
        "name": c.name,
        "kind": c.kind.value,
        "quickness": [c.quickness.count, c.quickness.sides],
        "guts": None if c.guts is None else [c.guts.count, c.guts.sides],
        "cap": c.cap,
        "surprised": c.surprised,
        "size": c.size,
        "total": c.total,
        "bust": c.bust,
        "dice": [list(d) for d in c.dice],
        "guts_failed": c.guts_failed,
        "hand": _cards(c.hand),
        "sleeve": c.sleeve.text if c.sleeve is not None else None,
        "extended": (
            {
                "text": c.extended.text,
                "cost": c.extended.cost,
                "paid": c.extended.paid,
                "consecutive": c.extended.consecutive,
            }
            if c.extended is not None
            else None
        ),
        "out": c.out,
    }


def _combatant(d: dict[str, Any]) -> Combatant:
    ext = d.get("extended")
    spec: DiceSpec = dice_spec(int(d["quickness"][0]), int(d["quickness"][1]))
    return Combatant(
        cid=str(d["cid"]),
        name=str(d["name"]),
        kind=CombatantKind(d["kind"]),
        quickness=spec,
        guts=None if d.get("guts") is None else dice_spec(int(d["guts"][0]), int(d["guts"][1])),
        cap=None if d["cap"] is None else int(d["cap"]),
        surprised=bool(d["surprised"]),
        size=int(d["size"]),
        total=None if d["total"] is None else int(d["total"]),
        bust=bool(d["bust"]),
        dice=tuple(tuple(int(f) for f in die) for die in d["dice"]),
        guts_failed=bool(d["guts_failed"]),
        hand=_parse(d["hand"]),
        sleeve=parse_card(d["sleeve"]) if d["sleeve"] is not None else None,
        extended=(
            Extended(str(ext["text"]), int(ext["cost"]), int(ext["paid"]), bool(ext["consecutive"]))
            if ext is not None
            else None
        ),
        out=bool(d.get("out", False)),
    )


def state_to_data(state: FightState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "phase": state.phase.value,
        "round": state.round,
        "position": state.position,
        "combatants": [_combatant_data(c) for c in state.combatants],
        "deck": {"stock": _cards(state.deck.stock), "discards": _cards(state.deck.discards)},
        "table": [
            {
                "cid": p.cid,
                "card": p.card.text,
                "text": p.text,
                "speed": p.speed.value,
                "out_of_turn": p.out_of_turn,
                "interrupted": p.interrupted,
                "opposed": p.opposed.value if p.opposed is not None else None,
            }
            for p in state.table
        ],
        "under_way": state.under_way,
        "reshuffle_at_end": state.reshuffle_at_end,
        "fate_pot": [[colour, count] for colour, count in state.fate_pot],
        "fate_draws": [
            {
                "who": d.who,
                "round": d.round,
                "chip": d.chip,
                "cause": d.cause.text if d.cause is not None else None,
                "revealed": d.revealed,
            }
            for d in state.fate_draws
        ],
    }


def state_from_data(data: dict[str, Any]) -> FightState:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown fight state format {data.get('format')!r}")
    state = FightState(
        phase=Phase(data["phase"]),
        combatants=tuple(_combatant(c) for c in data["combatants"]),
        deck=Deck(_parse(data["deck"]["stock"]), _parse(data["deck"]["discards"])),
        round=int(data["round"]),
        position=int(data["position"]),
        table=tuple(
            Play(
                cid=str(p["cid"]),
                card=parse_card(p["card"]),
                text=str(p["text"]),
                speed=Speed(p["speed"]),
                out_of_turn=bool(p["out_of_turn"]),
                interrupted=p["interrupted"],
                opposed=Opposed(p["opposed"]) if p["opposed"] is not None else None,
            )
            for p in data["table"]
        ),
        under_way=bool(data["under_way"]),
        reshuffle_at_end=bool(data["reshuffle_at_end"]),
        fate_pot=tuple((str(colour), int(count)) for colour, count in data["fate_pot"]),
        fate_draws=tuple(
            FateDraw(
                who=str(d["who"]),
                round=int(d["round"]),
                chip=d["chip"],
                cause=parse_card(d["cause"]) if d["cause"] is not None else None,
                revealed=bool(d["revealed"]),
            )
            for d in data["fate_draws"]
        ),
    )
    assert_conserved(Deck(tuple(all_cards(state))))
    return state
