"""R35: a black joker drawn this round waits out the round. A mid-deal reshuffle (R25's second
reshuffle) leaves it beside the deck; it comes back only with the end-of-round reshuffle, so it
comes up at most once in a round's deal and earns the Dealer one Fate draw at most a round."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.deck import BLACK_JOKER, FULL_DECK, Deck
from fights.engine.action_deck import DEALER, DealRound, EndRound, FightState, SetCap
from tests.conftest import depth
from tests.fights.fight_kit import BART, JIM, KATE, cards, fight, jim, stacked, step, totals


def _black_draws(state: FightState, round_: int) -> int:
    return sum(1 for d in state.fate_draws if d.who == DEALER and d.round == round_)


def test_r35_the_mid_deal_reshuffle_leaves_out_the_black_joker_drawn_this_round() -> None:
    """R35: Jim draws the black joker off a 3-card deck; Kate needs 5 more: the deck and the
    discards are shuffled together *without* it, so it stays on the discards, is in nobody's
    hand and the Dealer has drawn from the Fate pot once."""
    state = fight(jim(), jim(cid=KATE, name="Kate"))
    state = step(state, SetCap(KATE, None)).state
    state = totals(state, {JIM: 13, KATE: 40})  # Jim 3 cards, Kate 9
    top = cards("BJ A♠ K♠")
    rest = tuple(c for c in FULL_DECK if c not in top)
    state = replace(state, deck=Deck(top, rest))  # the rest of the cards are discards
    out = step(state, DealRound(), random.Random(3))
    after = out.state
    assert after.deck.discards == (BLACK_JOKER,)
    assert BLACK_JOKER not in after.deck.stock
    assert all(BLACK_JOKER not in c.hand for c in after.combatants)
    assert _black_draws(after, 1) == 1
    assert any("black joker waits out the round" in e for e in out.events)
    # The end-of-round reshuffle brings it back.
    ended = step(after, EndRound(), random.Random(4)).state
    assert BLACK_JOKER in ended.deck.stock
    assert ended.deck.discards == ()


def test_r35_no_reshuffle_when_only_the_black_joker_is_on_the_discards() -> None:
    """R35 with lifted caps: Jim draws the black joker first; when Bart's turn comes the deck
    holds 12 cards and the discards nothing but that joker: it is not shuffled back, Bart
    gets the 12 and the timeline says why."""
    state = fight()
    for cid in (JIM, KATE, BART):
        state = step(state, SetCap(cid, None)).state
    state = totals(state, {JIM: 100, KATE: 100, BART: 100})  # 21 cards each (R23)
    out = step(stacked(state, "BJ"), DealRound())
    assert [len(c.hand) for c in out.state.combatants] == [20, 21, 12]
    assert _black_draws(out.state, 1) == 1
    assert out.state.deck.discards == (BLACK_JOKER,)
    assert not any("shuffled together" in e for e in out.events)
    assert any("Black Bart gets 12 of 21" in e and "black joker" in e for e in out.events)


@settings(max_examples=depth(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    stock=st.integers(min_value=1, max_value=8),
    where=st.integers(min_value=0, max_value=7),
    wants=st.lists(st.integers(min_value=0, max_value=60), min_size=2, max_size=6),
    lifted=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    rounds=st.integers(min_value=1, max_value=3),
)
def test_r35_with_short_decks_the_black_joker_never_comes_up_twice_in_a_round(
    stock: int, where: int, wants: list[int], lifted: bool, seed: int, rounds: int
) -> None:
    """R35 (property): a short deck with the black joker in it, combatants wanting many cards
    (caps lifted or not), several rounds: in every round's deal the black joker comes up once
    at most — one Dealer Fate draw at most a round — and after the deal it is on the
    discards, in no hand and not in the stock."""
    rng = random.Random(seed)
    crowd = [jim(cid=f"c{i}", name=f"Hand {i}") for i in range(len(wants))]
    state = fight(*crowd, seed=seed % 1000)
    if lifted:
        for c in crowd:
            state = step(state, SetCap(c.cid, None)).state
    others = [c for c in FULL_DECK if c is not BLACK_JOKER]
    rng.shuffle(others)
    top = others[: stock - 1]
    top.insert(min(where, len(top)), BLACK_JOKER)
    state = replace(state, deck=Deck(tuple(top), tuple(others[stock - 1 :])))
    for round_ in range(1, rounds + 1):
        state = totals(state, {c.cid: want for c, want in zip(crowd, wants, strict=True)})
        out = step(state, DealRound(), rng)
        state = out.state
        came_up = _black_draws(state, round_)
        assert came_up <= 1, f"the black joker came up {came_up} times in round {round_}"
        assert all(BLACK_JOKER not in c.hand for c in state.combatants)
        if came_up:
            assert BLACK_JOKER in state.deck.discards
            assert BLACK_JOKER not in state.deck.stock
        state = step(state, EndRound(), rng).state
