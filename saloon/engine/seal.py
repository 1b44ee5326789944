"""Death Enters the Saloon in a campaign file (issue 37): what a file may carry of a game, and
how it comes back. Pure: the randomness (``rng``) is the caller's.

A hand's faces are its holder's alone (``visible_cards``): the public cards are the face cards,
the two jokers (their whereabouts are public, not their place in a hand), the discard pile and
every card shown to the table. So:

- ``sealed``: the state as a file writes it, in every phase: each hand lists its public cards
  (in the deck's order: where the black joker sits in the Doomed's hand is not said) and a
  ``HIDDEN`` "??" for each other card — how many, never which. The cards set aside are written
  in the deck's order (the shuffle that left them there says nothing to anyone).
- ``unsealed``: the state a restore writes. Whatever the file says a hand's hidden places hold
  ("??", or cards from a forged file) is thrown away. Before everyone has discarded their pairs
  the numbered cards are gathered and dealt out again (the engine's own deal); after, every
  hidden card is shuffled afresh and dealt again into the same places — each hand keeps its
  size and never holds a pair, so the game plays on as the seed's — and every hand is shuffled
  (S2). With the words of the timeline line that says so ("" when nothing was hidden).
"""

from __future__ import annotations

import copy
import random
from collections import defaultdict
from typing import Any

from cards.deck import FULL_DECK, Card, parse_card

from .game import Phase, public_cards
from .serial import state_from_data, state_to_data
from .setup import _deal

HIDDEN = "??"


def sealed(data: dict[str, Any]) -> dict[str, Any]:
    """The state as a file writes it (see the module docstring)."""
    state = state_from_data(data)
    public = public_cards(state)
    out = state_to_data(state)
    for player, hand in zip(out["players"], (p.hand for p in state.players), strict=True):
        shown = sorted((c for c in hand if c in public), key=lambda c: c.index)
        player["hand"] = [c.text for c in shown] + [HIDDEN] * (len(hand) - len(shown))
    out["aside"] = [c.text for c in sorted(state.aside, key=lambda c: c.index)]
    return out


def unsealed(data: Any, rng: random.Random) -> tuple[dict[str, Any], str]:
    """The state a restore writes and the words of its timeline line; raises ``ValueError``
    (or what the engine's loader raises) on a state that cannot be a game's."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise ValueError("a saloon state has its players")
    filled = copy.deepcopy(data)
    players: list[dict[str, Any]] = filled["players"]
    # What the table sees: a hand's card named in the file is kept only if it is public.
    public = {c.text for c in _public(filled)}
    named: list[str] = []
    for p in players:
        if not isinstance(p, dict) or not isinstance(p.get("hand"), list):
            raise ValueError("each player has a hand")
        p["hand"] = [t if isinstance(t, str) and t in public else HIDDEN for t in p["hand"]]
        named += [t for t in p["hand"] if t != HIDDEN]
    for name in ("aside", "discards"):
        named += [str(t) for t in filled.get(name) or ()]
    named += [str(p["archetype"]) for p in players if p.get("archetype")]
    named += [FULL_DECK[53].text] if filled.get("red_joker") else []
    known = [parse_card(t) for t in named]
    pool = [c for c in FULL_DECK if c not in set(known)]
    holes = sum(p["hand"].count(HIDDEN) for p in players)
    if holes != len(pool) or len(set(known)) != len(known):
        raise ValueError("the hands, the cards set aside and the discards are not the 54 cards")
    if not holes:
        return state_to_data(state_from_data(filled)), ""
    rng.shuffle(pool)
    phase = Phase(filled["phase"])
    if phase in (Phase.ARCHETYPES, Phase.DISCARD):
        cards = iter(pool)
        for p in players:
            p["hand"] = [next(cards).text if t == HIDDEN else t for t in p["hand"]]
        dealt = _deal(state_from_data(filled), rng)
        sizes = ", ".join(f"{p.name} {len(p.hand)}" for p in dealt.state.players)
        return state_to_data(dealt.state), (
            "Restored from a campaign file before everyone had discarded their pairs. No file "
            "carries a hand (its faces are its holder's alone): every numbered card was "
            f"gathered, shuffled afresh and dealt out again ({sizes}): discard your pairs."
        )
    hands = _dealt(players, pool, rng)
    for p, hand in zip(players, hands, strict=True):
        rng.shuffle(hand)  # S2: no position says anything about a face
        p["hand"] = [c.text for c in hand]
    return state_to_data(state_from_data(filled)), (
        "Restored from a campaign file in the middle of the game. No file carries a hand's "
        "hidden cards (each face is its holder's alone): they were shuffled afresh and dealt "
        "again, each hand keeping its size and none holding a pair, and every hand was "
        "shuffled (S2)."
    )


def _public(data: dict[str, Any]) -> frozenset[Card]:
    """The public cards of a file's state: the face cards, the jokers, the discards, shown."""
    from .game import FACE_CARDS

    texts = [*(data.get("discards") or ()), *(data.get("shown") or ())]
    if not all(isinstance(t, str) for t in texts):
        raise ValueError("cards are written as text")
    return frozenset((*FACE_CARDS, FULL_DECK[52], FULL_DECK[53], *map(parse_card, texts)))


def _dealt(players: list[dict[str, Any]], pool: list[Card], rng: random.Random) -> list[list[Card]]:
    """Each hand's public cards and the pool's cards in its hidden places, no hand holding two
    of a rank: random tries first, then the greedy that always finds one when one exists (each
    rank, most cards first, to the hands with the most places left)."""
    kept = [[parse_card(t) for t in p["hand"] if t != HIDDEN] for p in players]
    room = [p["hand"].count(HIDDEN) for p in players]
    ranks: dict[int, list[Card]] = defaultdict(list)
    for card in pool:
        ranks[card.rank if not card.is_joker else -card.index].append(card)
    for attempt in range(201):
        hands = [list(cards) for cards in kept]
        left = list(room)
        order = list(ranks.items())
        rng.shuffle(order)
        order.sort(key=lambda item: -len(item[1]))
        for rank, cards in order:
            free = [n for n in range(len(hands)) if left[n] and rank not in _ranks(hands[n])]
            if len(free) < len(cards):
                break
            if attempt < 200:
                picked = _weighted(free, left, len(cards), rng)
            else:
                rng.shuffle(free)
                picked = sorted(free, key=lambda n: -left[n])[: len(cards)]
            for n, card in zip(picked, cards, strict=True):
                hands[n].append(card)
                left[n] -= 1
        else:
            return hands
    raise ValueError("the hidden cards cannot be dealt into these hands without a pair")


def _ranks(hand: list[Card]) -> set[int]:
    return {c.rank if not c.is_joker else -c.index for c in hand}


def _weighted(free: list[int], left: list[int], k: int, rng: random.Random) -> list[int]:
    """``k`` distinct hands of ``free``, each drawn in proportion to its places left."""
    chosen: list[int] = []
    options = list(free)
    for _ in range(k):
        n = rng.choices(options, weights=[left[o] for o in options])[0]
        chosen.append(n)
        options.remove(n)
    return chosen
