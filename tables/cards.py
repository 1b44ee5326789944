"""A card as every game's screens show it: ``CardView``, its short code, rank, suit, colour and
its name in words; only ever a card the viewer may see (each game's per-viewer view makes them).
The template tags draw them (``tables/templatetags/table_tags.py``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cards.deck import Card


@dataclass(frozen=True)
class CardView:
    text: str
    rank: str
    suit: str
    red: bool
    name: str


def display_order(cards: Iterable[Card]) -> list[Card]:
    """How a hand is shown: jokers first (red, then black), then by rank and suit, highest
    first (R2, R24's order) — the same order whoever looks, so a player finds a card at once."""
    return sorted(cards, key=lambda c: (not c.is_joker, -c.joker, -c.rank, -c.suit))


def card_view(card: Card) -> CardView:
    if card.is_joker:
        return CardView(card.text, "★", "", card.is_red, card.words)
    return CardView(card.text, card.rank_text, card.text[-1], card.is_red, card.words)
