"""Poker hands as the app reads them: rulings R3-R9, with the seed's own examples.

Every literal key below was worked out by hand from the key format (category order, r1..r5,
s1..s5, c1..c5) and is also checked against the brute-force reference, so a wrong expectation
here and a wrong reference cannot hide each other.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from cards.deck import BLACK_JOKER, FULL_DECK, RED_JOKER, Card, Suit
from cards.hands import (
    Category,
    best_lay_for_narration,
    evaluate,
    lay_choices,
    parse_cards,
)
from tests.cards import reference

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
ALL_SUITS = frozenset(Suit)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def key(order: int, ranks: list[int], suits: list[int], colours: list[int] | None = None):
    """Build a 16-int key, padding each part with 0 to five places."""
    colours = colours or [0] * len(suits)

    def pad(xs: list[int]) -> tuple[int, ...]:
        return tuple(xs) + (0,) * (5 - len(xs))

    return (order, *pad(ranks), *pad(suits), *pad(colours))


def texts(cs) -> list[str]:
    return [c.text for c in cs]


def as_set(text: str) -> set[Card]:
    return set(cards(text))


# ---------------------------------------------------------------------------------------------
# The categories (R3)


def test_it_has_the_eleven_r3_categories_in_order() -> None:
    """R3: five of a kind (jokers only), royal flush, straight flush, four of a kind, full house,
    flush, straight, three of a kind, two pair, pair, high card."""
    expected = [
        "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
        "four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind",
    ]  # fmt: skip
    assert sorted((c.order, c.value) for c in Category) == list(enumerate(expected))


# The seed's POKER HANDS page (p. 24), plus five of a kind, each with its R7 combination size.
SEED_EXAMPLES = [
    # (hand, category, combination, expected key)
    ("10♦ J♦ Q♦ K♦ A♦", "royal_flush", "10♦ J♦ Q♦ K♦ A♦", key(9, [14, 13, 12, 11, 10], [2] * 5)),
    ("5♣ 6♣ 7♣ 8♣ 9♣", "straight_flush", "5♣ 6♣ 7♣ 8♣ 9♣", key(8, [9, 8, 7, 6, 5], [1] * 5)),
    ("A♠ 2♠ 3♠ 4♠ 5♠", "straight_flush", "A♠ 2♠ 3♠ 4♠ 5♠", key(8, [5, 4, 3, 2, 1], [4] * 5)),
    ("Q♣ Q♦ Q♥ Q♠", "four_of_a_kind", "Q♣ Q♦ Q♥ Q♠", key(7, [12] * 4, [4, 3, 2, 1])),
    ("J♣ J♥ J♠ 9♦ 9♥", "full_house", "J♣ J♥ J♠ 9♦ 9♥", key(6, [11, 11, 11, 9, 9], [4, 3, 1, 3, 2])),
    ("3♠ 6♠ 7♠ 10♠ Q♠", "flush", "3♠ 6♠ 7♠ 10♠ Q♠", key(5, [12, 10, 7, 6, 3], [4] * 5)),
    ("6♣ 7♦ 8♠ 9♥ 10♠", "straight", "6♣ 7♦ 8♠ 9♥ 10♠", key(4, [10, 9, 8, 7, 6], [4, 3, 4, 2, 1])),
    ("A♣ A♥ A♠", "three_of_a_kind", "A♣ A♥ A♠", key(3, [14] * 3, [4, 3, 1])),
    ("A♣ A♦ 8♥ 8♠", "two_pair", "A♣ A♦ 8♥ 8♠", key(2, [14, 14, 8, 8], [2, 1, 4, 3])),
    ("5♦ 5♥", "pair", "5♦ 5♥", key(1, [5, 5], [3, 2])),
    ("K♠ 9♦ 4♣ 2♥ 7♣", "high_card", "K♠", key(0, [13, 9, 7, 4, 2], [4, 2, 1, 1, 3])),
    (
        "9♣ 9♦ 9♥ 9♠ RJ",
        "five_of_a_kind",
        "9♣ 9♦ 9♥ 9♠ RJ",
        key(10, [9] * 5, [4, 3, 2, 1, 0], [0, 0, 0, 0, 2]),
    ),
]


@pytest.mark.parametrize(("hand", "category", "combination", "expected"), SEED_EXAMPLES)
def test_it_reads_the_seeds_poker_hands(hand, category, combination, expected) -> None:
    """R3/R7: the seed's POKER HANDS examples, their combination (R7) and Difficulty (R9)."""
    value = evaluate(cards(hand))
    assert value.category.value == category
    assert value.category == Category(category)
    assert value.key == expected
    assert reference.best_key(cards(hand)) == expected
    assert set(value.combination) == as_set(combination)
    assert value.difficulty == len(value.combination) == len(cards(combination))
    assert set(value.laid) == as_set(hand)  # five or fewer: lay them all (R4)


