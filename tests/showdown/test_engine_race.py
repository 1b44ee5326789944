"""Saloon Showdown's duel race (SS6) with issue 36: the shot that lost the race is kept on the
timeline with its lag, not refused, and nobody fires twice."""

from __future__ import annotations

import pytest

from cards.errors import IllegalMove
from showdown.engine import game as g
from showdown.engine import moves as m
from showdown.engine.state import state_from_data, state_to_data
from tests.showdown.kit import RNG, play, table


def test_the_shot_that_lost_the_race_stays_on_the_timeline_with_its_lag() -> None:
    """SS6 and issue 36: the losing claim is kept ("Cy fired too, 2 ms later"), the first
    claim stands, and neither duellist fires twice."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = play(state, m.Ready("b", 1000), m.Ready("c", 1000))
    state = play(state, m.Fire("b", 4100, pistol="red", zone="head", noise="Blam"))
    outcome = g.apply(state, m.Fire("c", 4102, pistol="blue", zone="arm", noise="Bang"), RNG)
    assert [e.text for e in outcome.entries] == [
        "Cy fired too, 2 ms later: the first shot to reach the server counts."
    ]
    fight = outcome.state.fight
    assert fight is not None
    assert fight.claim is not None
    assert fight.claim.shooter == "b"
    assert fight.late == (("c", 4102),)
    assert state_from_data(state_to_data(outcome.state)) == outcome.state
    for pid in ("b", "c"):
        with pytest.raises(IllegalMove, match="You fired already"):
            play(outcome.state, m.Fire(pid, 4200, pistol="red", zone="arm", noise="Bang"))


def test_a_claim_beaten_by_an_earlier_shot_keeps_its_lag() -> None:
    """SS6, issue 36: Cy's shot took the lock first but Bo's reached the server 30 ms earlier:
    Bo's claim stands and Cy's is on the timeline, 30 ms later."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = play(state, m.Ready("b", 1000), m.Ready("c", 1000))
    state = play(state, m.Fire("c", 4130, pistol="red", zone="head", noise="Blam"))
    outcome = g.apply(state, m.Fire("b", 4100, pistol="blue", zone="arm", noise="Bang"), RNG)
    texts = [e.text for e in outcome.entries]
    assert texts[0] == "Bo’s shot reached the server first."
    assert texts[-1] == "Cy fired too, 30 ms later: the first shot to reach the server counts."
    fight = outcome.state.fight
    assert fight is not None
    assert fight.claim is not None
    assert (fight.claim.shooter, fight.late) == ("b", (("c", 4130),))
