"""Death Enters the Saloon (seed 000) as a state machine: set-up, turns, leaving, the endings,
and the "Unwanted" card.

This module is the game's face: ``apply``, the reads (``visible_cards``, ``whose_move``...) and
every name the callers use. The state and the moves are in ``state``, the set-up in ``setup``,
the turns, the duel and the Unwanted card in ``turns``.

Pure and deterministic, as the conflict engine: ``apply(state, move, rng)`` returns an
``Outcome`` (the new state and the timeline entries to write); a move the rules refuse raises
``IllegalMove`` with plain words and changes nothing. Randomness is injected (``rng``).

Card conservation: the 54 cards are always all somewhere — set aside, in front of a player (an
archetype, the red joker), in a hand, or on the uncovered discard pile (``all_cards``).

Who sees which face is decided in ONE place, ``visible_cards``: everyone sees the face cards
(the archetypes), the two jokers (whose whereabouts are public: the black joker is always in
the Doomed's hand, the red one in front of them), the discard pile and every card shown to the
table (a drawn card is shown to everyone, seed: "show it to everyone"; tied players show their
lowest card). A hand's other faces are seen by its holder alone: the drawer picks from the
Doomed's hand by position, seeing only backs. Entries never name a card that is not public.

Where the seed is silent the engine rules as follows (cited as S-rulings in tests):

* S1 A second re-deal: whoever empties their hand first in the latest deal causes it and is the
  one appointed the Doomed.
* S2 The Doomed's hand is shuffled whenever it changes, so a position says nothing about a face.
* S3 Follow-ups are offered one player at a time, clockwise from the drawer's left, skipping the
  drawer, whoever answers and anyone who left; each asks or passes. The extra question (up to
  three in all) goes to a player whose character was brought up — by the "***", by a table-3
  cue without one, or by the answer to the initial question — who has not asked one: a pass
  is not asking (R34). With several brought up, it is offered in that order until one asks.
* S4 One Unwanted card. While it is up play pauses: nothing moves on but what the seed raises
  it for, changing or deleting what was said — the one who raised it, or whoever said the
  words, strikes them from the story (``Strike``; the typed words are the timeline's, outside
  the engine). The turn's own question or cue, struck, is asked again with a new "***". The
  one who raised it lowers it, or the host (``LowerUnwanted(host=...)``, R34).
* S5 Only a safe player (no cards) can leave the game; they then get no follow-ups.
* S6 The black joker has gone round the table when it is back with the player it was first
  drawn from AND every player still in has held it on the way (drawn straight back is no round).

``READINGS`` says the same to the players.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cards.deck import BLACK_JOKER, FULL_DECK, RED_JOKER, Card
from cards.errors import IllegalMove

from .setup import (
    _continue,
    _discard,
    _name,
    _pick_archetype,
    _swap_with,
    after_discard,
    lowest_card,
    new_game,
    proposed_keep,
)
from .state import (
    ENDING_TEXT,
    FACE_CARDS,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_TEXT,
    MIN_PLAYERS,
    NUMBERED,
    READINGS,
    SUIT_ORDER,
    TABLE_ORDER,
    Answer,
    Continue,
    Discard,
    Draw,
    Duel,
    Ending,
    Entry,
    FollowUp,
    Leave,
    LowerUnwanted,
    Move,
    NameCharacter,
    Outcome,
    Pass,
    Phase,
    PickArchetype,
    Player,
    Prompt,
    RaiseUnwanted,
    SaloonState,
    Shoot,
    Step,
    Strike,
    SwapWith,
    Tell,
    Turn,
)
from .turns import (
    _answer,
    _draw,
    _follow_up,
    _leave,
    _lower,
    _next_drawer,
    _pass,
    _prompt,
    _raise,
    _shoot,
    _start_turn,
    _strike,
    _tell,
)

# --- Applying moves ------------------------------------------------------------------------

_Handler = Callable[[SaloonState, Any, random.Random], Outcome]
_HANDLERS: dict[type, _Handler] = {
    PickArchetype: _pick_archetype, NameCharacter: _name, Discard: _discard,
    SwapWith: _swap_with, Draw: _draw, Prompt: _prompt, Answer: _answer, FollowUp: _follow_up,
    Pass: _pass, Shoot: _shoot, Tell: _tell, Leave: _leave, RaiseUnwanted: _raise,
    LowerUnwanted: _lower, Strike: _strike, Continue: _continue,
}  # fmt: skip


def apply(state: SaloonState, move: Move, rng: random.Random | None = None) -> Outcome:
    """Apply one move; ``IllegalMove`` (nothing changed) when the rules refuse it."""
    handler = _HANDLERS.get(type(move))
    if handler is None:  # pragma: no cover - every Move type has a handler
        raise IllegalMove("Unknown move.")
    state.player(move.pid)  # only the players at the table act
    if state.unwanted and not isinstance(move, RaiseUnwanted | LowerUnwanted | Strike):
        raise IllegalMove(  # S4
            f"Play is paused: {state.player(state.unwanted).name} has raised the Unwanted card."
        )
    return handler(state, move, rng or random.SystemRandom())


# --- Reading -------------------------------------------------------------------------------


def all_cards(state: SaloonState) -> list[Card]:
    """Every card, wherever it is (for the conservation check: 54, each once)."""
    out = list(state.aside) + list(state.discards)
    if state.red_joker:
        out.append(RED_JOKER)
    for p in state.players:
        out += list(p.hand)
        if p.archetype is not None:
            out.append(p.archetype)
    return out


def conserved(state: SaloonState) -> bool:
    cards = all_cards(state)
    return len(cards) == len(FULL_DECK) and set(cards) == set(FULL_DECK)


def public_cards(state: SaloonState) -> frozenset[Card]:
    """What the whole table sees: the face cards, both jokers (their places are public), the
    discard pile and every card shown."""
    return frozenset((*FACE_CARDS, BLACK_JOKER, RED_JOKER, *state.discards, *state.shown))


def visible_cards(state: SaloonState, viewer: str | None) -> frozenset[Card]:
    """The one place that decides which faces ``viewer`` (a pid, or None for anyone else and
    the shared table screen) may see: the public cards and their own hand — never another
    hand's other faces, least of all the Doomed's."""
    seen = public_cards(state)
    if viewer is not None and state.has(viewer):
        seen |= frozenset(state.player(viewer).hand)
    return seen


def whose_move(state: SaloonState) -> tuple[str, ...]:
    """The players the game waits for (empty once it is over)."""
    if state.phase == Phase.ARCHETYPES:
        return tuple(p.pid for p in state.players if p.archetype is None)
    if state.phase == Phase.DISCARD:
        return tuple(p.pid for p in state.players if not p.discarded)
    if state.phase == Phase.SWAP:
        return (state.appointed,)
    if state.phase == Phase.DUEL and state.duel is not None:
        return (state.duel.shooter,)
    if state.phase == Phase.PLAY and state.turn is not None:
        turn = state.turn
        return (
            {
                Step.DRAW: turn.drawer,
                Step.ASK: turn.drawer,
                Step.CLEAR: turn.drawer,
                Step.ANSWER: turn.answerer,
                Step.FOLLOW_UP: turn.offer,
            }[turn.step],
        )
    return ()


__all__ = [
    "ENDING_TEXT", "FACE_CARDS", "MAX_NAME", "MAX_PLAYERS", "MAX_TEXT", "MIN_PLAYERS", "NUMBERED",
    "READINGS", "SUIT_ORDER", "TABLE_ORDER", "Answer", "Continue", "Discard", "Draw", "Duel",
    "Ending", "Entry", "FollowUp", "IllegalMove", "Leave", "LowerUnwanted", "Move",
    "NameCharacter", "Outcome", "Pass", "Phase", "PickArchetype", "Player", "Prompt",
    "RaiseUnwanted", "SaloonState", "Shoot", "Step", "Strike", "SwapWith", "Tell", "Turn",
    "_next_drawer", "_start_turn", "after_discard", "all_cards", "apply", "conserved",
    "lowest_card", "new_game", "proposed_keep", "public_cards", "visible_cards", "whose_move",
]  # fmt: skip
