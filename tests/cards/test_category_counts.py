"""Category counts over every five-card hand (R3, R5): the engine against the published tables.

Every five-card hand is classified by the batch evaluator (``cards.batch``, numpy: a few
seconds for all 3,162,510), and those counts must be the published tables. The reference,
``hands.evaluate``, must give each hand the batch's category: every hand under the ``ci``
profile (so the reference's own counts are the published tables, hand for hand), every tenth
under ``dev`` (``tests.conftest.share``; the reference took ~40 CPU-seconds for them all).

Sources and conventions:

- 52 cards, no joker: the classic table (e.g. Wikipedia "Poker probability"; datagenetics.com
  "Poker odds with wild cards"): royal flush 4, straight flush 36, four of a kind 624, full house
  3,744, flush 5,108, straight 10,200, three of a kind 54,912, two pair 123,552, pair 1,098,240,
  high card 1,302,540; 2,598,960 in all.
- 53 cards, one fully wild joker (five of a kind allowed; the table usually lists the royals
  inside 204 straight flushes): five of a kind 13, royal 24, straight flush 180, four 3,120,
  full house 6,552, flush 7,804, straight 20,532, three 137,280, two pair 123,552, pair
  1,268,088, high card 1,302,540; 2,869,685 = C(52,5) + C(52,4) in all. R5's "no double-ace
  flush" changes which flush a joker makes, never whether it makes one (four suited cards and a
  joker always have a free rank), so it leaves these counts alone.

  The joker hands alone (the four naturals + the joker), counted by hand as a cross-check:
  four of a kind + J -> 13 five of a kind; trips + J -> 13*4*48 = 2,496 four of a kind; two
  pair + J -> 78*36 = 2,808 full houses; a pair + J -> 13*6*66*16 = 82,368 three of a kind;
  four distinct ranks (715 rank sets): 41 of them fit in a straight window (11 runs of four, 30
  windows missing one inner card), so suited: 4*41 = 164 straight flushes of which 4*5 = 20
  royal, and 4*(715-41) = 2,696 flushes; unsuited (252 suit patterns): 41*252 = 10,332
  straights and 674*252 = 169,848 pairs.
- 54 cards, both jokers (the Dust Devils deck, R10): no standard table; worked out the same
  way. The hands with both jokers (C(52,3) = 22,100): trips -> 52 five of a kind; pair + single
  -> 3,744 four of a kind; three distinct ranks (286 sets, 64 within a straight window, 10 of
  them within 10-A): suited 4*64 = 256 straight flushes (40 royal) and 4*222 = 888 flushes;
  unsuited 64*60 = 3,840 straights and 222*60 = 13,320 three of a kind. With the one-joker
  hands counted twice (one per joker) that gives five of a kind 78, four of a kind 9,360 (both
  match the figures quoted for a 54-card deck with two wild jokers).
"""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations

import numpy as np
import pytest

from cards import batch
from cards.deck import BLACK_JOKER, FULL_DECK, RED_JOKER, Card
from cards.hands import evaluate, hand_key
from tests.conftest import share

pytestmark = pytest.mark.slow

ORDER_NAME = {
    10: "five_of_a_kind",
    9: "royal_flush",
    8: "straight_flush",
    7: "four_of_a_kind",
    6: "full_house",
    5: "flush",
    4: "straight",
    3: "three_of_a_kind",
    2: "two_pair",
    1: "pair",
    0: "high_card",
}

NO_JOKER = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}

ONE_WILD_JOKER = {
    "five_of_a_kind": 13,
    "royal_flush": 24,
    "straight_flush": 180,
    "four_of_a_kind": 3_120,
    "full_house": 6_552,
    "flush": 7_804,
    "straight": 20_532,
    "three_of_a_kind": 137_280,
    "two_pair": 123_552,
    "pair": 1_268_088,
    "high_card": 1_302_540,
}

BOTH_JOKERS_ONLY = {
    "five_of_a_kind": 52,
    "royal_flush": 40,
    "straight_flush": 216,
    "four_of_a_kind": 3_744,
    "flush": 888,
    "straight": 3_840,
    "three_of_a_kind": 13_320,
}

