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
three and four times in a few bitwise operations; with the count of jokers those decide the
sets (five, four or three of a kind, a pair) as ``hands._analyse`` does, and two pair, straights
and full houses are worked out on the hands that hold them. R6 step 4's suits come from rank
masks too: the suits held at one rank are gathered into a nibble by one multiplication, and each
rank's best suit is two rank masks (suit - 1 = 2 * high + low), so the kickers' suits are read
off with a table-driven bit extraction rather than a loop per card. Flushes and straight
flushes of one suit depend only on that suit's 13-bit mask, the jokers and the red joker's
presence, so they come from a table built once at import. Nothing is remembered between calls:
the speed is the same for hands never seen.
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
# Tables, built once at import (a few milliseconds). A "rank mask" has bit i for rank i + 2.


def _popcount(x: Int64Array) -> Int64Array:
    return np.bitwise_count(x).astype(np.int64)


def _frozen(table: Int64Array) -> Int64Array:
    table.flags.writeable = False
    return table


_ALL13 = _frozen(np.arange(1 << 13, dtype=np.int64))  # every rank mask


def _highest(values: Int64Array, empty: int) -> Int64Array:
    """The index of the highest set bit of each value, ``empty`` for 0."""
    out = np.full(len(values), empty, dtype=np.int64)
    for i in range(int(values.max()).bit_length()):
        out[(values >> i) & 1 == 1] = i
    return out


# HI[m]: the index of the highest rank of a rank mask (0 when empty); HI_ACE: 12 (an ace) when
# empty, the rank a joker alone stands for.
_HI = _frozen(_highest(_ALL13, 0))
_HI_ACE = _frozen(_highest(_ALL13, 12))
_HIBIT = _frozen(np.where(_ALL13 > 0, 1 << _HI, 0))  # the highest bit itself (0 when empty)


def _top_bits() -> Int64Array:
    """TOP[k * 8192 + m]: the k highest bits of m (all of them if it has fewer)."""
    out = np.zeros((6, 1 << 13), dtype=np.int64)
    rest = _ALL13.copy()
    for k in range(1, 6):
        out[k] = out[k - 1] | _HIBIT[rest]
        rest = rest ^ _HIBIT[rest]
    return out.ravel()


_TOP = _frozen(_top_bits())


def _rank_pack() -> Int64Array:
    """RANKS[m]: the ranks of a rank mask, highest first, 4 bits each, the lowest last."""
    out = np.zeros(1 << 13, dtype=np.int64)
    for i in range(12, -1, -1):
        out = np.where((_ALL13 >> i) & 1 == 1, out << 4 | (i + 2), out)
    return out


_RANKS = _frozen(_rank_pack())


def _pext_table(width: int) -> Int64Array:
    """PEXT[sel << width | x]: the bits of x where sel has bits, packed low (the highest one
    highest): how the kickers' suits are read off the rank masks (see ``_kicker_suits``)."""
    sel, x = np.divmod(np.arange(1 << (2 * width), dtype=np.int64), 1 << width)
    out = np.zeros_like(sel)
    for i in range(width - 1, -1, -1):
        has = (sel >> i) & 1 == 1
        out[has] = out[has] << 1 | ((x[has] >> i) & 1)
    return out


_PEXT7 = _frozen(_pext_table(7))
_PEXT6 = _frozen(_pext_table(6))


def _suit_pack() -> Int64Array:
    """SUITS[k << 10 | high << 5 | low]: the suits of k cards, highest first, 4 bits each, from
    two k-bit numbers: suit = 1 + 2 * (a bit of ``high``) + (the same bit of ``low``)."""
    out = np.zeros(6 << 10, dtype=np.int64)
    for k in range(6):
        for high in range(1 << k):
            for low in range(1 << k):
                packed = 0
                for i in range(k - 1, -1, -1):
                    packed = packed << 4 | (1 + 2 * (high >> i & 1) + (low >> i & 1))
                out[k << 10 | high << 5 | low] = packed
    return out


_SUITS = _frozen(_suit_pack())