def test_it_ranks_the_seeds_examples_in_r3_order() -> None:
    """R3: each seed example beats the next one down the list."""
    values = [evaluate(cards(hand)) for hand, *_ in SEED_EXAMPLES if "RJ" not in hand]
    five = evaluate(cards("9♣ 9♦ 9♥ 9♠ RJ"))
    assert all(five > v for v in values)
    orders = [v.category.order for v in values]
    assert orders == sorted(orders, reverse=True)
    # the two straight flushes: 9-high beats the wheel
    assert values[1] > values[2]


# ---------------------------------------------------------------------------------------------
# R4: Black Jack's hand (the seed's example of choosing a lay)


BLACK_JACK = "3♥ 3♣ 7♦ 7♣ 3♦ K♠"


def test_it_lays_black_jacks_full_house() -> None:
    """R4: after his draw Black Jack holds 3♥ 3♣ 7♦ 7♣ 3♦ K♠; the best lay is the full house,
    3s over 7s, and the K♠ stays in his hand."""
    value = evaluate(cards(BLACK_JACK))
    assert value.category is Category.FULL_HOUSE
    assert set(value.laid) == as_set("3♥ 3♣ 3♦ 7♦ 7♣")
    assert [c.rank for c in value.laid] == [3, 3, 3, 7, 7]  # the three, then the two (R6)
    assert value.key == key(6, [3, 3, 3, 7, 7], [2, 1, 3, 2, 1])
    assert value.key == reference.best_key(cards(BLACK_JACK))
    assert value.difficulty == 5
    assert value.difficulty_suits == {H, C, D}
    assert value.high_card.text == "7♦"
    assert value.high_card_key == (7, 2, 0)


def test_it_offers_black_jack_the_lays_that_keep_the_king_of_spades() -> None:
    """R4/R8/R9: the app also offers the lays that keep the K♠ for narration.

    The seed offers "Two Pair ... and having that K♠". Three 3s with the K♠ and a 7 is a
    better poker hand that keeps the same K♠ (and is the best lay for narration), but the two
    pair deals 4 Difficulty to its 3, so both are offered, after the full house.
    """
    choices = lay_choices(cards(BLACK_JACK))
    assert [c.category for c in choices] == [
        Category.FULL_HOUSE,
        Category.THREE_OF_A_KIND,
        Category.TWO_PAIR,
    ]
    assert choices[0].key == evaluate(cards(BLACK_JACK)).key

    narration = choices[1]
    assert narration.key == best_lay_for_narration(cards(BLACK_JACK)).key
    assert narration.key == reference.best_narration(cards(BLACK_JACK)).key
    assert narration.high_card.text == "K♠"
    assert narration.high_card_key == (13, 4, 0)
    assert set(narration.laid) == as_set("3♥ 3♣ 3♦ K♠ 7♦")
    assert narration.key == key(3, [3, 3, 3, 13, 7], [3, 2, 1, 4, 2])
    assert narration.difficulty == 3

    two_pair = choices[2]  # the seed's two pair
    assert set(two_pair.laid) == as_set("7♦ 7♣ 3♥ 3♦ K♠")
    assert two_pair.high_card.text == "K♠"
    assert two_pair.key == key(2, [7, 7, 3, 3, 13], [2, 1, 3, 2, 4])
    assert two_pair.difficulty == 4
    assert two_pair < narration < choices[0]


def test_it_offers_a_weaker_lay_that_deals_more_difficulty() -> None:
    """R4/R9: four queens with the A♠ are the best lay (and keep the best card), but the full
    house Q-Q-Q-3-3 would deal 5 Difficulty instead of 4, so it is offered too."""
    choices = lay_choices(cards("Q♣ Q♦ Q♥ Q♠ 3♣ 3♦ A♠"))
    assert [(c.category, c.difficulty) for c in choices] == [
        (Category.FOUR_OF_A_KIND, 4),
        (Category.FULL_HOUSE, 5),
    ]
    assert choices[0].high_card.text == "A♠"
    assert set(choices[1].laid) == as_set("Q♠ Q♥ Q♦ 3♦ 3♣")


