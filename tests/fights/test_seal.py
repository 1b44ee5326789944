"""Issue 37, R30: a fight in a campaign file (``fights.engine.seal``). The file holds no unplayed
card, no sleeve, no stock order and no Fate draw not yet revealed; brought back, every hidden
card is dealt again into the same places — each hand only cards still to come up in the
countdown (or the red joker, which draws its Fate chip again, R25), no joker up a sleeve."""

from __future__ import annotations

import random

import pytest

from cards.deck import FULL_DECK, RED_JOKER
from fights.engine.action_deck import Phase, action_rank, all_cards, up
from fights.engine.seal import HIDDEN, sealed, unsealed
from fights.engine.serial import state_from_data, state_to_data
from tests.fights.fight_kit import random_states

CARDS = {card.text for card in FULL_DECK}


@pytest.mark.parametrize("seed", range(6))
def test_a_fight_dealt_again_from_its_file_keeps_its_public_facts(seed: int) -> None:
    for state in random_states(seed)[::5]:
        data = sealed(state_to_data(state))
        public = {c.text for c in (*state.deck.discards, *(p.card for p in state.table))}
        public |= {d.cause.text for d in state.fate_draws if d.revealed and d.cause}
        named = {v for v in repr(data).split("'") if v in CARDS}
        assert named <= public
        assert not [d for d in data["fate_draws"] if not d["revealed"]]
        back, words, secrets = unsealed(data, random.Random(seed))
        assert sealed(back) == data
        again = state_from_data(back)
        assert sorted(c.index for c in all_cards(again)) == list(range(54))
        for c in again.combatants:
            assert len(c.hand) == len(state.combatant(c.cid).hand)
            if state.phase == Phase.COUNTDOWN:
                assert all(x is RED_JOKER or action_rank(x) < state.position for x in c.hand)
            assert c.sleeve is None or not c.sleeve.is_joker
            holds = RED_JOKER in c.hand
            assert holds == any(not d.revealed and d.who == c.cid for d in again.fate_draws)
        assert {s.cids for s in secrets} >= {(c.cid,) for c in again.combatants if c.hand}
        assert bool(words) == bool(HIDDEN in repr(data))
        if state.phase == Phase.COUNTDOWN and any(c.hand for c in again.combatants):
            assert up(again) is not None or any(RED_JOKER in c.hand for c in again.combatants)
