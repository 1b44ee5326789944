"""The odds meter and the discard advisor (foundation issue; R6 decides every comparison, R13
sets the legal discards)."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest

from cards.deck import FULL_DECK, parse_cards
from cards.hands import hand_key
from cards.odds import discard_advice, unseen_cards, win_probability


def exact_win_probability(hand_text: str, opposing_cards: int) -> float:
    """Every opposing hand of the unseen cards, enumerated (small cases only)."""
    hand = parse_cards(hand_text)
    mine = hand_key(hand)
    pool = unseen_cards(hand)
    wins = total = 0
    for theirs in combinations(pool, opposing_cards):
        total += 1
        wins += mine > hand_key(theirs)
    return wins / total


def test_it_leaves_out_the_hand_and_the_known_cards() -> None:
    hand = parse_cards("A♠ K♠")
    known = parse_cards("RJ 2♣")
    pool = unseen_cards(hand, known)
    assert len(pool) == 50
    assert not set(pool) & set(hand + known)


@pytest.mark.parametrize(("hand", "opposing"), [("A♠ K♠", 2), ("7♦ 7♣", 2), ("Q♥", 2)])
def test_it_estimates_close_to_the_exact_chance_R6(hand: str, opposing: int) -> None:
    """Monte Carlo against full enumeration: within four standard errors."""
    exact = exact_win_probability(hand, opposing)
    estimate = win_probability(
        parse_cards(hand), opposing_cards=opposing, deals=20_000, rng=random.Random(11)
    )
    assert abs(estimate.probability - exact) <= 4 * max(estimate.standard_error, 0.002)


def test_it_is_reproducible_with_a_seeded_random_source() -> None:
    hand = parse_cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦")
    one = win_probability(hand, deals=2_000, rng=random.Random(5))
    two = win_probability(hand, deals=2_000, rng=random.Random(5))
    assert one == two


def test_it_says_five_of_a_kind_nearly_always_wins() -> None:
    hand = parse_cards("A♠ A♥ A♦ A♣ RJ")
    estimate = win_probability(hand, deals=3_000, rng=random.Random(1))
    # Only the other joker with four kings or so could come close; nothing beats five aces.
    assert estimate.probability == 1.0


def test_it_refuses_more_opposing_cards_than_are_unseen() -> None:
    hand = list(FULL_DECK[:50])
    with pytest.raises(ValueError, match="unseen"):
        win_probability(hand, opposing_cards=5, deals=10, rng=random.Random(1))


def test_it_offers_every_legal_discard_up_to_the_knack_limit_R13() -> None:
    hand = parse_cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦")
    advice = discard_advice(hand, 2, deals=200, rng=random.Random(3))
    assert len(advice) == 1 + 6 + comb(6, 2)  # keep all, one card, two cards
    assert {len(o.discards) for o in advice} == {0, 1, 2}
    assert len({frozenset(o.discards) for o in advice}) == len(advice)
    assert all(set(o.discards) <= set(hand) for o in advice)
    probabilities = [o.probability for o in advice]
    assert probabilities == sorted(probabilities, reverse=True)


def test_it_advises_black_jack_to_throw_the_loose_cards() -> None:
    """The seed's Black Jack, before his draw, with Shootin' 2: two pair, 9♦ and Q♦ loose.
    Throwing the loose cards keeps both pairs and gives two tries at a full house."""
    hand = parse_cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦")
    advice = discard_advice(hand, 2, deals=4_000, rng=random.Random(8))
    best = advice[0]
    assert {c.text for c in best.discards} == {"9♦", "Q♦"}
    breaking_a_pair = next(o for o in advice if {c.text for c in o.discards} == {"3♥", "3♣"})
    assert best.probability > breaking_a_pair.probability


def test_it_knows_a_limit_of_zero_means_keep_the_hand_R13() -> None:
    hand = parse_cards("2♣ 5♦ 9♥ J♠ K♣")
    advice = discard_advice(hand, 0, deals=100, rng=random.Random(2))
    assert [o.discards for o in advice] == [()]
    with pytest.raises(ValueError, match="negative"):
        discard_advice(hand, -1, deals=10, rng=random.Random(2))