def test_it_offers_one_choice_when_the_best_lay_holds_the_best_card() -> None:
    """R4: no second choice when the best poker lay already holds the narration card."""
    choices = lay_choices(cards("2♣ 3♦ 4♥ 5♠ 6♣ 7♦ 8♥ 9♠ 10♣ J♦ Q♥ K♠"))
    assert len(choices) == 1
    assert choices[0].high_card.text == "K♠"


# ---------------------------------------------------------------------------------------------
# R9: Luke's Difficulty (the seed's example)


def test_it_gives_luke_three_points_on_hearts_clubs_and_diamonds() -> None:
    """R9: three 5s (5♥ 5♣ 5♦) deal 3 points to Heart, Guts and/or Eye."""
    value = evaluate(cards("5♥ 5♣ 5♦"))
    assert value.category is Category.THREE_OF_A_KIND
    assert value.difficulty == 3
    assert value.difficulty_suits == {H, C, D}
    assert {s.attribute for s in value.difficulty_suits} == {"heart", "guts", "eye"}
    assert value.key == key(3, [5, 5, 5], [3, 2, 1])


@pytest.mark.parametrize("joker", [RED_JOKER, BLACK_JOKER])
def test_it_gives_luke_three_points_on_hearts_and_clubs_when_a_joker_stands_in(joker) -> None:
    """R9 (and R5): with a joker for the 5♦, still 3 points, but only on Heart and Guts:
    a joker never adds a suit to Difficulty."""
    value = evaluate([*cards("5♥ 5♣"), joker])
    assert value.category is Category.THREE_OF_A_KIND
    assert value.difficulty == 3
    assert value.difficulty_suits == {H, C}
    assert {s.attribute for s in value.difficulty_suits} == {"heart", "guts"}
    assert value.key == key(3, [5, 5, 5], [3, 1, 0], [0, 0, joker.joker])
    assert [(j, r) for j, r, _ in value.jokers_as] == [(joker, 5)]


@pytest.mark.parametrize(
    "hand",
    ["RJ", "BJ", "RJ BJ"],
)
def test_it_lets_any_attribute_take_the_points_of_an_all_joker_combination(hand) -> None:
    """R9: a combination with no natural card lets the loser place the points anywhere."""
    value = evaluate(cards(hand))
    assert value.difficulty == len(cards(hand))
    assert value.difficulty_suits == ALL_SUITS
    assert all(c.is_joker for c in value.combination)


def test_it_reads_two_lone_jokers_as_a_pair_of_aces() -> None:
    """R5: two jokers alone are the best pair there is: aces, red before black."""
    value = evaluate(cards("BJ RJ"))
    assert value.category is Category.PAIR
    assert value.key == key(1, [14, 14], [0, 0], [2, 1])
    assert value.high_card is RED_JOKER
    assert value.high_card_key == (14, 0, 2)


def test_it_reads_a_lone_joker_as_an_ace_high() -> None:
    """R5/R6/R7: a lone joker is an ace high; black below red, both below A♣."""
    value = evaluate([RED_JOKER])
    assert value.category is Category.HIGH_CARD
    assert value.key == key(0, [14], [0], [2])
    assert value.high_card_key == (14, 0, 2)
    assert evaluate([BLACK_JOKER]) < value  # R6 step 5
    assert evaluate(cards("A♣")) > value  # R5: a joker is lower than ♣


def test_it_uses_the_natural_suits_only_for_difficulty_when_a_joker_is_in_a_flush() -> None:
    """R9: a spade flush with a joker hurts only Hand."""
    value = evaluate(cards("A♠ K♠ Q♠ 9♠ RJ"))
    assert value.difficulty == 5
    assert value.difficulty_suits == {S}


def test_it_puts_the_points_of_a_high_card_on_that_cards_suit() -> None:
    """R7/R9: high card's combination is the single highest card: one point."""
    value = evaluate(cards("A♣ K♦ 3♥"))
    assert value.combination == tuple(cards("A♣"))
    assert value.difficulty == 1
    assert value.difficulty_suits == {C}


# ---------------------------------------------------------------------------------------------
# R3: the ace, low in A-2-3-4-5


def test_it_counts_the_ace_as_one_in_a_wheel() -> None:
    """R3: in A-2-3-4-5 the 5 is the top card and the high card is the 5♠, not the A♠."""
    value = evaluate(cards("A♠ 2♦ 3♣ 4♥ 5♠"))
    assert value.category is Category.STRAIGHT
    assert value.key == key(4, [5, 4, 3, 2, 1], [4, 3, 1, 2, 4])
    assert value.high_card.text == "5♠"
    assert value.high_card_key == (5, 4, 0)
    assert texts(value.laid) == ["5♠", "4♥", "3♣", "2♦", "A♠"]


