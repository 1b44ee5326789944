"""A brute-force reference for the value of a hand (rulings R3-R9), written independently of
``cards.hands`` and as plainly as possible. It is slow on purpose: it tries every lay
and every identity of every joker, classifies each try with textbook poker and keeps the best key.

The key is (category order, r1..r5, s1..s5, c1..c5), 0-padded for lays of fewer than five cards:

- r: the lay's ranks in defining order (R6 steps 2-3), a joker counting as its identity's rank
  and an ace inside A-2-3-4-5 counting 1 (R3);
- s, c: the combination's cards (R7) sorted by (rank, suit, colour) highest first, then the
  kickers sorted the same way (R6 step 4); s is the suit (1-4, a joker 0, R5) and c the colour
  (0 natural, 1 black joker, 2 red joker, R6 step 5).

Only plain Python here: no import from the engine except the card values themselves.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, product

ORDER = {
    "high_card": 0,
    "pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "straight": 4,
    "flush": 5,
    "full_house": 6,
    "four_of_a_kind": 7,
    "straight_flush": 8,
    "royal_flush": 9,
    "five_of_a_kind": 10,
}

ALL_SUITS = (1, 2, 3, 4)


@dataclass(frozen=True)
class RefValue:
    key: tuple[int, ...]
    category: str
    laid: frozenset  # the cards of the best lay
    combination: frozenset  # R7
    high_card_key: tuple[int, int, int]  # (rank in the lay, suit or 0, colour)


def _classify(idents: list[tuple[int, int]]) -> tuple[str, int | None]:
    """Textbook poker on identities (rank 2-14, suit 1-4). Returns (category, straight top)."""
    n = len(idents)
    ranks = [r for r, _ in idents]
    counts = sorted(Counter(ranks).values(), reverse=True)
    all_distinct = len(set(ranks)) == n
    # R5: a flush never holds two cards of one rank; R3: straights and flushes need five cards.
    is_flush = n == 5 and all_distinct and len({s for _, s in idents}) == 1
    top = None
    if n == 5 and all_distinct:
        low_to_high = sorted(ranks)
        if low_to_high[4] - low_to_high[0] == 4:
            top = low_to_high[4]
        elif low_to_high == [2, 3, 4, 5, 14]:
            top = 5  # R3: the wheel, the ace counts 1
    if counts[0] == 5:
        return "five_of_a_kind", None
    if is_flush and top is not None:
        return ("royal_flush" if top == 14 else "straight_flush"), top
    if counts[0] == 4:
        return "four_of_a_kind", None
    if counts[:2] == [3, 2]:
        return "full_house", None
    if is_flush:
        return "flush", None
    if top is not None:
        return "straight", top
    if counts[0] == 3:
        return "three_of_a_kind", None
    if counts[:2] == [2, 2]:
        return "two_pair", None
    if counts[0] == 2:
        return "pair", None
    return "high_card", None


def _key_for(lay, idents) -> tuple[tuple[int, ...], str, frozenset, tuple[int, int, int]]:
    """The key of one lay with fixed joker identities. ``lay`` is a tuple of Cards and
    ``idents`` the (rank, suit) each card stands for (a natural card stands for itself)."""
    category, top = _classify(list(idents))
    ranks = [r for r, _ in idents]
    if top == 5:  # the wheel: the ace counts as a 1 everywhere (R3)
        ranks = [1 if r == 14 else r for r in ranks]
    # each laid card as (rank in the lay, suit for comparisons, colour, card)
    entries = [
        (rank, 0 if card.joker else card.suit, card.joker, card)
        for card, rank in zip(lay, ranks, strict=True)
    ]
    count = Counter(ranks)

    def of_count(k):
        return [e for e in entries if count[e[0]] == k]

    if category in (
        "five_of_a_kind",
        "royal_flush",
        "straight_flush",
        "straight",
        "flush",
        "full_house",
    ):
        combo = list(entries)
    elif category == "four_of_a_kind":
        combo = of_count(4)
    elif category == "three_of_a_kind":
        combo = of_count(3)
    elif category in ("two_pair", "pair"):
        combo = of_count(2)
    else:  # high card: the single highest card (R7)
        combo = [max(entries, key=lambda e: e[:3])]
    kickers = [e for e in entries if e not in combo]

    def desc(group):
        return sorted(group, key=lambda e: e[:3], reverse=True)

    # R6 step 2-3: defining ranks, then kickers highest first
    if category in ("royal_flush", "straight_flush", "straight"):
        defining = [top - i for i in range(5)]
    elif category == "full_house":
        three = next(r for r in count if count[r] == 3)
        two = next(r for r in count if count[r] == 2)
        defining = [three] * 3 + [two] * 2
    elif category == "two_pair":
        high, low = sorted((r for r in count if count[r] == 2), reverse=True)
        defining = [high, high, low, low] + [e[0] for e in kickers]
    else:  # five/four/three of a kind, pair: the set then kickers; flush, high card: all ranks
        defining = [e[0] for e in desc(combo)] + [e[0] for e in desc(kickers)]
    ordered = desc(combo) + desc(kickers)
    pad = [0] * (5 - len(lay))
    suits = [e[1] for e in ordered]
    colours = [e[2] for e in ordered]
    key = (ORDER[category], *defining, *pad, *suits, *pad, *colours, *pad)
    high = max(e[:3] for e in entries) if entries else (0, 0, 0)
    return key, category, frozenset(e[3] for e in combo), high


def lay_value(lay) -> RefValue:
    """The value of one lay: the best key over every choice of joker identities (R5, R6)."""
    lay = tuple(lay)
    if not lay:
        return RefValue((0,) * 16, "high_card", frozenset(), frozenset(), (0, 0, 0))
    natural_suits = sorted({c.suit for c in lay if not c.joker})
    # A joker's suit only matters for a flush, which needs all five suits equal: when the
    # natural cards share one suit, that suit and one other cover every case; otherwise no
    # flush is possible and any one suit will do.
    if len(natural_suits) == 1:
        joker_suits = natural_suits + [s for s in ALL_SUITS if s not in natural_suits][:1]
    else:
        joker_suits = [ALL_SUITS[0]]
    choices = []
    for card in lay:
        if card.joker:
            choices.append([(r, s) for r in range(2, 15) for s in joker_suits])
        else:
            choices.append([(card.rank, card.suit)])
    best = None
    for idents in product(*choices):
        found = _key_for(lay, idents)
        if best is None or found[0] > best[0]:
            best = found
    key, category, combo, high = best
    return RefValue(key, category, frozenset(lay), combo, high)


def all_lay_values(hand) -> list[RefValue]:
    hand = list(hand)
    size = min(5, len(hand))
    return [lay_value(lay) for lay in combinations(hand, size)]


def best_value(hand) -> RefValue:
    """R4: the best poker lay of min(5, n) cards."""
    return max(all_lay_values(hand), key=lambda v: v.key)


def best_key(hand) -> tuple[int, ...]:
    return best_value(hand).key


def best_narration(hand) -> RefValue:
    """The lay with the highest single card (R8), ties broken by poker value."""
    return max(all_lay_values(hand), key=lambda v: (v.high_card_key, v.key))
