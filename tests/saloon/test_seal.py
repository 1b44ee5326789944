"""Issue 37: a saloon game in a campaign file (``saloon.engine.seal``). The file names no hidden
face; brought back, the hidden cards are dealt again into the same places — each hand its size,
no hand a pair, so the game plays on to an ending as the seed's does (a duel's shot finds its
pair: S-rulings, seed 000's "the last pair of the game")."""

from __future__ import annotations

import random

import pytest

from saloon.engine import game as g
from saloon.engine.seal import HIDDEN, sealed, unsealed
from saloon.engine.serial import state_from_data, state_to_data
from tests.saloon import kit


@pytest.mark.parametrize("seed", range(12))
def test_a_game_dealt_again_from_its_file_keeps_its_public_facts_and_plays_to_an_end(
    seed: int,
) -> None:
    states = kit.play_out(kit.table(3 + seed % 3, seed), random.Random(seed))
    for state in states[:: max(1, len(states) // 10)]:
        data = sealed(state_to_data(state))
        public = g.public_cards(state)
        for player, hand in zip(data["players"], (p.hand for p in state.players), strict=True):
            assert len(player["hand"]) == len(hand)
            assert {t for t in player["hand"] if t != HIDDEN} <= {c.text for c in public}
        back, words = unsealed(data, random.Random(seed + 1))
        if state.phase not in (g.Phase.ARCHETYPES, g.Phase.DISCARD):
            assert sealed(back) == data  # the same public facts, hands dealt again
        assert bool(words) == any(HIDDEN in p["hand"] for p in data["players"])
        kit.play_out(state_from_data(back), random.Random(seed + 2))


def test_a_hand_in_play_never_gets_a_pair() -> None:
    state = kit.play_out(kit.table(5, 4), random.Random(4))[40]
    assert state.phase == g.Phase.PLAY
    for n in range(30):
        back = state_from_data(unsealed(sealed(state_to_data(state)), random.Random(n))[0])
        for p in back.players:
            ranks = [c.rank for c in p.hand if not c.is_joker]
            assert len(ranks) == len(set(ranks))
