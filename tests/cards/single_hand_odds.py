"""Yesterday's odds, one hand at a time: the Monte Carlo the odds meter ran before the batch
evaluator (issue 30), kept as an independent check of ``cards.odds`` and as the benchmark's
baseline. Each deal samples the unseen cards with ``random.Random`` and evaluates every hand
with ``hands.hand_key``; ``known`` cards (and each opponent's ``known`` ones) are not dealt.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from cards.deck import Card
from cards.hands import hand_key
from cards.odds import DiscardOption, Estimate, Table, unseen_cards


def _slices(table: Table) -> list[tuple[int, int, tuple[Card, ...]]]:
    out, start = [], 0
    for o in table.opponents:
        out.append((start, start + o.unknown, o.known))
        start += o.unknown
    return out


def win_probability(table: Table, *, deals: int, rng: random.Random) -> Estimate:
    pool = unseen_cards(table.cards_seen())
    mine = hand_key(table.hand)
    slices = _slices(table)
    need = table.unknown
    sample = rng.sample
    wins = 0
    for _ in range(deals):
        drawn = sample(pool, need)
        if all(mine > hand_key([*drawn[a:b], *known]) for a, b, known in slices):
            wins += 1
    return Estimate(wins, deals)


def discard_advice(
    table: Table, limit: int, *, deals: int, rng: random.Random
) -> list[DiscardOption]:
    hand = list(table.hand)
    limit = min(limit, len(hand))
    pool = unseen_cards(table.cards_seen())
    slices = _slices(table)
    need = table.unknown
    choices = [
        (discards, [c for c in hand if c not in discards])
        for size in range(limit + 1)
        for discards in combinations(hand, size)
    ]
    wins = [0] * len(choices)
    standing = hand_key(hand)
    for _ in range(deals):
        drawn = rng.sample(pool, need + limit)
        theirs = max(hand_key([*drawn[a:b], *known]) for a, b, known in slices)
        fresh = drawn[need:]
        for i, (discards, kept) in enumerate(choices):
            mine = hand_key(kept + fresh[: len(discards)]) if discards else standing
            if mine > theirs:
                wins[i] += 1
    options = [
        DiscardOption(tuple(d), Estimate(w, deals)) for (d, _), w in zip(choices, wins, strict=True)
    ]
    options.sort(key=lambda o: (-o.estimate.wins, len(o.discards)))
    return options


def exact_win_probability(hand: Sequence[Card], opposing: int, known: Iterable[Card] = ()) -> float:
    """Every opposing hand of the unseen cards, enumerated (one opponent, small cases only)."""
    mine = hand_key(hand)
    pool = unseen_cards(hand, known)
    wins = total = 0
    for theirs in combinations(pool, opposing):
        total += 1
        wins += mine > hand_key(theirs)
    return wins / total
