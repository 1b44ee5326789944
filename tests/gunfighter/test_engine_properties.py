"""Hypothesis games of The Gunfighter: any table, any legal taps, always ends — with every
deck's 30 cards and the 42 covert cards accounted for at every step (GF7–GF9), lives never
below 0, and the story naming every fallen gunfighter once."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gunfighter.engine import game as g
from gunfighter.engine import state as s
from gunfighter.engine.serial import state_from_data, state_to_data
from tests.conftest import depth
from tests.gunfighter.kit import play_out, table


@settings(max_examples=depth(500))
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    choose=st.booleans(),
    western=st.integers(0, 5),
)
def test_every_game_ends_and_keeps_its_counts(
    players: int, seed: int, choose: bool, western: int
) -> None:
    rng = random.Random(seed)
    start = table(players, seed, choose=choose, western="abcdef"[western % players])
    states = play_out(start, rng)
    for state in states:
        assert g.conserved(state)
        assert state_from_data(state_to_data(state)) == state
    end = states[-1]
    assert end.phase == s.Phase.OVER
    assert len(end.standing) <= 1
    assert end.winner == (end.standing[0].pid if end.standing else "")
    fallen = [v for showdown in end.history for v, _ in showdown.fallen]
    assert sorted(fallen) == sorted(f.pid for f in end.gunfighters if not f.standing)
    assert [h.number for h in end.history] == list(range(1, end.showdown + 1))