def test_it_ranks_the_wheel_below_a_six_high_straight() -> None:
    """R3: the wheel is the lowest straight, even against the lowest suits."""
    wheel = evaluate(cards("A♠ 2♠ 3♠ 4♠ 5♥"))
    six_high = evaluate(cards("2♣ 3♣ 4♦ 5♦ 6♣"))
    assert wheel.category is six_high.category is Category.STRAIGHT
    assert six_high > wheel
    assert evaluate(cards("A♠ K♦ Q♣ J♥ 10♠")) > six_high  # the ace plays high too


def test_it_does_not_wrap_straights_around_the_ace() -> None:
    """R3: K-A-2-3-4 is no straight."""
    assert evaluate(cards("K♠ A♦ 2♣ 3♥ 4♠")).category is Category.HIGH_CARD


def test_it_keeps_the_ace_high_outside_a_wheel_for_narration() -> None:
    """R3/R4/R8: from A♠ 2♦ 3♣ 4♥ 5♠ 9♣ the best lay is the wheel (high card 5♠); the lay for
    narration drops the wheel so the A♠ counts 14."""
    hand = cards("A♠ 2♦ 3♣ 4♥ 5♠ 9♣")
    best, narration = lay_choices(hand)
    assert best.category is Category.STRAIGHT
    assert best.high_card_key == (5, 4, 0)
    assert narration.high_card.text == "A♠"
    assert narration.high_card_key == (14, 4, 0)
    assert narration.category is Category.HIGH_CARD
    assert set(narration.laid) == as_set("A♠ 9♣ 5♠ 4♥ 3♣")
    assert narration.key == key(0, [14, 9, 5, 4, 3], [4, 1, 4, 3, 1])
    assert narration.key == reference.best_narration(hand).key


# ---------------------------------------------------------------------------------------------
# R5: jokers


def test_it_never_makes_a_double_ace_flush() -> None:
    """R5: A♠ K♠ Q♠ 9♠ + joker is the flush A-K-Q-J-9, the joker a J♠."""
    value = evaluate(cards("A♠ K♠ Q♠ 9♠ RJ"))
    assert value.category is Category.FLUSH
    assert value.key == key(5, [14, 13, 12, 11, 9], [4, 4, 4, 0, 4], [0, 0, 0, 2, 0])
    assert value.key == reference.best_key(cards("A♠ K♠ Q♠ 9♠ RJ"))
    assert value.jokers_as == ((RED_JOKER, 11, 4),)
    assert [c.text for c in value.laid] == ["A♠", "K♠", "Q♠", "RJ", "9♠"]
    assert value > evaluate(cards("A♣ K♣ Q♣ J♣ 2♣"))  # the joker's J beats a 2 in 5th place
    assert value > evaluate(cards("A♣ K♣ Q♣ J♣ 9♣"))  # same ranks: the A♠ beats the A♣ (R6.4)
    assert value < evaluate(cards("A♠ K♠ Q♠ J♠ 9♠"))  # same ranks, the natural J♠ beats it


def test_it_fills_a_flush_with_two_jokers_without_repeating_ranks() -> None:
    """R5: A♥ K♥ 9♥ + two jokers: A-K-Q-J-9, red joker the Q, black the J."""
    value = evaluate(cards("A♥ K♥ 9♥ RJ BJ"))
    assert value.category is Category.FLUSH
    assert value.key == key(5, [14, 13, 12, 11, 9], [3, 3, 0, 0, 3], [0, 0, 2, 1, 0])


def test_it_makes_a_royal_flush_with_a_joker() -> None:
    """R3/R5: the joker is the missing 10♠ of the royal."""
    value = evaluate(cards("A♠ K♠ Q♠ J♠ RJ"))
    assert value.category is Category.ROYAL_FLUSH
    assert value.key == key(9, [14, 13, 12, 11, 10], [4, 4, 4, 4, 0], [0, 0, 0, 0, 2])
    assert value.jokers_as == ((RED_JOKER, 10, 4),)


def test_it_prefers_a_natural_royal_to_one_with_a_joker() -> None:
    """R5/R6: the joker counts lower than ♣, so the all-natural royal is the better lay."""
    value = evaluate(cards("A♠ K♠ Q♠ J♠ 10♠ RJ"))
    assert value.category is Category.ROYAL_FLUSH
    assert RED_JOKER not in value.laid
    assert value.key == key(9, [14, 13, 12, 11, 10], [4] * 5)


