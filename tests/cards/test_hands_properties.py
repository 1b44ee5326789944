"""Properties of the hand evaluator, checked against the brute-force reference (R3-R9).

The reference (tests/cards/reference.py) tries every lay of min(5, n) cards and every identity
of every joker, classifies each with textbook poker and keeps the best R6 key. The engine must
agree with it exactly, on random hands biased towards the hard cases: jokers, near flushes and
near straights (the ace low included) and repeated ranks.
"""

from __future__ import annotations

from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.deck import BLACK_JOKER, FULL_DECK, RED_JOKER, Card, Suit
from cards.hands import (
    best_lay_for_narration,
    evaluate,
    hand_key,
    lay_choices,
)
from tests.cards import reference
from tests.conftest import depth

NATURALS = [c for c in FULL_DECK if not c.is_joker]
JOKERS = [RED_JOKER, BLACK_JOKER]
SETTINGS = settings(
    max_examples=depth(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _finish(cards: list[Card]) -> list[Card]:
    """Distinct cards, at most 8, at most 7 when both jokers are in (the reference is slow)."""
    cards = list(dict.fromkeys(cards))
    limit = 7 if RED_JOKER in cards and BLACK_JOKER in cards else 8
    naturals = [c for c in cards if not c.is_joker][: limit - sum(c.is_joker for c in cards)]
    return [c for c in cards if c.is_joker or c in naturals]


any_hand = st.lists(st.sampled_from(FULL_DECK), unique=True, max_size=8)


@st.composite
def joker_hands(draw: st.DrawFn) -> list[Card]:
    jokers = draw(st.sampled_from([[RED_JOKER], [BLACK_JOKER], JOKERS]))
    limit = 7 if len(jokers) == 2 else 8
    naturals = draw(st.lists(st.sampled_from(NATURALS), unique=True, max_size=limit - len(jokers)))
    return draw(st.permutations(naturals + jokers))


def _window_cards(low: int, width: int, suits: list[int]) -> list[Card]:
    ranks = {14 if r == 1 else r for r in range(low, min(low + width, 15))}
    return [c for c in NATURALS if c.rank in ranks and c.suit in suits]


@st.composite
def near_made_hands(draw: st.DrawFn) -> list[Card]:
    """Near flushes and near straights: mostly one suit, ranks in a window (1 = ace low)."""
    suit = draw(st.sampled_from(list(Suit)))
    low = draw(st.integers(1, 10))
    suited = _window_cards(low, 6, [suit]) + draw(
        st.lists(st.sampled_from([c for c in NATURALS if c.suit == suit]), max_size=2)
    )
    core = draw(st.lists(st.sampled_from(suited), unique=True, min_size=2, max_size=5))
    others = _window_cards(low, 6, [1, 2, 3, 4]) + JOKERS
    extra = draw(st.lists(st.sampled_from(others), unique=True, max_size=3))
    return draw(st.permutations(_finish(core + extra)))


@st.composite
def paired_hands(draw: st.DrawFn) -> list[Card]:
    """Repeated ranks: full houses, fours, two pairs, five of a kind with the jokers."""
    ranks = draw(st.lists(st.integers(2, 14), min_size=1, max_size=3, unique=True))
    pool = [c for c in NATURALS if c.rank in ranks] + JOKERS
    cards = draw(st.lists(st.sampled_from(pool), unique=True, max_size=8))
    extra = draw(st.lists(st.sampled_from(NATURALS), unique=True, max_size=2))
    return draw(st.permutations(_finish(cards + extra)))


hands = st.one_of(any_hand, joker_hands(), near_made_hands(), paired_hands()).map(_finish)


def lay_rank(card: Card, value) -> int:
    """The rank a laid card counts as: a joker its identity's, an ace 1 in a wheel (R3)."""
    if card.is_joker:
        return next(r for j, r, _ in value.jokers_as if j is card)
    if (
        card.rank == 14
        and value.category.value in ("straight", "straight_flush")
        and (value.key[1] == 5)
    ):
        return 1
    return card.rank


@SETTINGS
@given(hands)
def test_it_agrees_with_the_brute_force_reference(hand: list[Card]) -> None:
    """R3-R7: the key, category, lay and combination are exactly the reference's."""
    value = evaluate(hand)
    lays = reference.all_lay_values(hand)
    best = max(lays, key=lambda v: v.key)
    assert value.key == best.key, f"{[c.text for c in hand]}"
    assert value.category.value == best.category
    assert value.category.order == value.key[0]
    assert set(value.laid) == best.laid
    assert set(value.combination) == best.combination
    assert value.high_card_key == best.high_card_key
    assert hand_key(hand) == value.key


@SETTINGS
@given(hands)
def test_it_lays_min_five_n_cards_of_the_hand_and_they_keep_their_value(
    hand: list[Card],
) -> None:
    """R4: the lay is min(5, n) distinct cards of the hand; laid alone they are worth the same;
    the combination comes first and the laid ranks are the key's ranks in order (R6)."""
    value = evaluate(hand)
    assert len(value.laid) == min(5, len(hand))
    assert len(set(value.laid)) == len(value.laid)
    assert set(value.laid) <= set(hand)
    alone = evaluate(value.laid)
    assert alone.key == value.key
    assert set(alone.laid) == set(value.laid)
    assert set(value.laid[: value.difficulty]) == set(value.combination)
    ranks = [lay_rank(c, value) for c in value.laid]
    assert ranks == list(value.key[1 : 1 + len(ranks)])
    assert all(r == 0 for r in value.key[1 + len(ranks) : 6])


@SETTINGS
@given(hands)
def test_it_counts_difficulty_from_the_combination(hand: list[Card]) -> None:
    """R7/R9: Difficulty = the combination's size, on its natural cards' suits (or any suit
    when it has none); jokers report the identity they took."""
    value = evaluate(hand)
    assert value.difficulty == len(value.combination)
    assert set(value.combination) <= set(value.laid)
    natural_suits = {Suit(c.suit) for c in value.combination if not c.is_joker}
    if value.combination:
        assert value.difficulty_suits == (natural_suits or frozenset(Suit))
    laid_jokers = [c for c in value.laid if c.is_joker]
    assert sorted(j.joker for j, _, _ in value.jokers_as) == sorted(j.joker for j in laid_jokers)
    flush_suits = {c.suit for c in value.laid if not c.is_joker}
    is_flush = value.category.value in ("flush", "straight_flush", "royal_flush")
    for _, rank, suit in value.jokers_as:
        assert 2 <= rank <= 14  # a joker is never the ace low of a wheel: a 6 is better
        if is_flush:
            assert {suit} == flush_suits  # R5: the joker takes the flush's suit
        else:
            assert suit == 0


@SETTINGS
@given(hands)
def test_it_names_the_high_card_of_the_lay(hand: list[Card]) -> None:
    """R8: the high card is the laid card with the highest (rank as laid, suit, colour)."""
    value = evaluate(hand)
    if not hand:
        assert value.high_card is None
        return
    assert value.high_card in value.laid
    keys = [(lay_rank(c, value), c.suit, c.joker) for c in value.laid]
    assert value.high_card_key == max(keys)
    assert keys[value.laid.index(value.high_card)] == value.high_card_key


@SETTINGS
@given(hands)
def test_it_finds_the_lay_with_the_best_narration_card(hand: list[Card]) -> None:
    """R4/R8: the narration lay has the highest high card of any lay, then the best value."""
    narration = best_lay_for_narration(hand)
    lays = reference.all_lay_values(hand)
    expected = max(lays, key=lambda v: (v.high_card_key, v.key))
    assert narration.high_card_key == max(v.high_card_key for v in lays)
    assert narration.high_card_key == expected.high_card_key
    assert narration.key == expected.key
    assert set(narration.laid) == expected.laid
    assert any(set(c.laid) == set(narration.laid) for c in lay_choices(hand))


def _dominates(w, v) -> bool:
    """w is at least as good as v on poker value (R6), narration card (R8) and Difficulty (R9)."""
    return (
        w.laid != v.laid
        and w.key >= v.key
        and w.high_card_key >= v.high_card_key
        and len(w.combination) >= len(v.combination)
    )


@SETTINGS
@given(hands)
def test_it_offers_the_best_lay_first_then_every_lay_worth_considering(hand: list[Card]) -> None:
    """R4: the best poker lay first, then exactly the lays no other lay matches or beats on
    all of poker value, narration card and Difficulty, best first."""
    choices = lay_choices(hand)
    best = evaluate(hand)
    assert choices[0].key == best.key
    assert set(choices[0].laid) == set(best.laid)
    for choice in choices:
        assert len(choice.laid) == min(5, len(hand))
        assert set(choice.laid) <= set(hand)
        assert evaluate(choice.laid).key == choice.key
    assert len({frozenset(c.laid) for c in choices}) == len(choices)
    rest = [c.key for c in choices[1:]]
    assert rest == sorted(rest, reverse=True)
    lays = reference.all_lay_values(hand)
    worth = {v.laid for v in lays if not any(_dominates(w, v) for w in lays)}
    assert {frozenset(c.laid) for c in choices} == worth


@SETTINGS
@given(hands, hands)
def test_it_orders_hands_totally_and_never_ties_different_lays(
    first: list[Card], second: list[Card]
) -> None:
    """R6: comparison is total and antisymmetric; two different lays never tie."""
    a, b = evaluate(first), evaluate(second)
    assert (a < b) + (a > b) + (a.key == b.key) == 1
    assert (a < b) == (b > a)
    assert (a <= b) == (not a > b)
    if set(a.laid) != set(b.laid):
        assert a.key != b.key
    else:
        assert a.key == b.key
    assert (a.key < b.key) == (reference.best_key(first) < reference.best_key(second))


def test_it_gives_every_lay_of_a_small_pool_a_distinct_key() -> None:
    """R6: different lays never tie, exhaustively over every 1-4 card lay of a 14-card pool
    that mixes both jokers, a near straight and a near flush."""
    pool = [
        c
        for c in FULL_DECK
        if c.is_joker or (c.suit == Suit.HEARTS and c.rank in (2, 3, 4, 5, 14)) or c.rank == 5
    ]
    seen: dict[tuple[int, ...], frozenset[Card]] = {}
    for size in range(1, 5):
        for lay in combinations(pool, size):
            k = evaluate(lay).key
            assert seen.setdefault(k, frozenset(lay)) == frozenset(lay)
