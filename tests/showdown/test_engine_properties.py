"""Hypothesis: random tables of 2–7 pressing random buttons always reach the end, with money
and wounds never below zero, and a count never seen by anyone else before it is revealed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cards.errors import IllegalMove
from showdown.engine import game as g
from showdown.engine.state import Options, Phase, state_from_data, state_to_data
from tests.conftest import depth
from tests.showdown.kit import SEATS, random_move


@settings(max_examples=depth(300))
@given(
    players=st.integers(2, 7), seed=st.integers(0, 2**32), simple=st.booleans(),
    roulette=st.booleans(), events=st.booleans(),
)  # fmt: skip
def test_every_game_ends(
    players: int, seed: int, simple: bool, roulette: bool, events: bool
) -> None:
    rng = random.Random(seed)
    options = Options(simple=simple, roulette=roulette, events=events)
    state = g.new_game(SEATS[:players], SEATS[rng.randrange(players)][0], options).state
    clock = [0]
    for _ in range(20_000):
        if state.phase == Phase.OVER:
            break
        try:
            state = g.apply(state, random_move(state, rng, clock), rng).state
        except IllegalMove as error:
            assert str(error)  # noqa: PT017 - refused in words
            continue
        assert all(p.loot >= 0 and p.bounty >= 0 and p.wounds >= 0 for p in state.players)
        bluff = dict(state.bluff.counts) if state.bluff else {}
        event = dict(state.event.counts) if state.event else {}
        for p in state.players:  # SS15: a count is only its owner's until all are in
            view = g.visible_state(state, p.pid)
            assert view.state.bluff is None or view.state.bluff.counts == ()
            assert view.state.event is None or view.state.event.counts == ()
            assert view.mine == (event if state.event else bluff).get(p.pid)
    assert state.phase == Phase.OVER
    assert state.winner
    assert state_from_data(state_to_data(state)) == state
