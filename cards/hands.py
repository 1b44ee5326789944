"""Poker hands as Dust Devils reads them (rulings R3–R9).

``evaluate(cards)`` finds the best lay of up to five cards from a hand of any size, with wild
jokers, and returns a ``HandValue``: its category, a ``key`` giving the total order of R6, the
combination (R7), the Difficulty it deals (R9) and its narration card (R8).

Design: a rank-count evaluator. It never enumerates five-card subsets or joker identities;
it groups the natural cards by rank and by suit once, then tries the categories from the top
(R3) and builds the single best lay of the first one that is possible. With the naturals sorted
by rank then suit, the best cards for every slot are simply the first ones found, which is what
makes R6's suit tie-breaks come out right without search. The tests check every key against a
brute-force reference that does enumerate every subset and every joker identity.

Run as a program (``python -m cards.hands``) it reads one hand per line and writes
one JSON object per line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from itertools import combinations
from operator import attrgetter, itemgetter
from typing import Any, BinaryIO, NamedTuple, TextIO

from .deck import BLACK_JOKER, RED, RED_JOKER, Card, CardParseError, Suit, parse_cards
from .jsonlines import serve

__all__ = [
    "Category",
    "HandValue",
    "best_lay_for_narration",
    "evaluate",
    "hand_key",
    "lay_choices",
    "parse_cards",
]


class Category(Enum):
    """R3: the categories, highest first. ``order`` ranks them (high card 0 … five of a kind 10)."""

    FIVE_OF_A_KIND = "five_of_a_kind"
    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"

    @property
    def order(self) -> int:
        return _CATEGORY_ORDER[self]

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").capitalize()


_CATEGORY_BY_ORDER: tuple[Category, ...] = tuple(reversed(Category))
_CATEGORY_ORDER = {category: order for order, category in enumerate(_CATEGORY_BY_ORDER)}
HIGH_CARD, PAIR, TWO_PAIR, THREE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH, ROYAL, FIVE = (
    range(11)
)
ALL_SUITS: frozenset[Suit] = frozenset(Suit)

# An entry is one laid card as it counts in the lay: (rank in the lay, suit, joker colour, card).
# The rank is 1 for an ace low in A-2-3-4-5 and the identity's rank for a joker; the suit is 0 for
# a joker (R5: lower than clubs in every comparison). Tuples of entries sort in R6 step 4 order,
# and never reach the card itself, since no two laid cards share (rank, suit, colour).
Entry = tuple[int, int, int, Card]

_ORDER = attrgetter("order")
_CARD_AT: dict[tuple[int, int], Card] = {}


def _card_at(rank: int, suit: int) -> Card:
    if not _CARD_AT:
        from .deck import FULL_DECK

        _CARD_AT.update({(c.rank, c.suit): c for c in FULL_DECK if not c.joker})
    return _CARD_AT[(rank, suit)]


class HandValue:
    """The value of a hand: its best lay (R4, R6) and what that lay does (R7–R9).

    ``key`` is 16 integers, compared as a tuple, that order every lay as R6 does:
    ``(category, r1..r5, s1..s5, c1..c5)`` — the ranks in the order that defines the category
    then the kickers (steps 2–3), the suits of the cards sorted combination first (step 4,
    jokers 0) and the joker colours in those same places (step 5, red 2 above black 1).
    Shorter lays are padded with 0, so a longer lay beats an otherwise equal shorter one.
    Two different lays never have the same key.

    Only the key is computed up front (it is all a comparison needs); the other fields are
    read off the lay when asked for.
    """

    __slots__ = ("_cards", "_key", "_plan_or_none")

    def __init__(self, key: tuple[int, ...], cards: list[Card]) -> None:
        self._key = key
        self._cards = cards
        self._plan_or_none: _Plan | None = None

    @property
    def key(self) -> tuple[int, ...]:
        return self._key

    @property
    def _plan(self) -> _Plan:
        # Where the lay sits in the hand: worked out only when a field beyond the key is read.
        # The plan's positions refer to the hand sorted by Card.order.
        if self._plan_or_none is None:
            self._cards = sorted(self._cards, key=_ORDER, reverse=True)
            pattern = sum(map(_WEIGHT, self._cards)) >> 32 & _PATTERN_BITS
            if self._key[0] in (FLUSH, STRAIGHT_FLUSH, ROYAL):
                self._plan_or_none = _suited_plan(self._cards, pattern)[0]
            else:
                self._plan_or_none = _PLANS.get(pattern) or _rank_plan(pattern)
        return self._plan_or_none

    def __repr__(self) -> str:
        return f"<HandValue {self.describe()}: {' '.join(c.text for c in self.laid)}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    @property
    def category(self) -> Category:
        return _CATEGORY_BY_ORDER[self.key[0]]

    @property
    def laid(self) -> tuple[Card, ...]:
        """The laid cards: the combination in its defining order, then the kickers."""
        plan = self._plan  # first: working out the plan sorts the cards it points into
        cards = self._cards
        return tuple([cards[p] for p in plan.display])

    @property
    def combination(self) -> tuple[Card, ...]:
        """R7: the cards that make the category."""
        return self.laid[: self._plan.combo_len]

    @property
    def kickers(self) -> tuple[Card, ...]:
        return self.laid[self._plan.combo_len :]

    @property
    def difficulty(self) -> int:
        """R9: one point of Difficulty per card of the combination."""
        return self._plan.combo_len

    @property
    def difficulty_suits(self) -> frozenset[Suit]:
        """R9: the suits of the combination's natural cards; any suit if it has none."""
        suits = frozenset(Suit(c.suit) for c in self.combination if c.suit)
        return suits or ALL_SUITS

    def _entries(self) -> list[Entry]:
        plan = self._plan  # first: working out the plan sorts the cards it points into
        cards = self._cards
        return [
            (rank, cards[p].suit, cards[p].joker, cards[p])
            for p, rank in zip(plan.display, plan.lay_ranks, strict=True)
        ]

    @property
    def high_card(self) -> Card | None:
        """R8: the single highest laid card (ace low in A-5; a joker as the rank it took)."""
        top = max(self._entries(), default=None)
        return top[3] if top else None

    @property
    def high_card_key(self) -> tuple[int, int, int]:
        """(rank as laid, suit, joker colour): compare across hands to find the narrator (R8)."""
        top = max(self._entries(), default=None)
        return (top[0], top[1], top[2]) if top else (0, 0, 0)

    @property
    def high_card_rank(self) -> int:
        return self.high_card_key[0]

    @property
    def jokers_as(self) -> tuple[tuple[Card, int, int], ...]:
        """Each laid joker with the rank it took and the suit (0 unless it makes a flush)."""
        suit = self._plan.flush_suit
        return tuple((e[3], e[0], suit) for e in self._entries() if e[3].joker)

    def describe(self) -> str:
        """Plain words for the table, e.g. ``Full house, 3s over 7s``."""
        ranks = self.key[1:6]
        category = self.category
        name = category.label
        if category is Category.FULL_HOUSE:
            return f"{name}, {_plural(ranks[0])} over {_plural(ranks[3])}"
        if category is Category.TWO_PAIR:
            return f"{name}, {_plural(ranks[0])} and {_plural(ranks[2])}"
        if category in (
            Category.PAIR, Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND,
            Category.FIVE_OF_A_KIND,
        ):  # fmt: skip
            return f"{name}, {_plural(ranks[0])}"
        if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.FLUSH):
            return f"{name}, {_rank_word(ranks[0])} high"
        if not self._plan.display:
            return "No cards"
        return f"{name}, {_rank_word(ranks[0])}"

    def as_json(self) -> dict[str, Any]:
        """The command line's (and the API's) view of a hand value."""
        high = self.high_card
        return {
            "laid": [c.text for c in self.laid],
            "category": self.category.value,
            "rank_key": list(self.key),
            "combination": [c.text for c in self.combination],
            "difficulty": self.difficulty,
            "difficulty_suits": [s.label for s in sorted(self.difficulty_suits)],
            "high_card": high.text if high else None,
            "high_card_key": list(self.high_card_key),
            "jokers_as": {j.text: _identity_text(r, s) for j, r, s in self.jokers_as},
            "description": self.describe(),
        }


