"""The saloon's state to and from plain JSON-able data, for the database row.

Cards are stored in the app's notation (R1). Loading checks the 54 cards are all there once: a
corrupted row fails loudly instead of playing from a broken deck.
"""

from __future__ import annotations

from typing import Any

from cards.deck import Card, parse_card

from .game import Duel, Ending, Phase, Player, SaloonState, Step, Turn, conserved

FORMAT = 1


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [c.text for c in cards]


def _parse(texts: list[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


def state_to_data(state: SaloonState) -> dict[str, Any]:
    turn, duel = state.turn, state.duel
    return {
        "format": FORMAT,
        "phase": state.phase.value,
        "players": [
            {
                "pid": p.pid,
                "name": p.name,
                "archetype": p.archetype.text if p.archetype else None,
                "character": p.character,
                "hand": _cards(p.hand),
                "discarded": p.discarded,
                "left": p.left,
            }
            for p in state.players
        ],
        "aside": _cards(state.aside),
        "discards": _cards(state.discards),
        "doomed": state.doomed,
        "red_joker": state.red_joker,
        "turn": None
        if turn is None
        else {
            "drawer": turn.drawer,
            "step": turn.step.value,
            "card": turn.card.text if turn.card else None,
            "table": turn.table,
            "subject_pid": turn.subject_pid,
            "subject": turn.subject,
            "asker": turn.asker,
            "answerer": turn.answerer,
            "asked": list(turn.asked),
            "offered": list(turn.offered),
            "brought_up": list(turn.brought_up),
            "declined": list(turn.declined),
            "offer": turn.offer,
            "extra": turn.extra,
            "final": turn.final,
        },
        "duel": None
        if duel is None
        else {"target": duel.target, "shooter": duel.shooter, "shots": duel.shots},
        "run": list(state.run),
        "appointed": state.appointed,
        "unwanted": state.unwanted,
        "ending": state.ending.value if state.ending else None,
        "dead": state.dead,
        "shown": _cards(state.shown),
        "year": state.year,
        "deal": state.deal,
    }


def state_from_data(data: dict[str, Any]) -> SaloonState:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown saloon state format {data.get('format')!r}")
    t, d = data["turn"], data["duel"]
    state = SaloonState(
        phase=Phase(data["phase"]),
        players=tuple(
            Player(
                pid=p["pid"],
                name=p["name"],
                archetype=parse_card(p["archetype"]) if p["archetype"] else None,
                character=p["character"],
                hand=_parse(p["hand"]),
                discarded=p["discarded"],
                left=p["left"],
            )
            for p in data["players"]
        ),
        aside=_parse(data["aside"]),
        discards=_parse(data["discards"]),
        doomed=data["doomed"],
        red_joker=data["red_joker"],
        turn=None
        if t is None
        else Turn(
            drawer=t["drawer"],
            step=Step(t["step"]),
            card=parse_card(t["card"]) if t["card"] else None,
            table=t["table"],
            subject_pid=t["subject_pid"],
            subject=t["subject"],
            asker=t["asker"],
            answerer=t["answerer"],
            asked=tuple(t["asked"]),
            offered=tuple(t["offered"]),
            brought_up=tuple(t.get("brought_up", ())),
            declined=tuple(t.get("declined", ())),
            offer=t["offer"],
            extra=t["extra"],
            final=t["final"],
        ),
        duel=None
        if d is None
        else Duel(target=d["target"], shooter=d["shooter"], shots=d["shots"]),
        run=tuple(data["run"]),
        appointed=data["appointed"],
        unwanted=data["unwanted"],
        ending=Ending(data["ending"]) if data["ending"] else None,
        dead=data["dead"],
        shown=_parse(data["shown"]),
        year=data["year"],
        deal=data["deal"],
    )
    if not conserved(state):
        raise ValueError("the saloon's cards are not all there exactly once")
    return state
