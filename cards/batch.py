"""Many hands at once (rulings R3–R7): the R6 order of each as one integer, with numpy.

``hands.py`` stays the reference for one hand (its lay, combination, narration card and the
rest); this module answers only "how does this hand compare?", for thousands of hands in one
call, as the odds meter and the discard advisor need. ``hand_keys(masks)`` is equal to
``pack_key(hands.hand_key(cards))`` for every hand of any size (the tests check all 3,162,510
five-card hands and random hands of every size), so the integers compare exactly as R6 does.

A hand is a bit mask of the deck (bit ``card.index``: clubs 2–A in bits 0–12, diamonds 13–25,
hearts 26–38, spades 39–51, the black joker 52, the red joker 53), so dealing a hand is adding
bits. The packed key (54 bits, in an int64)::

    category << 50 | r1..r5 (4 bits each) << 30 | s1..s5 (4 bits each) << 10 | c1..c5 (2 bits)

— the fields of ``hands.HandValue.key`` in the same order, so integer order is tuple order.

How: per hand, the four suits' 13-bit rank masks give the ranks held at least once, twice,
three and four times with a few bitwise operations; those masks (and the count of jokers)
decide the category of the best lay that needs no suit, as in ``hands._analyse``. The same
ranks spread four bits apart (``M``: one bit per card, rank-major) give the R6 step-4 suits:
the best suits of a rank are the top bits of its nibble, and the kickers are the top bits of
``T`` (each rank's best card only). Flushes and straight flushes of one suit depend only on
that suit's 13-bit mask, the jokers and the red joker's presence, so they come from a table
built once at import. Nothing is memoised per hand: the speed is the same for hands never seen.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .deck import FULL_DECK, Card

__all__ = [
    "CARD_BITS",
    "Batch",
    "categories",
    "evaluate_hands",
    "hand_keys",
    "mask_of",
    "masks_from_indices",
    "masks_of",
    "pack_key",
    "unpack_key",
]

Int64Array = npt.NDArray[np.int64]

HIGH_CARD, PAIR, TWO_PAIR, THREE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH, ROYAL, FIVE = (
    range(11)
)
CATEGORY_SHIFT, RANK_SHIFT, SUIT_SHIFT = 50, 30, 10
NO_CARD = 54  # an index that adds no bit: pads ragged hands in ``masks_from_indices``

#: The bit of each card (``CARD_BITS[card.index]``), and 0 at ``NO_CARD``.
CARD_BITS: Int64Array = np.array([1 << i for i in range(54)] + [0], dtype=np.int64)
CARD_BITS.flags.writeable = False

_SUIT13 = 0x1FFF
_NIB1 = sum(1 << (4 * i) for i in range(13))  # bit 0 of every rank nibble
_NIB3 = _NIB1 * 0b0111
_NIB2 = _NIB1 * 0b0011
_SUIT_FIELDS = 0xFFFFF << SUIT_SHIFT


def pack_key(key: Sequence[int]) -> int:
    """``hands.HandValue.key`` (16 small integers) as the one integer ``hand_keys`` gives."""
    category, ranks, suits, colours = key[0], key[1:6], key[6:11], key[11:16]
    out = category
    for r in ranks:
        out = out << 4 | r
    for s in suits:
        out = out << 4 | s
    for c in colours:
        out = out << 2 | c
    return out


def unpack_key(packed: int) -> tuple[int, ...]:
    """The 16-integer key back from its packed form."""
    colours = [(packed >> (2 * (4 - i))) & 3 for i in range(5)]
    suits = [(packed >> (SUIT_SHIFT + 4 * (4 - i))) & 15 for i in range(5)]
    ranks = [(packed >> (RANK_SHIFT + 4 * (4 - i))) & 15 for i in range(5)]
    return (packed >> CATEGORY_SHIFT, *ranks, *suits, *colours)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a hand (its cards are distinct: ``hands.evaluate`` checks that)."""
    out = 0
    for card in cards:
        out |= 1 << card.index
    return out