_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


def _rank_word(rank: int) -> str:
    return _WORDS.get(rank, str(rank))


def _plural(rank: int) -> str:
    word = _WORDS.get(rank)
    return f"{word}s" if word else f"{rank}s"


def _identity_text(rank: int, suit: int) -> str:
    rank = 14 if rank == 1 else rank
    text = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))
    return text + (Suit(suit).symbol if suit else "")


# ---------------------------------------------------------------------------------------------
# The evaluator


def _joker_entries(jokers: Sequence[Card], rank: int) -> list[Entry]:
    return [(rank, 0, j.joker, j) for j in jokers]


_Analysis = tuple[int, list[int], list[Entry], list[Entry], int]


def _analyse(cards: Iterable[Card]) -> _Analysis:
    """The best lay that needs no suit: (category order, ranks in defining order, combination,
    kickers, 0). Flushes and straight flushes are ``_suited``'s business.

    ``combination`` and ``kickers`` are entries in display order (the combination's defining
    order). Within a rank the naturals come highest suit first, so taking the first cards of
    a rank always takes the best suits (R6 step 4).
    """
    naturals: list[Card] = []
    jokers: list[Card] = []
    for card in cards:
        if card.joker:
            jokers.append(card)
        else:
            naturals.append(card)
    j = len(jokers)
    n = len(naturals) + j
    lay_size = n if n < 5 else 5
    if j == 2 and jokers[0].joker != RED:
        jokers.reverse()  # R6 step 5: the red joker takes the better place
    naturals.sort(key=_ORDER, reverse=True)

    # One pass: groups of equal rank (highest rank first, suits highest first within a group)
    # and the rank mask.
    groups: list[list[Card]] = []
    mask = 0
    prev = 0
    for card in naturals:
        if card.rank != prev:
            groups.append([card])
            prev = card.rank
        else:
            groups[-1].append(card)
        mask |= card.rbit
    groups.sort(key=len, reverse=True)  # stable: equal sizes stay highest rank first
    biggest = len(groups[0]) if groups else 0

    # Five of a kind (R3, only with jokers).
    if lay_size == 5 and j and biggest + j >= 5:
        group = max((g for g in groups if len(g) + j >= 5), key=_group_rank)
        rank = group[0].rank
        used = group[:4]
        combo = [(rank, c.suit, 0, c) for c in used] + _joker_entries(jokers[: 5 - len(used)], rank)
        return FIVE, [rank] * 5, combo, [], 0

    # Four of a kind: the highest rank that reaches four with the jokers.
    if lay_size >= 4 and biggest + j >= 4:
        group = max((g for g in groups if len(g) + j >= 4), key=_group_rank)
        rank = group[0].rank
        combo = [(rank, c.suit, 0, c) for c in group] + _joker_entries(
            jokers[: 4 - len(group)], rank
        )
        kickers = _kickers(naturals, {rank}, lay_size - 4)
        return FOUR, [rank] * 4 + [e[0] for e in kickers], combo, kickers, 0

    if lay_size == 5:
        # Full house. Here no rank reaches four, so at most one joker can help: the three is the
        # highest rank with three (a pair plus the joker), the two the highest other pair.
        if biggest + j >= 3:
            trips = [g for g in groups if len(g) + j >= 3]
            for group in sorted(trips, key=_group_rank, reverse=True):
                rank = group[0].rank
                pairs = [g for g in groups if g is not group and len(g) >= 2]
                if not pairs or j - (3 - min(len(group), 3)) < 0:
                    continue
                pair = max(pairs, key=_group_rank)
                three = [(rank, c.suit, 0, c) for c in group[:3]]
                three += _joker_entries(jokers[: 3 - len(three)], rank)
                two = [(pair[0].rank, c.suit, 0, c) for c in pair[:2]]
                return FULL_HOUSE, [rank] * 3 + [pair[0].rank] * 2, three + two, [], 0

        # Straight.
        if naturals:
            top = _straight_top(mask, j)
            if top:
                entries = _straight_entries(top, mask, 0, jokers, groups=groups)
                return STRAIGHT, [e[0] for e in entries], entries, [], 0

    # Three of a kind.
    if lay_size >= 3 and biggest + j >= 3:
        group = max((g for g in groups if len(g) + j >= 3), key=_group_rank)
        rank = group[0].rank
        combo = [(rank, c.suit, 0, c) for c in group] + _joker_entries(
            jokers[: 3 - len(group)], rank
        )
        kickers = _kickers(naturals, {rank}, lay_size - 3)
        return THREE, [rank] * 3 + [e[0] for e in kickers], combo, kickers, 0

    # Two pair (no joker can be here: a joker and a pair make three of a kind).
    if lay_size >= 4 and j == 0 and len(groups) >= 2 and len(groups[1]) >= 2:
        high, low = groups[0], groups[1]
        combo = [(c.rank, c.suit, 0, c) for c in high] + [(c.rank, c.suit, 0, c) for c in low]
        kickers = _kickers(naturals, {high[0].rank, low[0].rank}, lay_size - 4)
        ranks = [high[0].rank] * 2 + [low[0].rank] * 2 + [e[0] for e in kickers]
        return TWO_PAIR, ranks, combo, kickers, 0

    # A pair: a natural pair, or the highest card with a joker, or two jokers as aces.
    if lay_size >= 2 and biggest + j >= 2:
        if groups and len(groups[0]) + j >= 2:
            group = max((g for g in groups if len(g) + j >= 2), key=_group_rank)
            rank = group[0].rank
        else:
            group, rank = [], 14
        combo = [(rank, c.suit, 0, c) for c in group] + _joker_entries(
            jokers[: 2 - len(group)], rank
        )
        kickers = _kickers(naturals, {rank}, lay_size - 2)
        return PAIR, [rank] * 2 + [e[0] for e in kickers], combo, kickers, 0

    # High card: the highest card is the combination (R7); a lone joker is an ace.
    if not naturals:
        if not jokers:
            return HIGH_CARD, [], [], [], 0
        combo = _joker_entries(jokers[:1], 14)
        return HIGH_CARD, [14], combo, [], 0
    laid = [(c.rank, c.suit, 0, c) for c in naturals[:lay_size]]
    return HIGH_CARD, [e[0] for e in laid], laid[:1], laid[1:], 0