def test_it_places_the_red_joker_in_the_higher_gap_of_a_straight_flush() -> None:
    """R5/R6 step 5: 7♣ 8♣ 9♣ + both jokers is the J-high straight flush; the red joker is
    the J and the black the 10, and the jokers count suit 0 even inside the flush."""
    value = evaluate(cards("7♣ 8♣ 9♣ BJ RJ"))
    assert value.category is Category.STRAIGHT_FLUSH
    assert value.key == key(8, [11, 10, 9, 8, 7], [0, 0, 1, 1, 1], [2, 1, 0, 0, 0])
    assert set(value.jokers_as) == {(RED_JOKER, 11, 1), (BLACK_JOKER, 10, 1)}


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("2♣ 2♦ 2♥ 2♠ RJ", key(10, [2] * 5, [4, 3, 2, 1, 0], [0, 0, 0, 0, 2])),
        ("9♣ 9♦ 9♥ RJ BJ", key(10, [9] * 5, [3, 2, 1, 0, 0], [0, 0, 0, 2, 1])),
        ("A♣ A♦ A♥ A♠ BJ", key(10, [14] * 5, [4, 3, 2, 1, 0], [0, 0, 0, 0, 1])),
    ],
)
def test_it_makes_five_of_a_kind_that_beats_a_royal_flush(hand, expected) -> None:
    """R3/R5: five of a kind, only possible with jokers, beats every royal flush."""
    value = evaluate(cards(hand))
    assert value.category is Category.FIVE_OF_A_KIND
    assert value.key == expected
    assert value.key == reference.best_key(cards(hand))
    assert value > evaluate(cards("10♠ J♠ Q♠ K♠ A♠"))
    assert value.difficulty == 5


def test_it_lets_a_joker_be_a_card_held_elsewhere() -> None:
    """R5: a joker may be any card: with K♠ in this hand, the joker is another K for a pair."""
    value = evaluate(cards("K♠ RJ"))
    assert value.category is Category.PAIR
    assert value.key == key(1, [13, 13], [4, 0], [0, 2])
    assert value.high_card.text == "K♠"


@pytest.mark.parametrize(
    ("hand", "category", "expected"),
    [
        ("K♠ K♥ RJ BJ", "four_of_a_kind", key(7, [13] * 4, [4, 3, 0, 0], [0, 0, 2, 1])),
        ("K♠ RJ BJ", "three_of_a_kind", key(3, [13] * 3, [4, 0, 0], [0, 2, 1])),
        ("K♠ 2♦ RJ BJ", "three_of_a_kind", key(3, [13, 13, 13, 2], [4, 0, 0, 2], [0, 2, 1, 0])),
        ("2♠ 3♠ 4♠ 5♠", "high_card", key(0, [5, 4, 3, 2], [4, 4, 4, 4])),
        ("2♠ 3♠ 4♠ RJ", "pair", key(1, [4, 4, 3, 2], [4, 0, 4, 4], [0, 2, 0, 0])),
        (
            "A♥ RJ 7♣ 4♦ A♠",
            "three_of_a_kind",
            key(3, [14, 14, 14, 7, 4], [4, 3, 0, 1, 2], [0, 0, 2, 0, 0]),
        ),
        ("RJ 2♦ 3♣ 4♥ 5♠", "straight", key(4, [6, 5, 4, 3, 2], [0, 4, 3, 1, 2], [2, 0, 0, 0, 0])),
        ("A♠ 2♦ 3♣ 4♥ RJ", "straight", key(4, [5, 4, 3, 2, 1], [0, 3, 1, 2, 4], [2, 0, 0, 0, 0])),
        (
            "RJ 9♠ 10♠ J♠ Q♠",
            "straight_flush",
            key(8, [13, 12, 11, 10, 9], [0, 4, 4, 4, 4], [2, 0, 0, 0, 0]),
        ),
        (
            "K♣ K♦ Q♠ Q♥ RJ",
            "full_house",
            key(6, [13, 13, 13, 12, 12], [2, 1, 0, 4, 3], [0, 0, 2, 0, 0]),
        ),
        (
            "Q♣ Q♦ K♠ K♥ RJ",
            "full_house",
            key(6, [13, 13, 13, 12, 12], [4, 3, 0, 2, 1], [0, 0, 2, 0, 0]),
        ),
    ],
)
def test_it_gives_jokers_the_identity_that_makes_the_best_hand(hand, category, expected) -> None:
    """R5: the joker stands for whatever rank makes the best hand; straights and flushes need
    five cards (R3); the joker sorts below ♣ at its rank (R5, R6 step 4)."""
    value = evaluate(cards(hand))
    assert value.category.value == category
    assert value.key == expected
    assert value.key == reference.best_key(cards(hand))


