"""Test kit for the action deck (fights/engine/action_deck.py): a posse and its foes, a
driver that checks the 54 cards after every move (R25, R31), and a stacked deck.

``stacked(state, "A♠ RJ 7♦")`` puts those cards on top of the stock, in that order, and the rest
of the 54 (less any in sleeves, hands, discards or on the table) below them in a fixed order, so
a test knows exactly what every combatant is dealt.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace

import pytest

from cards.deck import FULL_DECK, Card, Deck, assert_conserved, parse_cards
from cards.dice import DiceSpec
from fights.engine.action_deck import (
    Combatant,
    CombatantKind,
    DealRound,
    FightState,
    IllegalMove,
    Move,
    Outcome,
    Quickness,
    all_cards,
    apply,
    new_fight,
)

JIM = "jim"
KATE = "kate"
BART = "bart"  # an NPC
GANG = "gang"  # three Pinkertons on one line


def jim(**overrides: object) -> Combatant:
    base: dict[str, object] = {"cid": JIM, "name": "Jim", "quickness": DiceSpec(3, 6)}
    return Combatant(**{**base, **overrides})  # type: ignore[arg-type]


def kate(**overrides: object) -> Combatant:
    base: dict[str, object] = {"cid": KATE, "name": "Kate", "quickness": DiceSpec(2, 8)}
    return Combatant(**{**base, **overrides})  # type: ignore[arg-type]


def bart(**overrides: object) -> Combatant:
    base: dict[str, object] = {
        "cid": BART,
        "name": "Black Bart",
        "kind": CombatantKind.NPC,
        "quickness": DiceSpec(4, 10),
    }
    return Combatant(**{**base, **overrides})  # type: ignore[arg-type]


def gang(**overrides: object) -> Combatant:
    base: dict[str, object] = {
        "cid": GANG,
        "name": "3 Pinkertons",
        "kind": CombatantKind.EXTRAS,
        "size": 3,
        "quickness": DiceSpec(2, 6),
    }
    return Combatant(**{**base, **overrides})  # type: ignore[arg-type]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text)) if text.strip() else ()


def check_conserved(state: FightState) -> None:
    assert_conserved(Deck(tuple(all_cards(state))))


def fight(*combatants: Combatant, seed: int = 17, **kwargs: object) -> FightState:
    state = new_fight(combatants or (jim(), kate(), bart()), random.Random(seed), **kwargs)  # type: ignore[arg-type]
    check_conserved(state)
    return state


def stacked(state: FightState, top: str, discards: str = "") -> FightState:
    """The stock with ``top`` first (in that order) and the rest of the free cards under it."""
    on_top, pile = cards(top), cards(discards)
    held = set(all_cards(state)) - set(state.deck.stock) - set(state.deck.discards)
    assert not (set(on_top) | set(pile)) & held, "a stacked card is already held"
    rest = [c for c in FULL_DECK if c not in held and c not in on_top and c not in pile]
    state = replace(state, deck=Deck(on_top + tuple(rest), pile))
    check_conserved(state)
    return state


def step(state: FightState, move: Move, rng: random.Random | None = None) -> Outcome:
    """Apply a move that must be legal, and check the 54 cards afterwards."""
    outcome = apply(state, move, rng if rng is not None else random.Random(5))
    check_conserved(outcome.state)
    return outcome


def refused(state: FightState, move: Move, match: str) -> None:
    """The move is refused in plain words (and, the state being frozen, nothing changes)."""
    with pytest.raises(IllegalMove, match=match):
        apply(state, move, random.Random(5))


def totals(state: FightState, values: Mapping[str, int], busts: Iterable[str] = ()) -> FightState:
    busted = set(busts)
    for cid, total in values.items():
        state = step(state, Quickness(cid, total, bust=cid in busted)).state
    return state


def dealt(
    state: FightState, values: Mapping[str, int], top: str, busts: Iterable[str] = ()
) -> Outcome:
    """Quickness totals in, the deck stacked with ``top``, the round dealt."""
    state = stacked(totals(state, values, busts), top)
    return step(state, DealRound())


def hand(state: FightState, cid: str) -> str:
    return " ".join(c.text for c in state.combatant(cid).hand)


def random_states(seed: int, steps: int = 150) -> list[FightState]:
    """A random fight (legal moves only, chosen with a seeded rng): every state it went
    through, including sleeves, jokers, extended actions, interrupts and Fate draws."""
    from cards.deck import RED_JOKER
    from cards.dice import Opposed
    from fights.engine.action_deck import (
        Act,
        EndRound,
        Guts,
        Join,
        Leave,
        Pass,
        Phase,
        RollQuickness,
        Sleeve,
        Speed,
        quickness_needed,
        up,
    )

    rng = random.Random(seed)
    state = new_fight([jim(), kate(surprised=seed % 2 == 0), bart(), gang()], rng)
    states = [state]
    for _ in range(steps):
        options: list[Move] = []
        if state.phase == Phase.QUICKNESS:
            waiting = quickness_needed(state)
            for c in waiting:
                options.append(
                    Guts(c.cid, rng.randint(0, 12)) if c.surprised else RollQuickness(c.cid)
                )
            if not waiting:
                options.append(DealRound())
        elif state.phase == Phase.COUNTDOWN:
            current = up(state)
            if current is None:
                options.append(EndRound())
            else:
                cid = current[0].cid
                speed = rng.choice(list(Speed))
                options += [
                    Act(
                        cid,
                        "acts",
                        speed=speed,
                        cost=rng.randint(2, 4),
                        consecutive=rng.random() < 0.5,
                    ),
                    Sleeve(cid),
                    Pass(cid),
                ]
            for c in state.combatants:
                if c.sleeve is not None:
                    options.append(
                        Act(
                            c.cid,
                            "cuts in",
                            card=c.sleeve,
                            interrupt=True,
                            opposed=rng.choice(list(Opposed)),
                        )
                    )
                if RED_JOKER in c.hand:
                    options.append(Act(c.cid, "red", card=RED_JOKER, interrupt=rng.random() < 0.5))
        else:
            break
        if rng.random() < 0.02:
            options = [Leave(rng.choice(state.combatants).cid)]
        elif rng.random() < 0.02:
            options = [Join(gang(cid=f"more{len(states)}", name="2 more Pinkertons", size=2))]
        move = rng.choice(options)
        try:
            state = apply(state, move, rng).state
        except IllegalMove:
            continue
        states.append(state)
    return states