def _group_rank(group: list[Card]) -> int:
    return group[0].rank


def _suited(hand: Sequence[Card], jokers: int) -> _Analysis | None:
    """The best straight flush, royal flush or flush in a hand sorted by ``Card.order``, or None.

    Jokers fill the gaps of a straight flush, and in a plain flush take the highest ranks the
    suit lacks, never a rank already in it (R5: no double-ace flush).
    """
    wild = list(hand[len(hand) - jokers :]) if jokers else []  # red first, as sorted
    best_sf: tuple[Any, ...] | None = None
    best_flush: tuple[Any, ...] | None = None
    for suit in (4, 3, 2, 1):
        members = [c for c in hand if c.suit == suit]
        if len(members) + jokers < 5:
            continue
        smask = 0
        for c in members:
            smask |= c.rbit
        top = _straight_top(smask, jokers)
        if top:
            entries = _straight_entries(top, smask, suit, wild, by_suit=True)
            candidate = ([e[1] for e in entries], [e[2] for e in entries], top, entries, suit)
            if best_sf is None or (top, *candidate[:2]) > (best_sf[2], *best_sf[:2]):
                best_sf = candidate
        elif best_sf is None:
            if jokers:
                entries = _flush_with_jokers(members, suit, wild)
            else:
                entries = [(c.rank, suit, 0, c) for c in members[:5]]
            flush = (
                [e[0] for e in entries], [e[1] for e in entries], [e[2] for e in entries],
                entries, suit,
            )  # fmt: skip
            if best_flush is None or flush[:3] > best_flush[:3]:
                best_flush = flush
    if best_sf is not None:
        _, _, top, entries, suit = best_sf
        return (ROYAL if top == 14 else STRAIGHT_FLUSH), [e[0] for e in entries], entries, [], suit
    if best_flush is not None:
        ranks, _, _, entries, suit = best_flush
        return FLUSH, ranks, entries, [], suit
    return None