# ---------------------------------------------------------------------------------------------
# R6: comparing lays


@pytest.mark.parametrize(
    ("better", "worse", "why"),
    [
        ("2♣ 2♦ 2♥ 3♣ 3♦", "A♠ K♠ Q♠ J♠ 9♠", "category: a full house beats a flush"),
        ("J♣ J♥ J♠ 9♦ 9♥", "10♣ 10♥ 10♠ A♦ A♥", "full house: the three first"),
        ("J♣ J♥ J♠ 9♦ 9♥", "J♣ J♥ J♠ 8♦ 8♥", "full house: then the two"),
        ("A♣ A♦ 8♥ 8♠ 2♣", "K♠ K♥ Q♠ Q♥ J♠", "two pair: the high pair first"),
        ("A♣ A♦ 9♥ 9♠ 2♣", "A♥ A♠ 8♥ 8♠ K♣", "two pair: then the low pair"),
        ("A♣ A♦ 9♥ 9♠ 3♣", "A♥ A♠ 9♣ 9♦ 2♠", "two pair: then the kicker"),
        ("7♣ 8♦ 9♣ 10♦ J♣", "6♠ 7♠ 8♥ 9♠ 10♠", "straight: its top card"),
        ("A♣ Q♣ 9♣ 7♣ 3♣", "A♠ Q♠ 9♠ 7♠ 2♠", "flush: every rank, highest first"),
        ("K♣ K♦ 9♣ 5♦ 3♣", "Q♠ Q♥ A♠ K♥ J♠", "pair: the rank of the pair"),
        ("K♣ K♦ 9♣ 5♦ 3♣", "K♠ K♥ 9♠ 5♠ 2♠", "pair: then the kickers"),
        ("A♣ 4♦ 3♣ 2♦ 6♣", "K♠ Q♠ J♠ 9♥ 8♠", "high card: the highest card"),
        ("A♣ K♦ 3♣ 2♦ 6♣", "A♠ Q♠ J♠ 9♥ 8♠", "high card: then the next"),
        ("Q♣ Q♦ Q♥ Q♠ 3♣", "J♣ J♦ J♥ J♠ A♠", "four of a kind: the rank of the set"),
        ("10♦ 10♥ 10♠ 3♣ 2♣", "10♣ 10♥ 10♠ 3♠ 2♠", "suits: combination first"),
        ("K♠ K♣ 9♦ 5♣ 2♥", "K♥ K♦ 9♠ 5♠ 2♠", "suits: card by card, the highest first"),
        ("8♠ 8♦ A♣", "8♠ 8♣ A♥", "suits: the second card of the combination"),
        ("K♣ K♦", "K♣ RJ", "suits: a joker counts lower than ♣"),
        ("A♠ A♥ RJ 7♣ 4♦", "A♠ A♥ BJ 7♣ 4♦", "a red joker beats a black one in the same place"),
        ("K♠ Q♥ 9♣ 2♦", "K♠ Q♥ 9♣", "a longer lay beats an otherwise equal shorter one"),
        ("K♠ K♥ 2♣", "K♠ K♥", "a longer lay beats an otherwise equal shorter one"),
        ("2♣", "", "any card beats no card"),
    ],
)
def test_it_compares_lays_in_r6_order(better: str, worse: str, why: str) -> None:
    """R6: category, defining ranks, kickers, suits, then joker colour."""
    a, b = evaluate(cards(better)), evaluate(cards(worse))
    assert a > b, why
    assert b < a
    assert a.key > b.key
    assert reference.best_key(cards(better)) > reference.best_key(cards(worse))


def test_it_never_ties_two_different_lays() -> None:
    """R6: two different lays never tie; here every lay of 1-3 of the aces, kings, 2s and
    jokers."""
    pool = [c for c in FULL_DECK if c.rank in (14, 13, 2) or c.is_joker]
    seen: dict[tuple[int, ...], frozenset[Card]] = {}
    for size in (1, 2, 3):
        for lay in combinations(pool, size):
            k = evaluate(lay).key
            assert seen.setdefault(k, frozenset(lay)) == frozenset(lay)


# ---------------------------------------------------------------------------------------------
# R7: combination sizes


