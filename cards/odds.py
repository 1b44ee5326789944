"""Odds for the player's advisor (R6, R10, R13): how likely a hand is to win against the hands
at the table as they are now, and which discards help most.

The question is the one a player asks: *does my lay beat every other lay?* The answer is a
Monte Carlo estimate over the cards the player cannot see, against a ``Table``:

- the player's own ``hand``;
- the ``opponents``: each opposing hand with its size now and the cards of it the player may
  see (``known``); the rest of its cards are unknown;
- ``out``: cards the player knows are in no opposing hand and not to be drawn (their own
  discards, anything public).

Opponents' model: every opposing hand is as it is now, with its current size; it draws no
more cards and lays its best five (R4, R6). Its unknown cards are dealt from the cards the
player cannot see (the 54 less the hand, ``out`` and every known card), each deal a fresh
random choice, every unseen card equally likely in every unknown place. No hidden card is ever
an input: R10 holds for odds too. The advisor (``discard_advice``) deals the player's
replacements from the same unseen cards, after the opponents' (R13: discards go to the pile).

Hands are evaluated in batches (``batch.hand_keys``): 20,000 deals against three opponents are
60,000 hands, a few tens of milliseconds. The random source is an injected
``numpy.random.Generator``: a seed gives the same answer every time. These are estimates, not
deals: a fast non-cryptographic generator is the right tool (R10's cryptographic shuffle is for
the real deck).

Run as a program (``python -m cards.odds``) it reads one JSON table per line and writes one
JSON answer per line (see ``main``).
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, BinaryIO, TextIO

import numpy as np
import numpy.typing as npt

from .batch import CARD_BITS, hand_keys, mask_of
from .deck import FULL_DECK, Card, parse_card
from .jsonlines import serve

__all__ = [
    "DiscardOption",
    "Estimate",
    "Opponent",
    "Table",
    "discard_advice",
    "main",
    "unseen_cards",
    "win_probability",
]

Int64Array = npt.NDArray[np.int64]
# Enough hands in one batch to run at full speed, few enough to keep the memory small.
_BATCH_HANDS = 1 << 16
_DEALS_AT_ONCE = 50_000


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


@dataclass(frozen=True, slots=True)
class Opponent:
    """An opposing hand as the player knows it: how many cards it holds now, and the ones of
    them the player may see."""

    size: int
    known: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.size < 0:
            raise ValueError("a hand cannot hold fewer than no cards")
        if len(self.known) > self.size:
            raise ValueError(f"a hand of {self.size} cannot show {len(self.known)} known cards")

    @property
    def unknown(self) -> int:
        return self.size - len(self.known)


@dataclass(frozen=True, slots=True)
class Table:
    """What the odds are reckoned from: the player's hand, the opposing hands as the player
    knows them, and the cards known to be out of every opposing hand. Only cards the player
    may see go in (R10)."""

    hand: tuple[Card, ...]
    opponents: tuple[Opponent, ...] = (Opponent(5),)
    out: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        seen: set[Card] = set()
        for card in self.cards_seen():
            if card in seen:
                raise ValueError(f"{card} is given twice: a card is in one place only")
            seen.add(card)

    def cards_seen(self) -> list[Card]:
        """Every card the player knows the place of."""
        return [*self.hand, *self.out, *(c for o in self.opponents for c in o.known)]

    def unseen(self) -> list[Card]:
        """The cards the unknown places are dealt from, in deck order."""
        return unseen_cards(self.cards_seen())

    @property
    def unknown(self) -> int:
        """How many opposing cards the player cannot see."""
        return sum(o.unknown for o in self.opponents)


def unseen_cards(hand: Iterable[Card], known: Iterable[Card] = ()) -> list[Card]:
    """The cards the player cannot see: the 54 less their hand and the cards known elsewhere."""
    out = set(hand) | set(known)
    return [c for c in FULL_DECK if c not in out]


class _Dealer:
    """Deals cards from the unseen pool into many deals at once, no card twice in a deal.

    Each place of each deal draws a card at random and draws again where the card is already
    dealt in that deal: every unseen card is equally likely in every place, as in a shuffle.
    ``taken`` holds each live deal's dealt cards; ``keep`` narrows the deals followed."""

    def __init__(self, pool: Sequence[Card], deals: int, rng: np.random.Generator) -> None:
        self.bits: Int64Array = CARD_BITS[np.array([c.index for c in pool], dtype=np.intp)]
        self.rng = rng
        self.taken: Int64Array = np.zeros(deals, dtype=np.int64)
        self._spare: npt.NDArray[np.intp] = np.empty(0, dtype=np.intp)

    def _draw(self, count: int) -> Int64Array:
        return self.bits[self.rng.integers(0, len(self.bits), size=count)]

    def _redraw(self, count: int) -> Int64Array:
        # Redraws come from a buffer drawn in one go: a call per redraw round would cost more
        # than the draws.
        if len(self._spare) < count:
            size = max(count, len(self.taken) // 4, 64)
            self._spare = self.rng.integers(0, len(self.bits), size=size)
        picked, self._spare = self._spare[:count], self._spare[count:]
        return self.bits[picked]

    def card(self) -> Int64Array:
        """One more card in every live deal, as its bit."""
        taken = self.taken
        bits = self._draw(len(taken))
        clash = np.flatnonzero((taken & bits) != 0)
        while len(clash):
            fresh = self._redraw(len(clash))
            bits[clash] = fresh
            clash = clash[(taken[clash] & fresh) != 0]
        taken |= bits
        return bits

    def hand(self, count: int) -> Int64Array:
        """``count`` more cards in every live deal, as one mask."""
        mask = np.zeros(len(self.taken), dtype=np.int64)
        for _ in range(count):
            mask |= self.card()
        return mask

    def keep(self, live: npt.NDArray[np.bool_]) -> None:
        self.taken = self.taken[live]


def _check_deals(deals: int) -> None:
    if deals < 0:
        raise ValueError("the number of deals cannot be negative")


def win_probability(table: Table, *, deals: int = 20_000, rng: np.random.Generator) -> Estimate:
    """The chance that the player's hand beats every opposing hand (R6: the best lays
    compared), over ``deals`` random deals of the cards the player cannot see."""
    _check_deals(deals)
    pool = table.unseen()
    if table.unknown > len(pool):
        raise ValueError(f"only {len(pool)} unseen cards: cannot deal {table.unknown}")
    mine = int(hand_keys([mask_of(table.hand)])[0])
    # The biggest hands first: a deal already lost needs no more hands dealt nor weighed.
    opponents = sorted(table.opponents, key=lambda o: -o.size)
    wins = 0
    for start in range(0, deals, _DEALS_AT_ONCE):  # in blocks: the memory stays bounded
        dealer = _Dealer(pool, min(_DEALS_AT_ONCE, deals - start), rng)
        for opponent in opponents:
            if not len(dealer.taken):
                break
            theirs = hand_keys(dealer.hand(opponent.unknown) | mask_of(opponent.known))
            dealer.keep(theirs < mine)
        wins += len(dealer.taken)
    return Estimate(wins, deals)


def discard_advice(
    table: Table, limit: int, *, deals: int = 2_500, rng: np.random.Generator
) -> list[DiscardOption]:
    """Every legal discard (R13: none up to ``limit`` cards), best chance to win first.

    All choices are judged on the same random deals (common random numbers): the ranking
    then reflects the choices, not the luck of separate samples. Ties go to fewer discards.
    """
    _check_deals(deals)
    if limit < 0:
        raise ValueError("the redraw limit cannot be negative")
    hand = list(table.hand)
    limit = min(limit, len(hand))
    pool = table.unseen()
    if table.unknown + limit > len(pool):
        raise ValueError(f"only {len(pool)} unseen cards: not enough to estimate")
    dealer = _Dealer(pool, deals, rng)
    best = np.zeros(deals, dtype=np.int64)  # the best opposing lay in each deal
    for opponent in table.opponents:
        theirs = hand_keys(dealer.hand(opponent.unknown) | mask_of(opponent.known))
        np.maximum(best, theirs, out=best)
    # The replacements: the first d of them for a discard of d cards.
    drawn = np.zeros((limit + 1, deals), dtype=np.int64)
    for d in range(1, limit + 1):
        drawn[d] = drawn[d - 1] | dealer.card()
    options: list[DiscardOption] = []
    for size in range(limit + 1):
        choices = list(combinations(hand, size))
        kept = np.array([mask_of(hand) & ~mask_of(c) for c in choices], dtype=np.int64)
        wins = _wins(kept, drawn[size], best)
        options += [
            DiscardOption(c, Estimate(int(w), deals)) for c, w in zip(choices, wins, strict=True)
        ]
    options.sort(key=lambda o: (-o.estimate.wins, len(o.discards)))
    return options


def _wins(kept: Int64Array, drawn: Int64Array, best: Int64Array) -> Int64Array:
    """For each kept part of the hand: in how many deals it, with that deal's replacements,
    beats the best opposing lay."""
    wins = np.zeros(len(kept), dtype=np.int64)
    deals = len(drawn)
    if not deals:
        return wins
    step = max(1, _BATCH_HANDS // deals)
    for start in range(0, len(kept), step):
        part = kept[start : start + step]
        keys = hand_keys((part[:, None] | drawn[None, :]).ravel()).reshape(len(part), deals)
        wins[start : start + step] = np.count_nonzero(keys > best[None, :], axis=1)
    return wins


# ---------------------------------------------------------------------------------------------
# Command line: one JSON table per line in, one JSON answer per line out, never a traceback.

MAX_DEALS = 1_000_000


def _cards(value: object, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ValueError(f'{what} must be a list of card names, e.g. ["A♠", "10♥", "RJ"]')
    return tuple(parse_card(t) for t in value)


def _count(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low:,} to {high:,}")
    return value


def _opponent(value: object) -> Opponent:
    if isinstance(value, dict):
        unexpected = set(value) - {"size", "known"}
        if unexpected:
            raise ValueError(f"an opponent has a size and known cards, not {sorted(unexpected)}")
        size = _count(value.get("size"), "an opponent's size", 0, 54)
        return Opponent(size, _cards(value.get("known", []), "an opponent's known cards"))
    return Opponent(_count(value, "an opponent's size", 0, 54))


def table_from_json(data: object) -> tuple[Table, int, int | None]:
    """The table, the number of deals and the seed a command-line request asks for."""
    if not isinstance(data, dict):
        raise ValueError('a line is one JSON object, e.g. {"hand": ["A♠", "K♠"], "opponents": [5]}')
    unexpected = set(data) - {"hand", "opponents", "out", "deals", "seed"}
    if unexpected:
        raise ValueError(f"unknown fields {sorted(unexpected)}")
    if "hand" not in data:
        raise ValueError('no "hand": the cards whose odds are asked')
    opponents = data.get("opponents", [5])
    if not isinstance(opponents, list):
        raise ValueError('"opponents" must be a list of hand sizes or {"size", "known"} objects')
    table = Table(
        hand=_cards(data["hand"], '"hand"'),
        opponents=tuple(_opponent(o) for o in opponents),
        out=_cards(data.get("out", []), '"out"'),
    )
    deals = _count(data.get("deals", 20_000), '"deals"', 1, MAX_DEALS)
    seed = data.get("seed")
    if seed is not None:
        seed = _count(seed, '"seed"', 0, 2**63 - 1)
    return table, deals, seed


def _line_result(line: str) -> dict[str, Any]:
    table, deals, seed = table_from_json(json.loads(line))
    rng = np.random.default_rng(seed)  # no seed: fresh entropy from the operating system
    started = time.perf_counter()
    estimate = win_probability(table, deals=deals, rng=rng)
    elapsed = time.perf_counter() - started
    return {
        "win": round(estimate.probability, 4),
        "deals": estimate.deals,
        "ms": round(elapsed * 1000, 1),
    }


def main(stdin: BinaryIO | TextIO | None = None, stdout: BinaryIO | TextIO | None = None) -> int:
    """The command line: one JSON object a line in (``{"hand": [...], "opponents": [5, 7,
    {"size": 6, "known": ["Q♥"]}], "out": [...], "deals": 20000, "seed": 7}``), one JSON
    answer a line out (``{"win": 0.4312, "deals": 20000, "ms": 37.5}``); a line that cannot be
    read answers ``{"error": ..., "line": n}`` and the next lines still work."""
    return serve(_line_result, "could not reckon the odds of this line", stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())