def _kickers(naturals: list[Card], used_ranks: set[int], count: int) -> list[Entry]:
    """The best ``count`` natural cards outside the combination's ranks (already sorted)."""
    if count <= 0:
        return []
    out: list[Entry] = []
    for c in naturals:
        if c.rank not in used_ranks:
            out.append((c.rank, c.suit, 0, c))
            if len(out) == count:
                break
    return out


_WINDOWS = tuple((top, top - 4) for top in range(14, 4, -1))


def _straight_top(mask: int, jokers: int) -> int:
    """The top rank of the best straight in a rank mask with ``jokers`` wild cards, or 0."""
    if mask >> 14 & 1:
        mask |= 2  # R3: the ace also plays low, as a 1, in A-2-3-4-5
    if jokers == 0:
        run = mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4
        return run.bit_length() + 3 if run else 0
    need = 5 - jokers
    for top, shift in _WINDOWS:
        if (mask >> shift & 31).bit_count() >= need:
            return top
    return 0


def _straight_entries(
    top: int,
    mask: int,
    suit: int,
    jokers: Sequence[Card],
    *,
    by_suit: bool = False,
    groups: list[list[Card]] | None = None,
) -> list[Entry]:
    """The five cards of the straight topped by ``top``: the best natural of each rank, jokers
    (red first, so the red joker takes the highest gap) wherever a rank is missing."""
    best_of_rank: dict[int, Card] = {}
    if groups is not None:
        best_of_rank = {g[0].rank: g[0] for g in groups}
    entries: list[Entry] = []
    spare = iter(jokers)
    for rank in range(top, top - 5, -1):
        real = 14 if rank == 1 else rank
        if mask >> real & 1:
            card = _card_at(real, suit) if by_suit else best_of_rank[real]
            entries.append((rank, card.suit, 0, card))
        else:
            joker = next(spare)
            entries.append((rank, 0, joker.joker, joker))
    return entries