@pytest.mark.parametrize(
    ("hand", "category", "size"),
    [
        ("7♣ 7♦ 7♥ 7♠ RJ", "five_of_a_kind", 5),
        ("10♥ J♥ Q♥ K♥ A♥", "royal_flush", 5),
        ("4♦ 5♦ 6♦ 7♦ 8♦", "straight_flush", 5),
        ("4♦ 4♣ 4♥ 4♠ K♠", "four_of_a_kind", 4),
        ("4♦ 4♣ 4♥ K♥ K♠", "full_house", 5),
        ("2♦ 5♦ 6♦ 7♦ 8♦", "flush", 5),
        ("4♦ 5♣ 6♦ 7♦ 8♦", "straight", 5),
        ("4♦ 4♣ 4♥ K♥ Q♠", "three_of_a_kind", 3),
        ("4♦ 4♣ 9♥ K♥ K♠", "two_pair", 4),
        ("4♦ 4♣ 9♥ Q♥ K♠", "pair", 2),
        ("4♦ 7♣ 9♥ Q♥ K♠", "high_card", 1),
    ],
)
def test_it_sizes_the_combination_as_r7_says(hand: str, category: str, size: int) -> None:
    """R7: all five for five of a kind, straights, flushes and full houses; four for four of a
    kind and two pair; three for three of a kind; two for a pair; one for high card."""
    value = evaluate(cards(hand))
    assert value.category.value == category
    assert len(value.combination) == size
    assert value.difficulty == size
    assert set(value.combination) <= set(value.laid)
    assert set(value.laid[:size]) == set(value.combination)  # the combination comes first
    assert set(value.combination) == reference.best_value(cards(hand)).combination


def test_it_picks_the_highest_card_as_the_high_card_combination() -> None:
    """R7: high card's combination is the single highest card."""
    value = evaluate(cards("4♦ 7♣ 9♥ Q♥ K♠"))
    assert value.combination == tuple(cards("K♠"))
    assert value.high_card.text == "K♠"


# ---------------------------------------------------------------------------------------------
# R8: narration across hands


def narration_winner(*hands: str) -> int:
    """The index of the hand whose laid high card wins narration (R8)."""
    keys = [evaluate(cards(h)).high_card_key for h in hands]
    return keys.index(max(keys))


def test_it_gives_narration_to_the_highest_single_card_not_the_best_hand() -> None:
    """R8 (seed: "even the lowest ranking hand can yield the high card—the A♠")."""
    assert narration_winner("K♠ K♥ K♦ 2♣ 2♦", "A♠ 7♦ 5♣ 4♥ 2♥") == 1


def test_it_breaks_narration_ties_by_suit() -> None:
    """R8/R2: equal ranks go by suit, ♠ highest."""
    assert narration_winner("A♥ 3♦", "A♠ 2♣", "A♣ 4♣") == 1


def test_it_counts_the_wheels_ace_as_one_for_narration() -> None:
    """R3/R8: in A-2-3-4-5 the ace counts 1, so a lone 6♣ takes narration from the wheel."""
    wheel = evaluate(cards("A♠ 2♦ 3♣ 4♥ 5♠"))
    assert wheel.high_card_key == (5, 4, 0)
    assert narration_winner("A♠ 2♦ 3♣ 4♥ 5♠", "6♣") == 1
    assert narration_winner("A♠ 2♦ 3♣ 4♥ 5♠", "5♥ 4♣") == 0


def test_it_counts_a_joker_as_its_rank_and_below_clubs_for_narration() -> None:
    """R8: a joker counts as the rank it took in its lay and as lower than ♣ in suit."""
    royal = evaluate(cards("RJ K♥ Q♥ J♥ 10♥"))  # the joker is the A♥
    assert royal.category is Category.ROYAL_FLUSH
    assert royal.high_card is RED_JOKER
    assert royal.high_card_key == (14, 0, 2)
    assert narration_winner("RJ K♥ Q♥ J♥ 10♥", "K♠ Q♣") == 0  # an ace beats a king
    assert narration_winner("RJ K♥ Q♥ J♥ 10♥", "A♣ 2♦") == 1  # any natural ace beats it


def test_it_gives_narration_to_the_red_joker_between_two_jokers_of_one_rank() -> None:
    """R8: between two jokers that took the same rank, red beats black."""
    assert narration_winner("BJ K♠ Q♠ J♠ 10♠", "RJ K♥ Q♥ J♥ 10♥") == 1
    assert narration_winner("RJ", "BJ") == 0


def test_it_counts_a_joker_below_a_natural_of_its_rank_in_its_own_lay() -> None:
    """R8: 5♥ 5♣ + joker: the joker is a 5, below the 5♣; the 5♥ is the high card."""
    value = evaluate(cards("5♥ 5♣ BJ"))
    assert value.high_card.text == "5♥"
    assert value.high_card_key == (5, 3, 0)


