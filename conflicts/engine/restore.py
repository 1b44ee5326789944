"""A running conflict in a campaign file (R10, issue 28): what a file may carry of it, and how it
comes back.

A running conflict's secrets are its hidden cards (every hand, every discard, the stock's
order), the shuffle's order and its salt: until the conflict ends nobody but a hand's own player
(and the Dealer) sees any of them, and the salt not even the Dealer. So:

- ``sealed``: the state as an export writes it while the conflict runs. Every card nobody may
  see yet is ``HIDDEN`` ("??": how many, never which); the stock's order, the shuffle's order,
  the salt and the commitment are left out. Public cards stay: the lays on the table after the
  reveal. A finished conflict (done, folded, cancelled) is written whole: R10 makes all of its
  cards public then.
- ``redealt``: the state a restore or an import puts back. Whatever the file says a hidden place
  holds — "??" from an export, or cards from an older file or a forged one — is thrown away:
  every hidden card is shuffled afresh with the server's randomness and dealt again into the
  same places (each hand keeps its size, the stock and the discard pile theirs), under a new
  secret salt and a new commitment. Only the public lays after the reveal are kept as the file
  has them, as the timeline keeps what was said. So no file can choose a card in a hand or in
  the stock.

Pure: the randomness (``rng``) and the salt are the caller's.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping
from itertools import cycle
from typing import Any

from cards.deck import Card, commitment, new_deck, parse_card
from cards.hands import evaluate

from .conflict import ConflictState, Phase, visible_cards
from .serial import state_from_data, state_to_data

HIDDEN = "??"
DECK_SIZE = 54
OVER = (Phase.DONE, Phase.FOLDED, Phase.CANCELLED)


def sealed(state: ConflictState) -> dict[str, Any]:
    """The state as a file carries it (see the module docstring): whole once the conflict is
    over; while it runs, only its public cards, the others ``HIDDEN``."""
    data = state_to_data(state)
    if state.phase in OVER:
        return data
    public = {card.text for card in visible_cards(state, (), dealer=False)}
    for hand in data["participants"]:
        hand["hand"] = [text if text in public else HIDDEN for text in hand["hand"]]
        hand["discarded"] = [HIDDEN for _ in hand["discarded"]]
        if hand["lay"] is not None and not set(hand["lay"]) <= public:
            hand["lay"], hand["lay_chosen"] = None, False  # chosen, not yet shown
    deck = data["deck"]
    if deck is not None:
        data["deck"] = {
            "stock": [HIDDEN for _ in deck["stock"]],
            "discards": [HIDDEN for _ in deck["discards"]],
        }
    data.update(order=[], salt="", commitment="", sealed=True)
    return data


def redealt(data: Mapping[str, Any], rng: random.Random, salt: str) -> ConflictState:
    """A running conflict's state from a file with every hidden card shuffled and dealt again
    (see the module docstring). Raises ``ValueError`` when its cards cannot be a deck's, and
    whatever the engine's loader raises for the rest."""
    phase = Phase(data["phase"])
    if phase in OVER:
        raise ValueError("a finished conflict comes back as it is")
    filled = copy.deepcopy(dict(data))
    filled.pop("sealed", None)
    hands: list[dict[str, Any]] = filled["participants"]
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise ValueError("participants must be a list of hands")
    if phase == Phase.SIZING:  # nothing dealt yet: the Deal shuffles a fresh deck anyway
        for hand in hands:
            hand.update(hand=[], discarded=[], lay=None, lay_chosen=False)
        filled.update(deck=None, order=[], salt="", commitment="")
        return state_from_data(filled)

    kept = _public_lays(hands, phase)
    deck = filled.get("deck")
    if not isinstance(deck, dict):
        raise ValueError("a conflict past the Deal has a deck")
    stock, pile = _places(deck, "stock"), _places(deck, "discards")
    slots = [_places(hand, "hand") - len(kept.get(n, ())) for n, hand in enumerate(hands)]
    held = sum(len(cards) for cards in kept.values())
    total = held + sum(slots) + stock + pile
    if total != DECK_SIZE:
        raise ValueError(
            f"the hands, the stock and the discard pile hold {total} cards, not a deck's 54"
        )
    public = {card for cards in kept.values() for card in cards}
    order = tuple(card for card in new_deck(rng).stock if card not in public)
    cards = iter(order)
    for n, hand in enumerate(hands):
        own = (*kept.get(n, ()), *(next(cards) for _ in range(slots[n])))
        hand["hand"] = [card.text for card in own]
        if phase == Phase.LAYING and not hand.get("folded"):
            hand["lay"] = [card.text for card in evaluate(own).laid]  # the Call's proposal
            hand["lay_chosen"] = False
        elif phase == Phase.DRAW or hand.get("folded"):
            hand["lay"], hand["lay_chosen"] = None, False
    discards = [next(cards) for _ in range(pile)]
    rest = list(cards)
    _record_discards(hands, discards + rest)
    filled["deck"] = {"stock": [c.text for c in rest], "discards": [c.text for c in discards]}
    filled.update(order=[c.text for c in order], salt=salt, commitment=commitment(order, salt))
    return state_from_data(filled)


def _places(holder: Mapping[str, Any], name: str) -> int:
    """How many cards a list of the file holds (whatever it says they are)."""
    value = holder.get(name)
    if not isinstance(value, list):
        raise ValueError(f"{name} must be a list of cards")
    return len(value)


def _public_lays(hands: list[dict[str, Any]], phase: Phase) -> dict[int, tuple[Card, ...]]:
    """After the reveal, each hand still in play keeps its lay (public, R10): hand number →
    its cards, each once in the whole conflict and each in its own hand."""
    if phase != Phase.RESOLUTION:
        return {}
    kept: dict[int, tuple[Card, ...]] = {}
    seen: set[Card] = set()
    for n, hand in enumerate(hands):
        lay = hand.get("lay")
        if hand.get("folded") or lay is None:
            continue
        if not isinstance(lay, list) or not all(isinstance(t, str) for t in lay):
            raise ValueError("a lay is a list of cards")
        cards = tuple(parse_card(text) for text in lay)
        in_hand = hand.get("hand")
        own = (
            {parse_card(t) for t in in_hand if t != HIDDEN} if isinstance(in_hand, list) else set()
        )
        if len(set(cards)) != len(cards) or set(cards) & seen or not set(cards) <= own:
            raise ValueError("each lay's cards are in its own hand, each card once")
        if isinstance(in_hand, list) and len(in_hand) < len(cards):
            raise ValueError("a lay is part of its hand")
        seen.update(cards)
        kept[n] = cards
    return kept


def _record_discards(hands: list[dict[str, Any]], pool: list[Card]) -> None:
    """Each hand's ``discarded`` is a record of what it let go (the odds leave those cards out):
    it keeps its length, taken from the discard pile first, then the stock."""
    source: Iterator[Card] = cycle(pool)
    for hand in hands:
        count = min(_places(hand, "discarded"), len(pool))
        hand["discarded"] = [next(source).text for _ in range(count)]