def _nibble_suits() -> Int64Array:
    """NIBTOP[k][nibble]: the best k suits present at a rank (bit s - 1 for suit s), highest
    first, 4 bits each; NIBSUITS (k = 4): all of them."""
    out = np.zeros((6, 16), dtype=np.int64)
    for nibble in range(16):
        suits = [s for s in (4, 3, 2, 1) if nibble >> (s - 1) & 1]
        for k in range(6):
            for s in suits[:k]:
                out[k, nibble] = out[k, nibble] << 4 | s
    return out


_NIBTOP = _frozen(_nibble_suits())
_NIBSUITS = _NIBTOP[4]
# The rank of a combination repeated over t places: rank * REPEAT[t].
_REPEAT = _frozen(np.array([sum(1 << (4 * i) for i in range(t)) for t in range(6)], np.int64))
# SPREAD5[m]: the 5 bits of m moved four apart (bit i to bit 4i): a suit field of 1s.
_SPREAD5 = _frozen(np.array([sum(1 << (4 * i) for i in range(5) if m >> i & 1) for m in range(32)]))
_CATEGORY_OF_SIZE = _frozen(np.array([HIGH_CARD, HIGH_CARD, PAIR, THREE, FOUR, FIVE], np.int64))
# JOKER_COLOURS[used * 2 + red]: the colours of the jokers closing a combination (red first).
_JOKER_COLOURS = _frozen(np.array([0, 0, 1, 2, 1 << 2 | 1, 2 << 2 | 1], np.int64))


def _straight_tops(jokers: int) -> Int64Array:
    """STRAIGHT_TOP[m]: the top rank of the best straight in rank mask m with that many jokers
    (the ace also low, R3), or 0."""
    ext = (_ALL13 << 1) | ((_ALL13 >> 12) & 1)  # bit i: rank i + 1 (an ace at 0 and 13)
    top = np.zeros(1 << 13, dtype=np.int64)
    for high in range(5, 15):  # the highest window wins: later ones overwrite
        window = _popcount((ext >> (high - 5)) & 31)
        top[window >= 5 - jokers] = high
    return top


_STRAIGHT_TOP = _frozen(np.stack([_straight_tops(j) for j in range(3)]))
# The ranks of the straight topped by ``top`` (5 to 14), packed: A-2-3-4-5 counts its ace as 1.
_STRAIGHT_RANKS = _frozen(
    np.array(
        [sum(r << (4 * (r - top + 4)) for r in range(top - 4, top + 1)) if top >= 5 else 0
         for top in range(15)],
        dtype=np.int64,
    )
)  # fmt: skip


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