def masks_of(hands: Iterable[Iterable[Card]]) -> Int64Array:
    return np.fromiter((mask_of(h) for h in hands), dtype=np.int64)


def masks_from_indices(indices: npt.ArrayLike, axis: int = -1) -> Int64Array:
    """The masks of hands given as card indices along ``axis`` (``NO_CARD`` pads short hands)."""
    return np.asarray(CARD_BITS[np.asarray(indices)].sum(axis=axis), dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# Tables, built once at import (a few milliseconds).


def _popcount(x: Int64Array) -> Int64Array:
    return np.bitwise_count(x).astype(np.int64)


_ALL13 = np.arange(1 << 13, dtype=np.int64)
# SPREAD[m]: the 13 bits of a rank mask moved four apart (bit i to bit 4i).
_SPREAD: Int64Array = np.zeros(1 << 13, dtype=np.int64)
for _i in range(13):
    _SPREAD |= ((_ALL13 >> _i) & 1) << (4 * _i)
# HI[m]: the index (0 for a 2 … 12 for an ace) of the highest rank in a rank mask; -1 if none.
_HI: Int64Array = np.full(1 << 13, -1, dtype=np.int64)
for _i in range(13):
    _HI[(_ALL13 >> _i) & 1 == 1] = _i
# NIBSUITS[nibble]: the suits present at a rank (a nibble of M), highest first, 4 bits each,
# the last one lowest; NIBTOP2: only the best two of them.
_NIBSUITS: Int64Array = np.zeros(16, dtype=np.int64)
_NIBTOP2: Int64Array = np.zeros(16, dtype=np.int64)
_POP4: Int64Array = np.zeros(16, dtype=np.int64)
for _nib in range(16):
    _suits = [s for s in (4, 3, 2, 1) if _nib >> (s - 1) & 1]
    for _s in _suits:
        _NIBSUITS[_nib] = _NIBSUITS[_nib] << 4 | _s
    for _s in _suits[:2]:
        _NIBTOP2[_nib] = _NIBTOP2[_nib] << 4 | _s
    _POP4[_nib] = len(_suits)
# The rank of a combination repeated over t slots: rank * _REPEAT[t].
_REPEAT: Int64Array = np.array([sum(1 << (4 * i) for i in range(t)) for t in range(6)], np.int64)


def _straight_tops(jokers: int) -> Int64Array:
    """STRAIGHT_TOP[m]: the top rank of the best straight in rank mask m with that many jokers
    (the ace also low, R3), or 0."""
    ext = (_ALL13 << 1) | ((_ALL13 >> 12) & 1)  # bit i: rank i + 1 (an ace at 0 and 13)
    top = np.zeros(1 << 13, dtype=np.int64)
    for high in range(5, 15):  # the highest window wins: later ones overwrite
        window = _popcount((ext >> (high - 5)) & 31)
        top[window >= 5 - jokers] = high
    return top


_STRAIGHT_TOP = np.stack([_straight_tops(j) for j in range(3)])
# The ranks of the straight topped by ``top``, packed (A-2-3-4-5 counts its ace as 1).
_STRAIGHT_RANKS: Int64Array = np.zeros(15, dtype=np.int64)
for _top in range(5, 15):
    for _r in range(_top, _top - 5, -1):
        _STRAIGHT_RANKS[_top] = _STRAIGHT_RANKS[_top] << 4 | _r


def _gap_colours() -> Int64Array:
    """GAP_COLOURS[red * 32 + missing]: the joker colours of a straight whose five places
    (bit 4 the top card) miss the cards in ``missing``: the jokers fill the gaps from the top,
    red first (R6 step 5); ``red`` says whether the red joker is in the hand."""
    out = np.zeros(64, dtype=np.int64)
    for red in (0, 1):
        for missing in range(32):
            colours, used = 0, 0
            for place in range(5):  # from the top card down
                colour = 0
                if missing >> (4 - place) & 1:
                    colour = (2 if red else 1) if used == 0 else 1
                    used += 1
                colours = colours << 2 | colour
            out[red * 32 + missing] = colours
    return out


_GAP_COLOURS = _gap_colours()


def _suited_table(jokers: int, red: int) -> Int64Array:
    """SUITED[m]: the key of the best straight flush, royal flush or flush that one suit's rank
    mask m makes with the jokers (0 when it cannot), as ``hands._suited`` lays it, for the
    suit ♣ (1): every natural card's suit field holds 1, so ``key + (s - 1) * (key &
    _SUIT_FIELDS)`` is the key for suit s. Jokers fill a straight flush's gaps from the top and
    take a plain flush's highest missing ranks (R5: never a rank the suit holds)."""
    m = _ALL13
    count = _popcount(m)
    valid = count + jokers >= 5
    first = 2 if red else 1  # the colour of the first joker used (red first, R6 step 5)
    # Straight flushes.
    top = _STRAIGHT_TOP[jokers][m]
    ext = (m << 1) | ((m >> 12) & 1)
    present = (ext >> np.maximum(top - 5, 0)) & 31  # bit 4: the top card's rank
    naturals = _SPREAD[present]  # 1 in the suit field of every natural place
    sf_key = (
        (np.where(top == 14, ROYAL, STRAIGHT_FLUSH) << CATEGORY_SHIFT)
        | (_STRAIGHT_RANKS[top] << RANK_SHIFT)
        | (naturals << SUIT_SHIFT)
        | _GAP_COLOURS[red * 32 + (31 ^ present)]
    )
    # Plain flushes: walk the ranks from the ace down, a joker taking each rank the suit lacks.
    filled = np.zeros_like(m)
    spare = np.full_like(m, jokers)
    ranks = np.zeros_like(m)
    suits = np.zeros_like(m)
    colours = np.zeros_like(m)
    for rank in range(14, 1, -1):
        has = ((m >> (rank - 2)) & 1) == 1
        room = filled < 5
        take = room & has
        wild = room & ~has & (spare > 0)
        step = take | wild
        ranks = np.where(step, ranks << 4 | rank, ranks)
        suits = np.where(step, suits << 4 | take, suits)
        colour = np.where(spare == jokers, first, 1)
        colours = np.where(step, colours << 2 | np.where(wild, colour, 0), colours)
        spare = spare - wild
        filled = filled + step
    flush_key = (
        (FLUSH << CATEGORY_SHIFT) | (ranks << RANK_SHIFT) | (suits << SUIT_SHIFT) | colours
    )
    out = np.where(top > 0, sf_key, flush_key)
    return np.where(valid, out, 0).astype(np.int64)


# SUITED[jokers][red * 8192 + m]
_SUITED = np.stack(
    [np.concatenate([_suited_table(j, 0), _suited_table(j, 1)]) for j in range(3)]
)
for _table in (_SPREAD, _HI, _NIBSUITS, _NIBTOP2, _POP4, _REPEAT, _STRAIGHT_TOP,
               _STRAIGHT_RANKS, _GAP_COLOURS, _SUITED):  # fmt: skip
    _table.flags.writeable = False


# ---------------------------------------------------------------------------------------------
# The evaluator


def _hibit(x: Int64Array) -> Int64Array:
    """The index of the highest set bit of each x (x < 2**53; 0 for x == 0)."""
    return (((x | 1).astype(np.float64).view(np.int64)) >> 52) - 1023


def _top_cards(
    free: Int64Array, wanted: Int64Array, most: int
) -> tuple[Int64Array, Int64Array]:
    """The best ``wanted`` (at most ``most``) cards of ``free`` (bits of M, one per rank):
    their ranks and suits packed highest first in ``most`` 4-bit places, 0-padded."""
    ranks = np.zeros_like(free)
    suits = np.zeros_like(free)
    for i in range(most):
        b = _hibit(free)
        on = wanted > i
        ranks = ranks << 4 | np.where(on, (b >> 2) + 2, 0)
        suits = suits << 4 | np.where(on, (b & 3) + 1, 0)
        free = np.where(on, free ^ (1 << b), free)
    return ranks, suits


def _of_a_kind(
    m_: Int64Array,
    t_: Int64Array,
    count: Int64Array,
    size: Int64Array,
    rank: Int64Array,
    red: Int64Array,
) -> Int64Array:
    """Five, four or three of a kind, a pair or high card: ``size`` cards of rank index
    ``rank`` (the naturals of that rank, then jokers), then the best other cards as kickers.
    High card is size 0 (a lone joker: size 1 of an ace)."""
    on = size > 0
    shift = np.where(on, 4 * rank, 0)
    nibble = np.where(on, (m_ >> shift) & 15, 0)
    naturals = _POP4[nibble]
    jokers = size - naturals  # 0, 1 or 2
    first = 1 + red  # the first joker's colour: red if the hand holds it
    joker_colours = np.where(jokers == 2, first << 2 | 1, np.where(jokers == 1, first, 0))
    combo_ranks = (rank + 2) * _REPEAT[size]
    combo_suits = _NIBSUITS[nibble] << (4 * jokers)
    free = np.where(on, t_ & ~(15 << shift), t_)
    kickers = np.minimum(count, 5) - size
    most = int(kickers.max(initial=0))
    k_ranks, k_suits = _top_cards(free, kickers, most)
    pad = 5 - size  # places after the combination
    k_shift = 4 * (pad - most)
    ranks = combo_ranks << (4 * pad) | _shift(k_ranks, k_shift)
    suits = combo_suits << (4 * pad) | _shift(k_suits, k_shift)
    cat = _CATEGORY_OF_SIZE[size]
    return (cat << CATEGORY_SHIFT) | (ranks << RANK_SHIFT) | (suits << SUIT_SHIFT) | (
        joker_colours << (2 * pad)
    )


def _shift(x: Int64Array, places: Int64Array) -> Int64Array:
    """x << places where places >= 0, x >> -places otherwise (only 0 bits are dropped)."""
    return np.where(places >= 0, x << np.maximum(places, 0), x >> np.maximum(-places, 0))


_CATEGORY_OF_SIZE: Int64Array = np.array([HIGH_CARD, HIGH_CARD, PAIR, THREE, FOUR, FIVE])


def _full_house(
    m_: Int64Array, three: Int64Array, two: Int64Array, red: Int64Array, jokers: int
) -> Int64Array:
    """A full house: three of rank index ``three`` (a natural pair and the joker when
    ``jokers``), two of ``two``; R6 step 4 sorts the five by rank, so a pair above the three
    comes first."""
    nib3 = (m_ >> (4 * three)) & 15
    nib2 = (m_ >> (4 * two)) & 15
    suits3 = _NIBSUITS[nib3] << (4 * jokers)
    suits2 = _NIBTOP2[nib2]
    colour = (1 + red) if jokers else np.zeros_like(red)
    high = three > two
    suits = np.where(high, suits3 << 8 | suits2, suits2 << 12 | suits3)
    colours = np.where(high, colour << 4, colour)
    ranks = (three + 2) * 0x11100 + (two + 2) * 0x11
    return (FULL_HOUSE << CATEGORY_SHIFT) | (ranks << RANK_SHIFT) | (suits << SUIT_SHIFT) | colours


def _two_pair(
    m_: Int64Array, t_: Int64Array, count: Int64Array, ge2: Int64Array
) -> Int64Array:
    high = _HI[ge2]
    low = _HI[ge2 ^ (1 << high)]
    suits_h = _NIBSUITS[(m_ >> (4 * high)) & 15]
    suits_l = _NIBSUITS[(m_ >> (4 * low)) & 15]
    free = t_ & ~(15 << (4 * high)) & ~(15 << (4 * low))
    k_ranks, k_suits = _top_cards(free, np.minimum(count, 5) - 4, 1)
    ranks = (high + 2) * 0x11000 + (low + 2) * 0x110 + k_ranks
    suits = suits_h << 12 | suits_l << 4 | k_suits
    return (TWO_PAIR << CATEGORY_SHIFT) | (ranks << RANK_SHIFT) | (suits << SUIT_SHIFT)


def _straight(t_: Int64Array, top: Int64Array, ge1: Int64Array, red: Int64Array) -> Int64Array:
    """A straight: the best card of each rank, jokers in the gaps (from the top, red first)."""
    # Each rank's best suit as a number in its nibble (0 where the rank is missing).
    codes = (
        (t_ & _NIB1)
        + 2 * ((t_ >> 1) & _NIB1)
        + 3 * ((t_ >> 2) & _NIB1)
        + 4 * ((t_ >> 3) & _NIB1)
    )
    window = np.where(
        top >= 6,
        (codes >> (4 * np.maximum(top - 6, 0))) & 0xFFFFF,
        ((codes & 0xFFFF) << 4) | ((codes >> 48) & 15),  # A-2-3-4-5: the ace last, as a 1
    )
    ext = (ge1 << 1) | ((ge1 >> 12) & 1)
    present = (ext >> (top - 5)) & 31
    return (
        (STRAIGHT << CATEGORY_SHIFT)
        | (_STRAIGHT_RANKS[top] << RANK_SHIFT)
        | (window << SUIT_SHIFT)
        | _GAP_COLOURS[red * 32 + (31 ^ present)]
    )


def _rank_keys(m_: Int64Array, jokers: int) -> Int64Array:
    """The keys of hands that all hold ``jokers`` jokers."""
    c1 = m_ & _SUIT13
    c2 = (m_ >> 13) & _SUIT13
    c3 = (m_ >> 26) & _SUIT13
    c4 = (m_ >> 39) & _SUIT13
    red = (m_ >> 53) & 1
    count = _popcount(m_)
    # The ranks held at least once, twice, three and four times.
    x12, o12, x34, o34 = c1 & c2, c1 | c2, c3 & c4, c3 | c4
    ge1 = o12 | o34
    ge2 = x12 | x34 | (o12 & o34)
    ge3 = (x12 & o34) | (x34 & o12)
    ge4 = x12 & x34
    # One bit per card, rank-major (rank index * 4 + suit - 1), and each rank's best card.
    spread = _SPREAD[c1] | _SPREAD[c2] << 1 | _SPREAD[c3] << 2 | _SPREAD[c4] << 3
    best = spread & ~(((spread >> 1) & _NIB3) | ((spread >> 2) & _NIB2) | ((spread >> 3) & _NIB1))

    # The sets by size: the highest rank that reaches each size with the jokers.
    if jokers == 0:
        levels = ((ge4, 4), (ge3, 3), (ge2, 2))
        fallback_size, fallback_rank = 0, 0
    elif jokers == 1:
        levels = ((ge4, 5), (ge3, 4), (ge2, 3), (ge1, 2))
        fallback_size, fallback_rank = 1, 12  # a lone joker: an ace
    else:
        levels = ((ge3, 5), (ge2, 4), (ge1, 3))
        fallback_size, fallback_rank = 2, 12  # two jokers alone: a pair of aces
    size = np.full_like(m_, fallback_size)
    source = np.zeros_like(m_)
    for mask, n in reversed(levels):
        hit = mask != 0
        size = np.where(hit, n, size)
        source = np.where(hit, mask, source)
    rank = np.where(source != 0, _HI[source], fallback_rank)
    category = _CATEGORY_OF_SIZE[size]

    # Full house, straight and two pair beat some of those (R3).
    if jokers == 0:
        three_bit = 1 << np.maximum(_HI[ge3], 0)
        full = (ge3 != 0) & ((ge2 & ~three_bit) != 0)
    elif jokers == 1:
        full = _popcount(ge2) >= 2
    else:
        full = np.zeros(len(m_), dtype=bool)
    category = np.where(full & (category < FULL_HOUSE), FULL_HOUSE, category)
    top = _STRAIGHT_TOP[jokers][ge1]
    category = np.where((top > 0) & (category < STRAIGHT), STRAIGHT, category)
    if jokers == 0:
        two = _popcount(ge2) >= 2
        category = np.where(two & (category < TWO_PAIR), TWO_PAIR, category)

    keys = np.empty_like(m_)
    kinds = (category != FULL_HOUSE) & (category != STRAIGHT) & (category != TWO_PAIR)
    idx = _where(kinds)
    if idx is None:
        keys = _of_a_kind(spread, best, count, size, rank, red)
    elif len(idx):
        keys[idx] = _of_a_kind(spread[idx], best[idx], count[idx], size[idx], rank[idx], red[idx])
    idx = np.flatnonzero(category == FULL_HOUSE)
    if len(idx):
        g2 = ge2[idx]
        three = _HI[ge3[idx]] if jokers == 0 else _HI[g2]
        two = _HI[g2 & ~(1 << three)]
        keys[idx] = _full_house(spread[idx], three, two, red[idx], jokers)
    idx = np.flatnonzero(category == STRAIGHT)
    if len(idx):
        keys[idx] = _straight(best[idx], top[idx], ge1[idx], red[idx])
    if jokers == 0:
        idx = np.flatnonzero(category == TWO_PAIR)
        if len(idx):
            keys[idx] = _two_pair(spread[idx], best[idx], count[idx], ge2[idx])

    # Flushes and straight flushes (R3, R5): the best suit's, where one reaches five.
    counts = [_popcount(c) for c in (c1, c2, c3, c4)]
    most = np.maximum(np.maximum(counts[0], counts[1]), np.maximum(counts[2], counts[3]))
    idx = np.flatnonzero(most + jokers >= 5)
    if len(idx):
        table = _SUITED[jokers]
        offset = red[idx] * 8192
        suited = keys[idx]
        for s, c in enumerate((c1, c2, c3, c4)):
            base = table[offset + c[idx]]
            suited = np.maximum(suited, base + s * (base & _SUIT_FIELDS))
        keys[idx] = suited
    return keys


def _where(flags: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp] | None:
    """The indices of the true flags, or None when all are true (no gather needed)."""
    idx = np.flatnonzero(flags)
    return None if len(idx) == len(flags) else idx


def hand_keys(masks: npt.ArrayLike) -> Int64Array:
    """The R6 order of each hand (a deck bit mask, see ``mask_of``) as one integer: a greater
    integer is a better lay, and it equals ``pack_key(hands.hand_key(cards))``."""
    m = np.asarray(masks, dtype=np.int64).ravel()
    jokers = (m >> 52) & 3
    present = np.bitwise_or.reduce(jokers) if len(m) else 0
    if present == 0:  # no joker anywhere: one group
        return _rank_keys(m, 0)
    keys = np.empty_like(m)
    n_jokers = _popcount(jokers)
    for j in (0, 1, 2):
        idx = np.flatnonzero(n_jokers == j)
        if len(idx) == len(m):
            return _rank_keys(m, j)
        if len(idx):
            keys[idx] = _rank_keys(m[idx], j)
    return keys


def categories(keys: npt.ArrayLike) -> Int64Array:
    """The category order of each key (``hands.Category.order``: high card 0 … five of a
    kind 10)."""
    return np.asarray(keys, dtype=np.int64) >> CATEGORY_SHIFT


class Batch(NamedTuple):
    keys: Int64Array
    categories: Int64Array


def evaluate_hands(hands: Iterable[Iterable[Card]]) -> Batch:
    """The keys and categories of many hands given as cards."""
    keys = hand_keys(masks_of(hands))
    return Batch(keys, categories(keys))


assert len(FULL_DECK) == 54 and FULL_DECK[53].index == 53  # the bit layout above
