"""Cards, notation and the deck (rulings R1, R2 and R10).

A card is an interned, immutable value: there are exactly 54 of them (``FULL_DECK``), so two
cards compare equal exactly when they are the same card, and a hand can never hold a card twice.

Randomness is injected: every function that shuffles takes an ``rng`` with the
``random.Random`` interface. Production passes ``system_rng()`` (the operating system's
cryptographic source, R10); tests pass a seeded ``random.Random``.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

__all__ = [
    "BLACK_JOKER",
    "FULL_DECK",
    "RED_JOKER",
    "Card",
    "CardParseError",
    "ConservationError",
    "Deck",
    "DrawResult",
    "Suit",
    "assert_conserved",
    "commitment",
    "format_cards",
    "new_deck",
    "new_salt",
    "parse_card",
    "parse_cards",
    "system_rng",
    "verify_commitment",
]


class Suit(IntEnum):
    """R2: suits rank clubs < diamonds < hearts < spades; each suit is an attribute."""

    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    SPADES = 4

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def attribute(self) -> str:
        """The attribute this suit hurts or helps (R2): ♠ Hand, ♦ Eye, ♣ Guts, ♥ Heart."""
        return _SUIT_ATTRIBUTES[self]

    @property
    def label(self) -> str:
        return self.name.lower()


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_ATTRIBUTES = {
    Suit.SPADES: "hand",
    Suit.DIAMONDS: "eye",
    Suit.CLUBS: "guts",
    Suit.HEARTS: "heart",
}
_RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_WORDS = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
    10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip

# Joker colours. A natural card has colour NATURAL; R6 step 5 ranks red above black.
NATURAL, BLACK, RED = 0, 1, 2


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One of the 54 cards. Use the interned instances (``parse_card``, ``FULL_DECK``).

    ``rank`` is 2–14 (ace high) for natural cards and 0 for jokers; ``suit`` is 1–4 (a ``Suit``)
    for natural cards and 0 for jokers, which have no suit of their own (R5); ``joker`` is 0 for
    natural cards, 1 for the black joker and 2 for the red one. ``index`` (0–53) is the card's
    place in a fresh deck, handy for bitmasks and stable storage.
    """

    rank: int
    suit: int
    joker: int
    index: int
    text: str = field(repr=False)
    # Precomputed for the hand evaluator's hot loop: ``order`` sorts naturals by rank then suit
    # (R6) with the jokers last, red before black; ``rbit`` is the card's bit in a rank mask and
    # ``sinc`` adds one to its suit's 8-bit field in a suit count (both 0 for jokers).
    order: int = field(repr=False, default=0)
    rbit: int = field(repr=False, default=0)
    sinc: int = field(repr=False, default=0)
    # ``weight`` packs a card so that one sum describes a whole hand: the suit counts (bits
    # 0–31), a 3-bit count per rank with the jokers as rank 0 (from bit 32), a red-joker bit
    # (77), from bit 80 a 4-bit field per rank with the suits present and, from bit 140, a
    # 15-bit rank mask per suit. See hands.py.
    weight: int = field(repr=False, default=0)

    @property
    def is_joker(self) -> bool:
        return self.joker != NATURAL

    @property
    def suit_enum(self) -> Suit | None:
        return Suit(self.suit) if self.suit else None

    @property
    def rank_text(self) -> str:
        if self.is_joker:
            return ""
        return _RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def is_red(self) -> bool:
        """Red for display: hearts, diamonds and the red joker."""
        return self.suit in (Suit.HEARTS, Suit.DIAMONDS) or self.joker == RED

    @property
    def words(self) -> str:
        """The card's name in words, as a screen reader says it: "ten of hearts", "red joker"."""
        if self.is_joker:
            return "red joker" if self.joker == RED else "black joker"
        return f"{_RANK_WORDS[self.rank]} of {Suit(self.suit).label}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Pickling (e.g. for multiprocessing) must come back as the interned instance.
        return (parse_card, (self.text,))


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in Suit:
        for rank in range(2, 15):
            text = _RANK_NAMES.get(rank, str(rank)) + suit.symbol
            cards.append(
                Card(
                    rank,
                    int(suit),
                    NATURAL,
                    len(cards),
                    text,
                    rank * 5 + int(suit),
                    1 << rank,
                    1 << (8 * (int(suit) - 1)),
                    (1 << (8 * (int(suit) - 1)))
                    | (1 << (32 + 3 * rank))
                    | (1 << (80 + 4 * rank + int(suit) - 1))
                    | (1 << (140 + 15 * (int(suit) - 1) + rank)),
                )
            )
    cards.append(Card(0, 0, BLACK, len(cards), "BJ", BLACK, weight=1 << 32))
    cards.append(Card(0, 0, RED, len(cards), "RJ", RED, weight=(1 << 32) | (1 << 77)))
    return tuple(cards)


FULL_DECK: tuple[Card, ...] = _build_deck()
BLACK_JOKER: Card = FULL_DECK[52]
RED_JOKER: Card = FULL_DECK[53]


class CardParseError(ValueError):
    """A token that is not a card in any notation of R1. ``token`` names the bad token."""

    def __init__(self, token: str, reason: str = "") -> None:
        self.token = token
        message = f"{token!r} is not a card"
        if reason:
            message += f": {reason}"
        message += " (write cards like 10♥, TH, As, Q♣ or RJ/BJ for the jokers)"
        super().__init__(message)