_GAP_COLOURS = _frozen(_gap_colours())


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
    sf_key = (
        (np.where(top == 14, ROYAL, STRAIGHT_FLUSH) << CATEGORY_SHIFT)
        | (_STRAIGHT_RANKS[top] << RANK_SHIFT)
        | (_SPREAD5[present] << SUIT_SHIFT)
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
    flush_key = (FLUSH << CATEGORY_SHIFT) | (ranks << RANK_SHIFT) | (suits << SUIT_SHIFT) | colours
    out = np.where(top > 0, sf_key, flush_key)
    return np.where(valid, out, 0).astype(np.int64)


# SUITED[jokers][red * 8192 + m]
_SUITED = _frozen(
    np.stack([np.concatenate([_suited_table(j, 0), _suited_table(j, 1)]) for j in range(3)])
)


# ---------------------------------------------------------------------------------------------
# The evaluator. Every array holds one value per hand; rank masks are 13-bit (bit i: rank i+2).

# The suits present at one rank, from the deck mask: (m >> rank) & _AT_RANK keeps that rank's
# bit of each suit (bits 0, 13, 26, 39); multiplying by _GATHER moves them to bits 40–43.
_AT_RANK = 1 | 1 << 13 | 1 << 26 | 1 << 39
_GATHER = 1 << 40 | 1 << 28 | 1 << 16 | 1 << 4


def _suits_at(m: Int64Array, rank: Int64Array) -> Int64Array:
    """The suits held at rank index ``rank``: bit s - 1 for suit s."""
    return ((((m >> rank) & _AT_RANK) * _GATHER) >> 40) & 15


def _kickers(
    free: Int64Array, wanted: Int64Array, high: Int64Array, low: Int64Array
) -> tuple[Int64Array, Int64Array]:
    """The ranks and suits of the best ``wanted`` cards of the ranks in ``free`` (one card per
    rank: each rank's best suit, read off ``high`` and ``low``), highest first, packed low."""
    sel = _TOP[(wanted << 13) | free]
    hi7 = (sel >> 6) << 7
    lo6 = (sel & 63) << 6
    shift = np.bitwise_count(sel & 63)
    p_high = (_PEXT7[hi7 | (high >> 6)] << shift) | _PEXT6[lo6 | (high & 63)]
    p_low = (_PEXT7[hi7 | (low >> 6)] << shift) | _PEXT6[lo6 | (low & 63)]
    return _RANKS[sel], _SUITS[(_popcount(sel) << 10) | (p_high << 5) | p_low]


def _of_a_kind(
    m: Int64Array,
    ge1: Int64Array,
    high: Int64Array,
    low: Int64Array,
    lay: Int64Array,
    size: Int64Array,
    source: Int64Array,
    red: Int64Array,
    jokers: int,
) -> Int64Array:
    """Five, four or three of a kind, a pair or high card: ``size`` cards of the highest rank in
    ``source`` (its naturals, best suits first, then jokers; an ace when ``source`` is empty),
    then the best other cards as kickers. High card is size 0."""
    rank = _HI_ACE[source]
    nibble = _suits_at(m, rank)
    if not jokers:
        nibble *= size > 0  # high card: no combination but the kickers
    pad = 5 - size  # the places after the combination
    used = size - np.bitwise_count(nibble)  # jokers in the combination
    ranks = ((rank + 2) * _REPEAT[size]) << (4 * pad)
    suits = _NIBSUITS[nibble] << (4 * (used + pad))
    k_ranks, k_suits = _kickers(ge1 & ~_HIBIT[source], lay - size, high, low)
    back = 4 * (5 - lay)  # the kickers end the lay
    key: Int64Array = (
        (_CATEGORY_OF_SIZE[size] << CATEGORY_SHIFT)
        | ((ranks | k_ranks << back) << RANK_SHIFT)
        | ((suits | k_suits << back) << SUIT_SHIFT)
    )
    if jokers:
        key |= _JOKER_COLOURS[used * 2 + red] << (2 * pad)
    return key


def _full_house(
    m: Int64Array, three: Int64Array, two: Int64Array, red: Int64Array, jokers: int
) -> Int64Array:
    """A full house: three of rank index ``three`` (a natural pair and the joker when
    ``jokers``), two of ``two``; R6 step 4 sorts the five by rank, so a pair above the three
    comes first."""
    suits3 = _NIBTOP[3 - jokers][_suits_at(m, three)] << (4 * jokers)
    suits2 = _NIBTOP[2][_suits_at(m, two)]
    colour = (1 + red) if jokers else np.zeros_like(red)
    high = three > two
    suits = np.where(high, suits3 << 8 | suits2, suits2 << 12 | suits3)
    colours = np.where(high, colour << 4, colour)
    ranks = (three + 2) * 0x11100 + (two + 2) * 0x11
    key: Int64Array = (
        (FULL_HOUSE << CATEGORY_SHIFT) | (ranks << RANK_SHIFT) | (suits << SUIT_SHIFT) | colours
    )
    return key


def _two_pair(
    m: Int64Array,
    ge1: Int64Array,
    ge2: Int64Array,
    high: Int64Array,
    low: Int64Array,
    lay: Int64Array,
) -> Int64Array:
    top_bit = _HIBIT[ge2]
    second_bit = _HIBIT[ge2 ^ top_bit]
    first, second = _HI[top_bit], _HI[second_bit]
    k_ranks, k_suits = _kickers(ge1 & ~(top_bit | second_bit), lay - 4, high, low)
    ranks = (first + 2) * 0x11000 + (second + 2) * 0x110 + k_ranks
    suits = _NIBSUITS[_suits_at(m, first)] << 12 | _NIBSUITS[_suits_at(m, second)] << 4 | k_suits
    key: Int64Array = (TWO_PAIR << CATEGORY_SHIFT) | (ranks << RANK_SHIFT) | (suits << SUIT_SHIFT)
    return key


def _straight(
    top: Int64Array, ge1: Int64Array, high: Int64Array, low: Int64Array, red: Int64Array
) -> Int64Array:
    """A straight: the best card of each rank, jokers in the gaps (from the top, red first)."""
    shift = top - 5

    def window(mask: Int64Array) -> Int64Array:  # bit 4: the top card's rank; an ace also low
        return (((mask << 1) | ((mask >> 12) & 1)) >> shift) & 31

    present = window(ge1)
    suits = _SPREAD5[present] + 2 * _SPREAD5[window(high)] + _SPREAD5[window(low)]
    return (
        (STRAIGHT << CATEGORY_SHIFT)
        | (_STRAIGHT_RANKS[top] << RANK_SHIFT)
        | (suits << SUIT_SHIFT)
        | _GAP_COLOURS[red * 32 + (31 ^ present)]
    )


def _rank_keys(m: Int64Array, jokers: int) -> Int64Array:
    """The keys of hands that all hold ``jokers`` jokers."""
    c1 = m & _SUIT13
    c2 = (m >> 13) & _SUIT13
    c3 = (m >> 26) & _SUIT13
    c4 = (m >> 39) & _SUIT13
    red = (m >> 53) & 1
    lay = np.minimum(_popcount(m), 5)  # R4: the cards laid
    # The ranks held at least once, twice, three and four times.
    x12, o12, x34, o34 = c1 & c2, c1 | c2, c3 & c4, c3 | c4
    ge1 = o12 | o34
    ge2 = x12 | x34 | (o12 & o34)
    ge3 = (x12 & o34) | (x34 & o12)
    ge4 = x12 & x34
    # Each rank's best suit s as two rank masks: s - 1 = 2 * high + low.
    high = o34
    low = c4 | (c2 & ~c3)

    # Sets: the biggest size the jokers let a rank reach, and the ranks that reach it.
    levels = {0: (ge2, ge3, ge4), 1: (ge1, ge2, ge3, ge4), 2: (ge1, ge2, ge3)}[jokers]
    size = np.full_like(m, jokers)  # no set: high card, or the jokers alone (one ace or two)
    source = np.zeros_like(m)
    for level in levels:
        reached = level != 0
        size += reached
        source = np.where(reached, level, source)
    if jokers == 0:
        size += ge2 != 0  # a pair is two cards
    keys = _of_a_kind(m, ge1, high, low, lay, size, source, red, jokers)

    # Two pair, a straight and a full house beat some of those (R3): worked out where possible.
    pairs = _popcount(ge2)
    if jokers == 0:
        idx = np.flatnonzero((pairs >= 2) & (size < 3))
        if len(idx):
            keys[idx] = _two_pair(m[idx], ge1[idx], ge2[idx], high[idx], low[idx], lay[idx])
    top = _STRAIGHT_TOP[jokers][ge1]
    idx = np.flatnonzero((top > 0) & (size < 4))
    if len(idx):
        straight = _straight(top[idx], ge1[idx], high[idx], low[idx], red[idx])
        keys[idx] = np.maximum(keys[idx], straight)
    if jokers < 2:
        full = (pairs >= 2) & (size == 3) if jokers == 0 else (pairs >= 2) & (size < 4)
        idx = np.flatnonzero(full)
        if len(idx):
            g2 = ge2[idx]
            three = _HI[ge3[idx] if jokers == 0 else g2]
            two = _HI[g2 & ~(1 << three)]
            keys[idx] = _full_house(m[idx], three, two, red[idx], jokers)

    # Flushes and straight flushes (R3, R5): the best suit's, where one reaches five.
    counts = [np.bitwise_count(c) for c in (c1, c2, c3, c4)]
    most = np.maximum(np.maximum(counts[0], counts[1]), np.maximum(counts[2], counts[3]))
    idx = np.flatnonzero(most >= 5 - jokers)
    if len(idx):
        table = _SUITED[jokers]
        offset = red[idx] << 13
        suited = keys[idx]
        for s, c in enumerate((c1, c2, c3, c4)):
            base = table[offset | c[idx]]
            suited = np.maximum(suited, base + s * (base & _SUIT_FIELDS))
        keys[idx] = suited
    return keys


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


assert FULL_DECK[53].index == 53  # the bit layout above: bit i is FULL_DECK[i]
