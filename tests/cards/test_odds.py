"""The odds meter and the discard advisor against the table as it is (issue 30; R6 decides
every comparison, R10 keeps every hidden card out, R13 sets the legal discards)."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb, sqrt

import numpy as np
import pytest

from cards.deck import FULL_DECK, parse_cards
from cards.hands import hand_key
from cards.odds import Opponent, Table, discard_advice, unseen_cards, win_probability
from tests.cards import single_hand_odds as reference


def cards(text: str) -> tuple:
    return tuple(parse_cards(text))


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def test_it_leaves_out_the_hand_and_the_known_cards() -> None:
    hand = parse_cards("A♠ K♠")
    known = parse_cards("RJ 2♣")
    pool = unseen_cards(hand, known)
    assert len(pool) == 50
    assert not set(pool) & set(hand + known)


def test_a_table_deals_only_what_the_player_cannot_see_R10() -> None:
    table = Table(cards("A♠ K♠"), (Opponent(5, cards("Q♥")), Opponent(3)), cards("2♣ RJ"))
    assert table.unknown == 4 + 3
    assert set(table.unseen()) == set(FULL_DECK) - set(cards("A♠ K♠ Q♥ 2♣ RJ"))


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (lambda: Table(cards("A♠ K♠"), (Opponent(5, cards("A♠")),)), "twice"),
        (lambda: Table(cards("A♠ K♠"), (), cards("K♠")), "twice"),
        (lambda: Opponent(1, cards("A♠ K♠")), "cannot show"),
        (lambda: Opponent(-1), "fewer"),
    ],
)
def test_it_refuses_a_table_that_cannot_be(table: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        table()  # type: ignore[operator]


@pytest.mark.parametrize(("hand", "opposing"), [("A♠ K♠", 2), ("7♦ 7♣", 2), ("Q♥", 2)])
def test_it_estimates_close_to_the_exact_chance_R6(hand: str, opposing: int) -> None:
    """Monte Carlo against full enumeration: within four standard errors."""
    exact = reference.exact_win_probability(parse_cards(hand), opposing)
    estimate = win_probability(Table(cards(hand), (Opponent(opposing),)), deals=20_000, rng=rng(11))
    assert abs(estimate.probability - exact) <= 4 * max(estimate.standard_error, 0.002)


def exact_against_two(hand: str, first: Opponent, second: Opponent) -> float:
    """Every deal of two small opposing hands, enumerated."""
    mine = hand_key(cards(hand))
    table = Table(cards(hand), (first, second))
    pool = table.unseen()
    wins = total = 0
    for one in combinations(pool, first.unknown):
        rest = [c for c in pool if c not in one]
        theirs = hand_key([*one, *first.known])
        for two in combinations(rest, second.unknown):
            total += 1
            wins += mine > theirs and mine > hand_key([*two, *second.known])
    return wins / total


@pytest.mark.parametrize(
    ("hand", "first", "second"),
    [
        ("10♥ 10♠", Opponent(1), Opponent(1)),
        ("Q♥", Opponent(2, cards("J♣")), Opponent(1)),
        ("9♦ 9♣", Opponent(2, cards("2♥")), Opponent(2, cards("RJ"))),
    ],
)
def test_it_weighs_every_opposing_hand_exactly_as_an_enumeration_would(
    hand: str, first: Opponent, second: Opponent
) -> None:
    """Several opponents, known cards among theirs: within four standard errors of the exact
    chance that the hand beats both."""
    exact = exact_against_two(hand, first, second)
    estimate = win_probability(Table(cards(hand), (first, second)), deals=20_000, rng=rng(5))
    assert abs(estimate.probability - exact) <= 4 * max(estimate.standard_error, 0.002)


@pytest.mark.parametrize(
    ("hand", "sizes"),
    [("A♠ A♥ K♦ K♣ 9♦ 9♠ 2♣", (5, 7, 6)), ("3♥ 3♣ 7♦ 7♣ 9♦ Q♦", (5, 5)), ("J♠ RJ", (8, 3))],
)
def test_it_agrees_with_yesterdays_single_hand_odds(hand: str, sizes: tuple[int, ...]) -> None:
    """The batch Monte Carlo and the one-hand-at-a-time one estimate the same chance."""
    table = Table(cards(hand), tuple(Opponent(n) for n in sizes))
    new = win_probability(table, deals=20_000, rng=rng(3))
    old = reference.win_probability(table, deals=4_000, rng=random.Random(3))
    spread = sqrt(new.standard_error**2 + old.standard_error**2)
    assert abs(new.probability - old.probability) <= 4.5 * max(spread, 0.003)


def test_it_is_reproducible_with_a_seed() -> None:
    table = Table(cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦"), (Opponent(5), Opponent(7)))
    one = win_probability(table, deals=2_000, rng=rng(5))
    two = win_probability(table, deals=2_000, rng=rng(5))
    assert one == two
    assert win_probability(table, deals=2_000, rng=rng(6)) != one  # (as good as surely)


def test_known_opposing_cards_count_R6() -> None:
    kings = cards("K♠ K♥")
    assert win_probability(Table(kings, (Opponent(2, cards("A♠ A♥")),)), rng=rng(1)).wins == 0
    lows = Table(kings, (Opponent(2, cards("2♣ 3♦")),))
    assert win_probability(lows, deals=500, rng=rng(1)).probability == 1.0


def test_it_says_five_of_a_kind_nearly_always_wins() -> None:
    hand = cards("A♠ A♥ A♦ A♣ RJ")
    estimate = win_probability(Table(hand, (Opponent(5), Opponent(7))), deals=3_000, rng=rng(1))
    # Only the other joker with four kings or so could come close; nothing beats five aces.
    assert estimate.probability == 1.0


def test_with_no_opposing_hand_left_it_wins() -> None:
    assert win_probability(Table(cards("2♣"), ()), deals=10, rng=rng(1)).probability == 1.0
    assert win_probability(Table((), (Opponent(1),)), deals=10, rng=rng(1)).probability == 0.0


def test_it_refuses_more_opposing_cards_than_are_unseen() -> None:
    table = Table(tuple(FULL_DECK[:50]), (Opponent(5),))
    with pytest.raises(ValueError, match="unseen"):
        win_probability(table, deals=10, rng=rng(1))


def test_it_deals_every_unseen_card_alike() -> None:
    """Every unseen card is as likely in an opposing hand as any other (a fair shuffle)."""
    table = Table(cards("A♠ K♠ Q♠"), (Opponent(7), Opponent(7), Opponent(7)))
    from cards.odds import _Dealer

    dealer = _Dealer(table.unseen(), 30_000, rng(2))
    hands = [dealer.hand(7) for _ in range(3)]
    assert all(np.bitwise_count(h).max() == 7 == np.bitwise_count(h).min() for h in hands)
    assert not np.any(hands[0] & hands[1])
    assert not np.any((hands[0] | hands[1]) & hands[2])
    for h in hands:
        counts = np.array([np.count_nonzero((h >> c.index) & 1) for c in table.unseen()])
        expected = 30_000 * 7 / len(table.unseen())
        assert np.abs(counts - expected).max() < 5 * sqrt(expected)


def test_it_offers_every_legal_discard_up_to_the_knack_limit_R13() -> None:
    hand = cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦")
    advice = discard_advice(Table(hand, (Opponent(5), Opponent(6))), 2, deals=200, rng=rng(3))
    assert len(advice) == 1 + 6 + comb(6, 2)  # keep all, one card, two cards
    assert {len(o.discards) for o in advice} == {0, 1, 2}
    assert len({frozenset(o.discards) for o in advice}) == len(advice)
    assert all(set(o.discards) <= set(hand) for o in advice)
    probabilities = [o.probability for o in advice]
    assert probabilities == sorted(probabilities, reverse=True)


def test_it_advises_black_jack_to_throw_the_loose_cards() -> None:
    """The seed's Black Jack, before his draw, with Shootin' 2: two pair, 9♦ and Q♦ loose.
    Throwing the loose cards keeps both pairs and gives two tries at a full house."""
    hand = cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦")
    advice = discard_advice(Table(hand), 2, deals=4_000, rng=rng(8))
    best = advice[0]
    assert {c.text for c in best.discards} == {"9♦", "Q♦"}
    breaking_a_pair = next(o for o in advice if {c.text for c in o.discards} == {"3♥", "3♣"})
    assert best.probability > breaking_a_pair.probability


def test_the_advisors_stand_pat_is_the_meters_figure() -> None:
    """Standing pat is the hand as it is: its chance is the meter's, within the noise."""
    table = Table(cards("A♠ A♥ K♦ K♣ 9♦ 9♠ 2♣"), (Opponent(5), Opponent(7), Opponent(6)))
    advice = discard_advice(table, 1, deals=10_000, rng=rng(4))
    pat = next(o for o in advice if not o.discards)
    meter = win_probability(table, deals=10_000, rng=rng(9))
    spread = sqrt(pat.estimate.standard_error**2 + meter.standard_error**2)
    assert abs(pat.probability - meter.probability) <= 4.5 * spread


def test_the_advisor_agrees_with_yesterdays_single_hand_advisor() -> None:
    """Against three opponents, the best discards and their chances match the one-hand-at-a-
    time advisor's (same model, independent code)."""
    table = Table(cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦"), (Opponent(5), Opponent(7), Opponent(6)))
    new = {o.discards: o.estimate for o in discard_advice(table, 2, deals=6_000, rng=rng(2))}
    old = reference.discard_advice(table, 2, deals=600, rng=random.Random(2))
    for option in old:
        mine = new[option.discards]
        spread = sqrt(mine.standard_error**2 + option.estimate.standard_error**2)
        assert abs(mine.probability - option.probability) <= 4.5 * max(spread, 0.005)


def test_it_knows_a_limit_of_zero_means_keep_the_hand_R13() -> None:
    hand = cards("2♣ 5♦ 9♥ J♠ K♣")
    advice = discard_advice(Table(hand), 0, deals=100, rng=rng(2))
    assert [o.discards for o in advice] == [()]
    with pytest.raises(ValueError, match="negative"):
        discard_advice(Table(hand), -1, deals=10, rng=rng(2))