# R1: ranks 2–10, J, Q, K, A (T for 10); suits as symbols or C/D/H/S in any case. The white
# (outline) suit symbols and an emoji variation selector are accepted too, since phones type them.
_SUIT_BY_TEXT: dict[str, Suit] = {
    "♣": Suit.CLUBS, "♧": Suit.CLUBS, "c": Suit.CLUBS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "d": Suit.DIAMONDS,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS, "h": Suit.HEARTS,
    "♠": Suit.SPADES, "♤": Suit.SPADES, "s": Suit.SPADES,
}  # fmt: skip
_RANK_BY_TEXT: dict[str, int] = {str(r): r for r in range(2, 11)} | {
    "t": 10, "j": 11, "q": 12, "k": 13, "a": 14,
}  # fmt: skip
_BY_KEY: dict[tuple[int, int], Card] = {(c.rank, c.suit): c for c in FULL_DECK if not c.is_joker}
_JOKERS_BY_TEXT = {"rj": RED_JOKER, "bj": BLACK_JOKER}
_TOKEN_SPLIT = re.compile(r"[\s,;]+")


def parse_card(token: str) -> Card:
    """Parse one card token in any notation of R1; raise ``CardParseError`` naming the token."""
    raw = token
    text = token.strip().replace("\ufe0f", "").lower()
    if not text:
        raise CardParseError(raw, "empty")
    if text in _JOKERS_BY_TEXT:
        return _JOKERS_BY_TEXT[text]
    suit = _SUIT_BY_TEXT.get(text[-1])
    if suit is None:
        raise CardParseError(raw, "no suit (♣ ♦ ♥ ♠ or C D H S)")
    rank = _RANK_BY_TEXT.get(text[:-1])
    if rank is None:
        raise CardParseError(raw, "no rank (2–10, J, Q, K, A; T for 10)")
    return _BY_KEY[(rank, int(suit))]


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas, e.g. ``"3♥ 3C 7d TH RJ"``.

    A card may appear only once: a hand holding the same card twice is a typing mistake.
    """
    cards = [parse_card(token) for token in _TOKEN_SPLIT.split(text.strip()) if token]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardParseError(card.text, "that card appears twice")
        seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in the app's output notation (R1), separated by spaces."""
    return " ".join(card.text for card in cards)


def system_rng() -> random.Random:
    """The production random source: the operating system's cryptographic randomness (R10)."""
    return random.SystemRandom()


# ---------------------------------------------------------------------------------------------
# The deck (R10)


@dataclass(frozen=True, slots=True)
class DrawResult:
    deck: Deck
    cards: tuple[Card, ...]
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Deck:
    """The stock (``stock[0]`` is the top card) and the discard pile.

    Cards in hands are not in the deck; ``assert_conserved`` checks that deck, discards and
    every hand together are exactly the 54 cards.
    """

    stock: tuple[Card, ...]
    discards: tuple[Card, ...] = ()

    def draw(self, count: int, rng: random.Random) -> DrawResult:
        """Take ``count`` cards from the top.

        R10: when the stock runs out, the discard pile (never cards in hands) is shuffled into a
        new stock; if even that is empty the draw stops short, and an event says so.
        """
        if count < 0:
            raise ValueError("cannot draw a negative number of cards")
        stock, discards = self.stock, self.discards
        taken: list[Card] = []
        events: list[str] = []
        while len(taken) < count:
            if not stock:
                if not discards:
                    events.append(
                        f"The deck and the discard pile are empty: dealt {len(taken)} of {count}."
                    )
                    break
                pile = list(discards)
                rng.shuffle(pile)
                events.append(f"The deck ran out: {len(pile)} discards shuffled into a new deck.")
                stock, discards = tuple(pile), ()
            need = count - len(taken)
            taken.extend(stock[:need])
            stock = stock[need:]
        return DrawResult(Deck(stock, discards), tuple(taken), tuple(events))

    def discard(self, cards: Iterable[Card]) -> Deck:
        return Deck(self.stock, self.discards + tuple(cards))

    def __len__(self) -> int:
        return len(self.stock)


def new_deck(rng: random.Random) -> Deck:
    """A fresh, complete 54-card deck shuffled with ``rng`` (R10: every conflict starts so)."""
    order = list(FULL_DECK)
    rng.shuffle(order)
    return Deck(tuple(order))


class ConservationError(AssertionError):
    """The 54 cards are not all accounted for exactly once."""


def assert_conserved(deck: Deck, *holdings: Iterable[Card]) -> None:
    """Check the invariant: stock ∪ discards ∪ every holding = the 54 cards, each once."""
    counts = Counter(deck.stock)
    counts.update(deck.discards)
    for cards in holdings:
        counts.update(cards)
    duplicated = sorted((c for c, n in counts.items() if n > 1), key=lambda c: c.index)
    missing = [c for c in FULL_DECK if c not in counts]
    if duplicated or missing:
        raise ConservationError(
            f"cards not conserved: missing {format_cards(missing) or 'none'}, "
            f"duplicated {format_cards(duplicated) or 'none'}"
        )


# ---------------------------------------------------------------------------------------------
# The auditable shuffle (docs/architecture.md): publish SHA-256(salt + deck order) at the deal,
# reveal the salt when the conflict ends, and anyone can check the order was fixed from the start.


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(order: Sequence[Card], salt: str) -> str:
    payload = salt + ":" + format_cards(order)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def verify_commitment(order: Sequence[Card], salt: str, digest: str) -> bool:
    return secrets.compare_digest(commitment(order, salt), digest)
