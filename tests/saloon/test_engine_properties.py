"""Random games of Death Enters the Saloon, as a table pressing buttons at random would play
them: the 54 cards are always all there once, every game ends by one of the seed's endings,
the timeline never names a hidden card, nobody sees another hand's hidden faces, and the state
survives the database (JSON) unchanged."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.deck import Card, parse_card
from saloon.engine import game as g
from saloon.engine.serial import state_from_data, state_to_data
from tests.saloon.kit import random_move, table

CARD_TOKEN = re.compile(r"(?<![\w])(?:10|[2-9AJQK])[♣♦♥♠]|\b[BR]J\b")


def named_cards(text: str) -> set[Card]:
    return {parse_card(t) for t in CARD_TOKEN.findall(text)}


games = st.tuples(st.integers(3, 5), st.integers(0, 2**32), st.booleans())


@settings(max_examples=150, deadline=None)
@given(games)
def test_it_conserves_the_cards_and_always_ends(game: tuple[int, int, bool]) -> None:
    players, seed, pick = game
    rng = random.Random(seed)
    state = table(players, seed, pick=pick)
    for _ in range(5000):
        if state.phase == g.Phase.OVER:
            break
        outcome = g.apply(state, random_move(state, rng), rng)
        state = outcome.state
        assert g.conserved(state)
        public = g.public_cards(state)
        for entry in outcome.entries:  # the timeline is public: never a hidden card
            assert named_cards(entry.text) <= public, entry.text
    assert state.phase == g.Phase.OVER
    assert state.ending in set(g.Ending)
    if state.ending in (g.Ending.TAKEN, g.Ending.SHOT):
        assert state.dead
    else:
        assert not state.dead


@settings(max_examples=80, deadline=None)
@given(games)
def test_nobody_sees_another_hand_and_the_state_survives_json(game: tuple[int, int, bool]) -> None:
    players, seed, pick = game
    rng = random.Random(seed)
    state = table(players, seed, pick=pick)
    while state.phase != g.Phase.OVER:
        state = g.apply(state, random_move(state, rng), rng).state
        assert state_from_data(json.loads(json.dumps(state_to_data(state)))) == state
        public = g.public_cards(state)
        for viewer in [None, *(p.pid for p in state.players)]:
            seen = g.visible_cards(state, viewer)
            for other in state.players:
                if other.pid != viewer:
                    assert not (seen & (set(other.hand) - public)), (viewer, other.pid)
        if state.doomed:
            doomed = set(state.player(state.doomed).hand)
            hidden = doomed - public
            assert all(
                not (g.visible_cards(state, p.pid) & hidden)
                for p in state.players
                if p.pid != state.doomed
            )
            assert hidden <= g.visible_cards(state, state.doomed)


def test_every_ending_happens_in_random_play() -> None:
    endings = set()
    for seed in range(400):
        rng = random.Random(seed)
        state = table(3 + seed % 3, seed)
        while state.phase != g.Phase.OVER:
            state = g.apply(state, random_move(state, rng), rng).state
        endings.add(state.ending)
    assert endings == set(g.Ending)


def test_a_broken_row_fails_loudly() -> None:
    data = state_to_data(table(3))
    data["discards"] = [*data["discards"], "A♠"] if "A♠" not in data["discards"] else []
    with pytest.raises(ValueError, match="not all there"):
        state_from_data(data)