def _flush_with_jokers(members: list[Card], suit: int, jokers: Sequence[Card]) -> list[Entry]:
    present = {c.rank: c for c in members}
    entries: list[Entry] = []
    spare = list(jokers)
    for rank in range(14, 1, -1):
        card = present.get(rank)
        if card is not None:
            entries.append((rank, suit, 0, card))
        elif spare:
            joker = spare.pop(0)
            entries.append((rank, 0, joker.joker, joker))
        if len(entries) == 5:
            break
    return entries


class _Plan(NamedTuple):
    """How to read the best lay off a hand.

    For a hand that cannot make a flush, the best lay depends only on its ranks, so the plan
    is worked out once per rank pattern and memoised: hands that differ only in suits reuse
    it, and the suits that R6 step 4 compares are read off the hand's packed weight (the best
    suits of each rank, since the plan always lays the best suits of a rank).
    """

    head: tuple[int, ...]  # (category, r1..r5)
    suit_runs: tuple[tuple[int, int], ...]  # (shift of a rank's suit field, how many), in order
    colours: tuple[tuple[int, ...], tuple[int, ...]]  # c1..c5 without / with the red joker
    pad: tuple[int, ...]  # zeros after s1..sN when fewer than five cards are laid
    pick: Callable[[Sequence[Card]], tuple[Card, ...]]  # the laid cards in R6 step-4 order
    display: tuple[int, ...]  # positions in the sorted hand: combination, then kickers
    lay_ranks: tuple[int, ...]  # the rank each displayed card counts as in the lay
    combo_len: int
    flush_suit: int


