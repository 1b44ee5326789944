"""Helpers for The Gunfighter's engine tests: a table, the clock run out, and a random table of
players who always make a legal move (for the property tests)."""

from __future__ import annotations

import random

from gunfighter.engine import game as g
from gunfighter.engine import state as s

SEATS = (
    ("a", "Annie"),
    ("b", "Bill"),
    ("c", "Calamity"),
    ("d", "Doc"),
    ("e", "Emmett"),
    ("f", "Frank"),
)
T0 = 1_700_000_000_000  # a server instant (ms)
AFTER = T0 + s.COUNTDOWN_MS + s.PLAY_MS  # the clock hits zero


def table(
    players: int = 3, seed: int = 1, *, western: str = "a", choose: bool = False
) -> s.GunfightState:
    return g.new_game(SEATS[:players], western=western, rng=random.Random(seed), choose=choose)[0]


def run(state: s.GunfightState, *moves: s.Move) -> s.GunfightState:
    for move in moves:
        state = g.apply(state, move, random.Random(0))[0]
    return state


def to_showdown(state: s.GunfightState, at: int = T0) -> s.GunfightState:
    """Every standing gunfighter sets their bandolier, those who played no covert card say so
    (R38), and whoever saw a western last starts the clock at ``at`` (R39)."""
    for f in state.standing:
        if not f.ready:
            state = run(state, s.BandolierSet(f.pid))
    for pid in g.covert_waiting(state):
        state = run(state, s.NoCovert(pid))
    return run(state, s.StartClock(g.starter(state), at))


def random_move(state: s.GunfightState, rng: random.Random, now: int) -> s.Move:
    """One legal move, as a table pressing buttons at random would make it."""
    if state.phase == s.Phase.CHOOSE:
        pid = rng.choice(g.whose_move(state))
        if rng.random() < 0.1:
            return s.DrawAtRandom(pid)
        free = [d for d in s.DECKS if d not in {f.deck for f in state.gunfighters}]
        return s.ChooseDeck(pid, rng.choice(free))
    if state.phase == s.Phase.PREPARE:
        me = rng.choice(state.standing)
        unset = [f.pid for f in state.standing if not f.ready]
        if unset:
            return s.BandolierSet(rng.choice(unset))  # R38: the bandoliers first
        if not me.covert_played and me.covert and rng.random() < 0.3:
            return s.PlayCovert(me.pid)
        if me.covert_played and rng.random() < 0.05:
            return s.TakeBackCovert(me.pid)  # GF11: tapped by mistake
        waiting = g.covert_waiting(state)
        if waiting:
            if rng.random() < 0.05:  # R38: the host starts it for a quiet phone
                return s.StartClock(rng.choice(waiting), now, anyway=True)
            return s.NoCovert(rng.choice(waiting))
        return s.StartClock(g.starter(state), now)  # R39
    back = g.taken_back(state)
    if back and rng.random() < 0.05:
        return s.TakeBack(rng.choice(back))  # GF11: a mistyped mat, reviewed again
    pid = g.reviewing(state)
    me = state.gunfighter(pid)
    shooters = [f.pid for f in state.standing]
    hits = tuple(
        (p, rng.choice((0, 0, 1, 1, 2, 3)))
        for p in rng.sample(shooters, rng.randint(0, len(shooters)))
    )
    dealt = [p for p, n in hits if n]
    return s.EnterMat(
        pid, now_ms=now + s.COUNTDOWN_MS + s.PLAY_MS, hits=hits,
        left=rng.randint(0, me.bandolier), last=rng.choice(dealt) if dealt else "",
    )  # fmt: skip


def play_out(
    state: s.GunfightState, rng: random.Random, limit: int = 3000
) -> list[s.GunfightState]:
    seen = [state]
    now = T0
    for _ in range(limit):
        if state.phase == s.Phase.OVER:
            return seen
        now += 1000
        state = g.apply(state, random_move(state, rng, now), rng)[0]
        seen.append(state)
    raise AssertionError(f"no ending after {limit} moves")
