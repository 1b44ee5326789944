"""Fight state to JSON and back (fights/engine/serial.py): exact round trips, and a
corrupted row (a card lost or doubled, R25) fails loudly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.deck import ConservationError
from fights.engine.action_deck import Phase
from fights.engine.serial import state_from_data, state_to_data
from tests.fights.fight_kit import random_states


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_state_of_a_random_fight_round_trips_exactly_through_json(seed: int) -> None:
    for state in random_states(seed, steps=120):
        data = json.loads(json.dumps(state_to_data(state), ensure_ascii=False))
        assert state_from_data(data) == state


def test_the_random_fights_reach_the_interesting_states() -> None:
    """The round trip above sees sleeves, jokers, extended actions and interrupts."""
    states = [s for seed in range(12) for s in random_states(seed)]
    assert any(c.sleeve for s in states for c in s.combatants)
    assert any(c.extended for s in states for c in s.combatants)
    assert any(p.interrupted for s in states for p in s.table)
    assert any(s.fate_draws for s in states)
    assert any(s.reshuffle_at_end for s in states)
    assert any(s.phase == Phase.COUNTDOWN and s.round > 2 for s in states)
    assert any(c.out for s in states for c in s.combatants)
    assert any(len(s.combatants) > 4 for s in states)


def test_a_lost_card_fails_loudly() -> None:
    data = state_to_data(random_states(3, steps=10)[-1])
    data["deck"]["stock"] = data["deck"]["stock"][1:]
    with pytest.raises(ConservationError):
        state_from_data(data)


def test_a_doubled_card_fails_loudly() -> None:
    data = state_to_data(random_states(3, steps=10)[-1])
    data["deck"]["discards"].append(data["deck"]["stock"][0])
    with pytest.raises(ConservationError):
        state_from_data(data)


def test_an_unknown_format_is_refused() -> None:
    data = state_to_data(random_states(3, steps=1)[-1])
    data["format"] = 99
    with pytest.raises(ValueError, match="format"):
        state_from_data(data)