_PAD: tuple[tuple[int, ...], ...] = tuple((0,) * (5 - n) for n in range(6))
_NO_JOKERS = (0, 0, 0, 0, 0)
_WEIGHT = attrgetter("weight")
_PLANS: dict[int, _Plan] = {}
_PLAN_CACHE_LIMIT = 300_000  # rank patterns, a few hundred bytes each
# The packed weight of a hand (see ``Card.weight``): suit counts in 8-bit fields from bit 0;
# 3-bit rank counts from bit 32 (jokers as rank 0); the red joker at bit 77; the suits present
# for each rank in 4-bit fields from bit 80.
_SUIT_FIELDS = (1 << 32) - 1
_PATTERN_BITS = (1 << 45) - 1
# A flush needs five cards of one suit: with jokers, 5 - jokers naturals. Adding (128 - need)
# to each 8-bit field of the suit count sets that field's top bit exactly when it reaches need.
_FLUSH_TEST = tuple(sum((128 - (5 - j)) << (8 * k) for k in range(4)) for j in range(6))
_FLUSH_BITS = sum(128 << (8 * k) for k in range(4))
# _TOP_SUITS[field][k]: the k highest suits present in a 4-bit field of suits (0-padded).
_TOP_SUITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple((tuple(s for s in (4, 3, 2, 1) if field >> (s - 1) & 1) + (0,) * 5)[:k] for k in range(6))
    for field in range(16)
)


def _getter(positions: tuple[int, ...]) -> Callable[[Sequence[Card]], tuple[Card, ...]]:
    if len(positions) > 1:
        return itemgetter(*positions)
    if positions:
        only = positions[0]
        return lambda cards: (cards[only],)
    return lambda cards: ()


def _plan_from(analysis: _Analysis, index: dict[Card, int]) -> _Plan:
    category, ranks, combo, kickers, flush_suit = analysis
    # R6 step 4 sorts the combination by rank then suit; only a full house whose pair outranks
    # its three is not already in that order.
    ordered = (sorted(combo, reverse=True) if category == FULL_HOUSE else combo) + kickers
    shown = combo + kickers
    runs: list[list[int]] = []
    for *_, card in ordered:
        shift = 0 if card.joker else 4 * card.rank  # a joker reads the always-empty rank 0
        if runs and runs[-1][0] == shift:
            runs[-1][1] += 1
        else:
            runs.append([shift, 1])
    with_red = tuple(e[2] for e in ordered) + _PAD[len(ordered)]
    without_red = tuple(1 if c else 0 for c in with_red)  # a lone black joker
    return _Plan(
        head=(category, *ranks) + _PAD[len(ranks)],
        suit_runs=tuple((shift, k) for shift, k in runs),
        colours=(without_red, with_red),
        pad=_PAD[len(ordered)],
        pick=_getter(tuple(index[e[3]] for e in ordered)),
        display=tuple(index[e[3]] for e in shown),
        lay_ranks=tuple(e[0] for e in shown),
        combo_len=len(combo),
        flush_suit=flush_suit,
    )