TWO_WILD_JOKERS = {
    "five_of_a_kind": 78,
    "royal_flush": 84,
    "straight_flush": 540,
    "four_of_a_kind": 9_360,
    "full_house": 9_360,
    "flush": 11_388,
    "straight": 34_704,
    "three_of_a_kind": 232_968,
    "two_pair": 123_552,
    "pair": 1_437_936,
    "high_card": 1_302_540,
}


NATURAL_INDICES = range(52)


def hands_of(size: int, jokers: tuple[Card, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of ``size`` naturals plus ``jokers``, in ``combinations`` order: their card
    indices (one row each) and the batch evaluator's category of each."""
    width = size + len(jokers)
    flat = chain.from_iterable(
        (*hand, *(j.index for j in jokers)) for hand in combinations(NATURAL_INDICES, size)
    )
    indices = np.fromiter(flat, dtype=np.int64).reshape(-1, width)
    return indices, batch.categories(batch.hand_keys(batch.masks_from_indices(indices)))


def counted(categories: np.ndarray) -> Counter[str]:
    return Counter(
        {ORDER_NAME[order]: int(n) for order, n in enumerate(np.bincount(categories)) if n}
    )


def disagreeing(indices: np.ndarray, categories: np.ndarray, classify) -> list[tuple]:
    """The hands (a ``share()`` of them, evenly spread) whose category by ``classify`` (a
    category order from cards) is not the batch's."""
    step = round(1 / share())
    wrong = []
    for row, expected in zip(indices[::step].tolist(), categories[::step].tolist(), strict=True):
        hand = [FULL_DECK[i] for i in row]
        if classify(hand) != expected:
            wrong.append((hand, classify(hand), ORDER_NAME[expected]))
    return wrong


def by_evaluate(hand: list[Card]) -> int:
    return evaluate(hand).category.order


def by_hand_key(hand: list[Card]) -> int:
    return hand_key(hand)[0]


@pytest.fixture(scope="module")
def naturals() -> tuple[np.ndarray, np.ndarray]:
    return hands_of(5)


@pytest.fixture(scope="module")
def one_joker() -> tuple[np.ndarray, np.ndarray]:
    """The hands of four naturals and the red joker."""
    return hands_of(4, (RED_JOKER,))


@pytest.fixture(scope="module")
def both_jokers() -> tuple[np.ndarray, np.ndarray]:
    return hands_of(3, (RED_JOKER, BLACK_JOKER))


def test_it_counts_the_published_table_for_the_52_card_deck(naturals) -> None:
    """R3: the ten categories of standard poker, over all 2,598,960 hands."""
    indices, categories = naturals
    assert dict(counted(categories)) == NO_JOKER
    assert len(indices) == 2_598_960
    assert disagreeing(indices, categories, by_evaluate)[:5] == []


def test_it_counts_the_published_table_for_one_fully_wild_joker(naturals, one_joker) -> None:
    """R3/R5: all 2,869,685 hands of the 53-card deck with one fully wild joker."""
    total = counted(naturals[1]) + counted(one_joker[1])
    assert dict(total) == ONE_WILD_JOKER
    assert sum(total.values()) == 2_869_685
    assert disagreeing(*one_joker, by_evaluate)[:5] == []


def test_it_counts_the_same_for_either_joker(one_joker) -> None:
    """R5: the black joker is exactly as wild as the red one (R6 step 5 only breaks ties)."""
    indices, categories = hands_of(4, (BLACK_JOKER,))
    assert counted(categories) == counted(one_joker[1])
    assert disagreeing(indices, categories, by_evaluate)[:5] == []


def test_it_counts_the_54_card_dust_devils_deck(naturals, one_joker, both_jokers) -> None:
    """R3/R5/R10: all 3,162,510 hands of the full deck with both jokers wild."""
    both = counted(both_jokers[1])
    assert dict(both) == BOTH_JOKERS_ONLY
    one = counted(one_joker[1])
    total = counted(naturals[1]) + one + one + both
    assert dict(total) == TWO_WILD_JOKERS
    assert sum(total.values()) == 3_162_510
    assert disagreeing(*both_jokers, by_evaluate)[:5] == []


def test_it_counts_the_same_through_the_fast_key(one_joker, both_jokers) -> None:
    """R3/R5: the fast path (hand_key, used for odds) classifies the joker hands as the
    others do."""
    assert disagreeing(*one_joker, by_hand_key)[:5] == []
    assert disagreeing(*both_jokers, by_hand_key)[:5] == []
