"""Odds for the player's advisor: how likely a hand is to win, and which discards help most.

Both are Monte Carlo estimates over the cards the player cannot see (the deck less their own
hand and any cards they know are elsewhere). Every unseen card is equally likely to be in the
opposing hand or to come off the deck, so one random sample of unseen cards per deal plays
both roles.

The random source is injected. These are estimates, not deals: a fast non-cryptographic
``random.Random`` is the right tool here (R10's cryptographic shuffle is for the real deck).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .deck import FULL_DECK, Card
from .hands import hand_key

__all__ = ["DiscardOption", "Estimate", "discard_advice", "unseen_cards", "win_probability"]


@dataclass(frozen=True, slots=True)
class Estimate:
    wins: int
    deals: int

    @property
    def probability(self) -> float:
        return self.wins / self.deals if self.deals else 0.0

    @property
    def standard_error(self) -> float:
        p = self.probability
        return math.sqrt(p * (1 - p) / self.deals) if self.deals else 0.0

    @property
    def percent(self) -> int:
        return round(100 * self.probability)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """Discard these cards (and draw as many): the estimated chance to win afterwards."""

    discards: tuple[Card, ...]
    estimate: Estimate

    @property
    def probability(self) -> float:
        return self.estimate.probability


def unseen_cards(hand: Iterable[Card], known: Iterable[Card] = ()) -> list[Card]:
    """The cards the player cannot see: the 54 less their hand and the cards known elsewhere."""
    out = set(hand) | set(known)
    return [c for c in FULL_DECK if c not in out]


def win_probability(
    hand: Sequence[Card],
    *,
    opposing_cards: int = 5,
    deals: int = 10_000,
    rng: random.Random,
    known: Iterable[Card] = (),
) -> Estimate:
    """The chance that ``hand`` beats an opposing hand of ``opposing_cards`` unseen cards
    (e.g. the Dealer's 5-card stud, R12), comparing best lays by R6."""
    pool = unseen_cards(hand, known)
    if opposing_cards > len(pool):
        raise ValueError(f"only {len(pool)} unseen cards: cannot deal {opposing_cards}")
    mine = hand_key(hand)
    sample = rng.sample
    wins = 0
    for _ in range(deals):
        if mine > hand_key(sample(pool, opposing_cards)):
            wins += 1
    return Estimate(wins, deals)


def discard_advice(
    hand: Sequence[Card],
    limit: int,
    *,
    opposing_cards: int = 5,
    deals: int = 2_500,
    rng: random.Random,
    known: Iterable[Card] = (),
) -> list[DiscardOption]:
    """Every legal discard (R13: none up to ``limit`` cards), best chance to win first.

    All choices are judged on the same random deals (common random numbers): the ranking
    then reflects the choices, not the luck of separate samples. Ties go to fewer discards.
    """
    hand = list(hand)
    if limit < 0:
        raise ValueError("the redraw limit cannot be negative")
    limit = min(limit, len(hand))
    pool = unseen_cards(hand, known)
    if opposing_cards + limit > len(pool):
        raise ValueError(f"only {len(pool)} unseen cards: not enough to estimate")
    choices = [
        (discards, [c for c in hand if c not in discards])
        for size in range(limit + 1)
        for discards in combinations(hand, size)
    ]
    wins = [0] * len(choices)
    standing = hand_key(hand)  # the no-discard hand does not change between deals
    sample = rng.sample
    for _ in range(deals):
        drawn = sample(pool, opposing_cards + limit)
        theirs = hand_key(drawn[:opposing_cards])
        fresh = drawn[opposing_cards:]
        for i, (discards, kept) in enumerate(choices):
            mine = hand_key(kept + fresh[: len(discards)]) if discards else standing
            if mine > theirs:
                wins[i] += 1
    options = [
        DiscardOption(tuple(discards), Estimate(w, deals))
        for (discards, _), w in zip(choices, wins, strict=True)
    ]
    options.sort(key=lambda o: (-o.estimate.wins, len(o.discards)))
    return options