def _rank_plan(pattern: int) -> _Plan:
    """The plan for a rank pattern, worked out on a stand-in hand with those ranks, and
    memoised for every hand with the same ranks."""
    stand_in: list[Card] = []
    for rank in range(14, 1, -1):
        for suit in range(4, 4 - (pattern >> (3 * rank) & 7), -1):
            stand_in.append(_card_at(rank, suit))
    stand_in += [RED_JOKER, BLACK_JOKER][: pattern & 7]
    plan = _plan_from(_analyse(stand_in), {c: i for i, c in enumerate(stand_in)})
    if len(_PLANS) >= _PLAN_CACHE_LIMIT:
        _PLANS.clear()
    _PLANS[pattern] = plan
    return plan


def _suited_plan(cards: Iterable[Card], pattern: int) -> tuple[_Plan, list[Card]]:
    """The plan of a hand that holds five of one suit (counting jokers), and the sorted hand.

    Only five of a kind, four of a kind and a full house beat a flush, and only five of a
    kind beats a straight flush; those come from the rank plan.
    """
    hand = sorted(cards, key=_ORDER, reverse=True)
    suited = _suited(hand, pattern & 7)
    plan = _PLANS.get(pattern) or _rank_plan(pattern)
    if suited is not None and plan.head[0] < (FIVE if suited[0] > FLUSH else FULL_HOUSE):
        plan = _plan_from(suited, {c: i for i, c in enumerate(hand)})
    return plan, hand


def _key_from_cards(plan: _Plan, hand: list[Card]) -> tuple[int, ...]:
    laid = plan.pick(hand)
    colours = tuple([c.joker for c in laid]) + plan.pad
    return plan.head + tuple([c.suit for c in laid]) + plan.pad + colours


_FLUSH_KEYS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def _flush_key(total: int, flushes: int, cards: Iterable[Card]) -> tuple[int, ...] | None:
    """The key of the best flush or straight flush, or None when a rank category beats it.

    With one suit that reaches five (the usual case) the flush depends only on that suit's
    ranks, the jokers and the red joker, so it is memoised on those; with two such suits
    (big hands) the hand is sorted and searched.
    """
    pattern = total >> 32 & _PATTERN_BITS
    if flushes & (flushes - 1):
        plan, hand = _suited_plan(cards, pattern)
        return _key_from_cards(plan, hand)
    suit = flushes.bit_length() // 8  # the flag bits sit at 7, 15, 23, 31 for suits 1–4
    jokers = pattern & 7
    memo = (total >> (125 + 15 * suit) & 0x7FFF, suit, jokers, total >> 77 & 1)
    key = _FLUSH_KEYS.get(memo)
    if key is None:
        stand_in = [_card_at(r, suit) for r in range(14, 1, -1) if memo[0] >> r & 1]
        stand_in += [RED_JOKER, BLACK_JOKER][:jokers] if memo[3] else [BLACK_JOKER]
        suited = _suited(stand_in, jokers)
        assert suited is not None
        key = _key_from_cards(_plan_from(suited, {c: i for i, c in enumerate(stand_in)}), stand_in)
        if len(_FLUSH_KEYS) >= _PLAN_CACHE_LIMIT:
            _FLUSH_KEYS.clear()
        _FLUSH_KEYS[memo] = key
    plan = _PLANS.get(pattern) or _rank_plan(pattern)
    # Only five of a kind, four of a kind and a full house beat a flush, and only five of a
    # kind beats a straight flush.
    if plan.head[0] < (FIVE if key[0] > FLUSH else FULL_HOUSE):
        return key
    return None


def hand_key(cards: Iterable[Card]) -> tuple[int, ...]:
    """Just the R6 key of the hand's best lay: the hot path of every odds estimate.

    One sum of the cards' packed weights gives the rank pattern (the memo key), the suit
    counts (can there be a flush?), the suits present at every rank (R6 step 4) and each
    suit's ranks (which flush?).
    """
    total = sum(map(_WEIGHT, cards))
    pattern = total >> 32 & _PATTERN_BITS
    jokers = pattern & 7
    flushes = ((total & _SUIT_FIELDS) + _FLUSH_TEST[jokers]) & _FLUSH_BITS
    if flushes:
        key = _flush_key(total, flushes, cards)
        if key is not None:
            return key
    plan = _PLANS.get(pattern) or _rank_plan(pattern)
    present = total >> 80
    suits: tuple[int, ...] = ()
    for shift, k in plan.suit_runs:
        suits += _TOP_SUITS[present >> shift & 15][k]
    if jokers:
        return plan.head + suits + plan.pad + plan.colours[total >> 77 & 1]
    return plan.head + suits + plan.pad + _NO_JOKERS


