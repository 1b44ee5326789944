"""Helpers for Saloon Showdown's engine tests: a table, moves by name, and a random table of
players who always make a legal move (for the property tests)."""

from __future__ import annotations

import random

from showdown.engine import game as g
from showdown.engine import moves as m
from showdown.engine.state import NOISES, PISTOLS, ZONES, Kind, Options, Phase, State

SEATS = (
    ("a", "Ada"),
    ("b", "Bo"),
    ("c", "Cy"),
    ("d", "Di"),
    ("e", "Ed"),
    ("f", "Flo"),
    ("g", "Gus"),
)
RNG = random.Random(1)


def table(players: int = 3, dealer: str = "a", **options: bool) -> State:
    return g.new_game(SEATS[:players], dealer, Options(**options)).state


def play(state: State, *moves: m.Move, rng: random.Random = RNG) -> State:
    for move in moves:
        state = g.apply(state, move, rng).state
    return state


def duel(state: State, shooter: str, other: str, at: int = 10_000, **fire: object) -> State:
    """Both ready at 1000, ``shooter`` fires at ``at`` (after "Via!" at 4000)."""
    state = play(state, m.Ready(shooter, 1000), m.Ready(other, 1000))
    kwargs = {"pistol": "red", "zone": "head", "noise": "Blam"} | fire
    return play(state, m.Fire(shooter, at, **kwargs))  # type: ignore[arg-type]


def random_move(state: State, rng: random.Random, clock: list[int]) -> m.Move:
    """One move a table of players pressing buttons at random might make (not always legal:
    the engine refuses the rest)."""
    clock[0] += rng.randrange(1, 5000)
    at = clock[0]
    pids = state.pids
    anyone = rng.choice(pids)
    other = rng.choice(pids)
    if state.event is not None:
        if state.event.name in ("rain", "robbery"):
            return m.EventCount(anyone, rng.randrange(0, 6))
        if state.event.name == "turkey":
            return m.Turkey("", rng.choice(["", other]))
        if state.event.name == "noon":
            fighters = g.noon_fighters(state)
            return m.Noon("", rng.choice(fighters), rng.choice(fighters))
        return m.EventDone("")
    if state.options.events and rng.random() < 0.03:
        return m.RevealEvent("", rng.choice(("turkey", "noon", "rain", "robbery", "other")), anyone)
    phase = state.phase
    if phase == Phase.PLAY:
        me = state.turn
        pick = rng.randrange(6)
        if pick == 0:
            return m.Draw(me, rng.random() < 0.5)
        if pick == 1:
            return m.CashLoot(me, rng.randrange(1, 4))
        if pick == 2:
            return m.CashBounty(me, other)
        second = other if rng.random() < 0.1 else ""
        return m.Threaten(me, rng.choice(pids), rng.choice(PISTOLS), second)
    if phase == Phase.THREAT:
        threat = state.threat
        assert threat is not None
        t = threat.target
        options: list[m.Move] = [
            m.CallBluff(t), m.AndYou(t), m.BountyTrio(t), m.Horse(t, other), m.Law(t),
            m.Desperado(t, other), m.Standoff(anyone), m.CloseStandoff(threat.first),
            m.Bottle(anyone, other),
        ]  # fmt: skip
        return rng.choice(options)
    if phase == Phase.BLUFF:
        bluff = state.bluff
        assert bluff is not None
        who = rng.choice((bluff.threatener, bluff.target))
        return m.Bullets(who, rng.randrange(0, 10))
    fight = state.fight
    assert fight is not None
    assert phase == Phase.FIGHT
    member = rng.choice(fight.members)
    if fight.claim is not None:
        if fight.disputed:
            return m.Settle(state.dealer, rng.random() < 0.7)
        return (m.Confirm if rng.random() < 0.8 else m.Dispute)(fight.claim.target)
    if fight.go_at is None:
        return m.Ready(member, at)
    if fight.kind == Kind.TRIELLO and member != fight.desperado:
        target = fight.desperado
    else:
        target = rng.choice([p for p in fight.members if p != member])
    return m.Fire(member, at, target, rng.choice((*PISTOLS, "bottle")), rng.choice(ZONES),
                  rng.choice(NOISES), rng.random() < 0.2)  # fmt: skip