# ---------------------------------------------------------------------------------------------
# R4: hands of every size


def test_it_lays_all_the_cards_of_a_short_hand() -> None:
    """R4: with fewer than five cards in hand, all of them are laid."""
    for text in ("K♠", "K♠ Q♥", "K♠ Q♥ 9♣", "K♠ Q♥ 9♣ 9♦"):
        value = evaluate(cards(text))
        assert set(value.laid) == as_set(text)
        assert len(value.laid) == len(cards(text))
    assert evaluate(cards("K♠ Q♥ 9♣")).key == key(0, [13, 12, 9], [4, 3, 1])
    assert evaluate(cards("K♠ Q♥ 9♣ 9♦")).key == key(1, [9, 9, 13, 12], [2, 1, 4, 3])


def test_it_needs_five_cards_for_a_straight_or_a_flush() -> None:
    """R3: four suited connectors are no straight, no flush."""
    assert evaluate(cards("6♥ 7♥ 8♥ 9♥")).category is Category.HIGH_CARD


def test_it_values_an_empty_hand_below_everything() -> None:
    """R4/R6: a hand of no cards lays nothing and loses to any card."""
    value = evaluate([])
    assert value.laid == ()
    assert value.combination == ()
    assert value.difficulty == 0
    assert value.high_card is None
    assert value.key == (0,) * 16
    assert value < evaluate(cards("2♣"))
    assert best_lay_for_narration([]).laid == ()
    assert len(lay_choices([])) == 1


def test_it_refuses_a_hand_with_the_same_card_twice() -> None:
    """R1/R10: a hand holds distinct cards."""
    card = cards("A♠")[0]
    with pytest.raises(ValueError, match="twice"):
        evaluate([card, card])


@pytest.mark.parametrize(
    ("hand", "category", "laid"),
    [
        ("2♣ 3♦ 4♥ 5♠ 6♣ 7♦ 8♥ 9♠ 10♣ J♦ Q♥ K♠", "straight", "9♠ 10♣ J♦ Q♥ K♠"),
        ("2♥ 3♥ 7♥ 9♥ K♥ A♣ A♦ A♠ K♣ 4♦ 5♣ 6♠", "full_house", "A♣ A♦ A♠ K♥ K♣"),
        ("2♥ 3♥ 7♥ 9♥ K♥ A♣ A♦ 5♠ Q♣ 4♦ 5♣ 6♠", "flush", "2♥ 3♥ 7♥ 9♥ K♥"),
        ("2♥ 3♥ 7♥ 9♥ K♥ A♣ A♦ 5♠ Q♣ 4♦ RJ BJ", "four_of_a_kind", "A♣ A♦ RJ BJ K♥"),
        ("2♥ 3♥ 7♥ 9♥ K♥ A♣ A♦ A♥ Q♣ 4♦ RJ BJ", "five_of_a_kind", "A♣ A♦ A♥ RJ BJ"),
        ("2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠", "straight_flush", "9♠ 10♠ J♠ Q♠ K♠"),
    ],
)
def test_it_lays_the_best_five_of_a_twelve_card_hand(hand: str, category: str, laid: str) -> None:
    """R4: a player may hold many cards but lays only five."""
    value = evaluate(cards(hand))
    assert value.category.value == category
    assert set(value.laid) == as_set(laid)
    assert value.key == reference.best_key(cards(hand))


# ---------------------------------------------------------------------------------------------
# The HandValue itself


def test_it_lists_the_laid_cards_combination_first_in_defining_order() -> None:
    """R6/R7: laid = the combination in defining order, then the kickers highest first."""
    assert texts(evaluate(cards("2♦ Q♠ 7♥ Q♦ 7♣ K♣")).laid) == ["Q♠", "Q♦", "7♥", "7♣", "K♣"]
    assert texts(evaluate(cards("4♣ J♥ 4♦ 9♠ 4♠ 2♣")).laid) == ["4♠", "4♦", "4♣", "J♥", "9♠"]
    assert texts(evaluate(cards("8♣ 8♥ 8♦ K♦ K♠")).laid) == ["8♥", "8♦", "8♣", "K♠", "K♦"]


def test_it_compares_hand_values_with_the_usual_operators() -> None:
    """R6: HandValues compare by key with <, >, <= and >=."""
    a, b = evaluate(cards("A♠ A♥")), evaluate(cards("K♠ K♥"))
    assert a > b
    assert b < a
    assert a >= b
    assert b <= a
    assert not a < b