def evaluate(cards: Iterable[Card]) -> HandValue:
    """The value of the best lay of ``cards`` (R4: at most five; with fewer, all of them).

    Raises ``ValueError`` if a card appears twice: a hand holds distinct cards.
    """
    cards = list(cards)
    if len(set(cards)) != len(cards):
        raise ValueError("a hand cannot hold the same card twice")
    return HandValue(hand_key(cards), cards)


def best_lay_for_narration(cards: Sequence[Card]) -> HandValue:
    """R4/R8: the lay that keeps the best narration card, and the best hand that goes with it.

    Tries every lay (fine for the handful of times a player asks), maximising the lay's high
    card first and its poker value second.
    """
    cards = list(cards)
    size = min(5, len(cards))
    best: HandValue | None = None
    for lay in combinations(cards, size):
        value = evaluate(lay)
        if best is None or (value.high_card_key, value.key) > (best.high_card_key, best.key):
            best = value
    assert best is not None
    return best


def lay_choices(cards: Sequence[Card]) -> list[HandValue]:
    """The lays the app offers at the Call (R4): the best poker lay first, then every other lay
    that is worth considering.

    A lay is worth considering when no other lay is at least as good on all three things a
    player weighs: its poker value (R6), its narration card (R8) and the Difficulty it deals
    if it wins (R9). For Black Jack's 3♥ 3♣ 3♦ 7♦ 7♣ K♠ that is the full house, three 3s
    keeping the K♠, and two pair keeping the K♠ (which deals 4 Difficulty to the three's 3).
    """
    cards = list(cards)
    best = evaluate(cards)
    size = min(5, len(cards))
    # The best lay for each (narration card, Difficulty) pair, then the ones no other beats.
    by_trait: dict[tuple[tuple[int, int, int], int], HandValue] = {}
    for lay in combinations(cards, size):
        value = evaluate(lay)
        trait = (value.high_card_key, value.difficulty)
        if trait not in by_trait or value.key > by_trait[trait].key:
            by_trait[trait] = value
    options = list(by_trait.values())
    frontier = [
        v for v in options
        if not any(
            w is not v
            and w.key >= v.key
            and w.high_card_key >= v.high_card_key
            and w.difficulty >= v.difficulty
            for w in options
        )
    ]  # fmt: skip
    best_cards = set(best.laid)
    others = sorted((v for v in frontier if set(v.laid) != best_cards), reverse=True)
    return [best, *others]


# ---------------------------------------------------------------------------------------------
# Command line: one hand per line in, one JSON object per line out, never a traceback.


def _line_result(line: str) -> dict[str, Any]:
    try:
        cards = parse_cards(line)
        value = evaluate(cards)
    except CardParseError as error:
        return {"error": str(error), "token": error.token}
    result = value.as_json()
    narration = best_lay_for_narration(cards)
    if narration.high_card_key > value.high_card_key:  # R4: a lay that narrates better
        result["narration_alternative"] = {
            "laid": [c.text for c in narration.laid],
            "category": narration.category.value,
            "high_card": narration.high_card.text if narration.high_card else None,
            "rank_key": list(narration.key),
        }
    return result


def main(stdin: BinaryIO | TextIO | None = None, stdout: BinaryIO | TextIO | None = None) -> int:
    """The command line: one line in, one JSON object out (``jsonlines.serve``)."""
    return serve(_line_result, "could not evaluate this hand", stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())
