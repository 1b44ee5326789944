"""Test kit for the conflict state machine (conflicts/engine/conflict.py): the seed's cast, a
driver that checks the 54 cards after every move (R10), and helpers that stack the deck.

The cast comes from the seed rules (seeds/002). Zeke Munroe's ratings are the seed's own (Hand 5,
Eye 3, Guts 3, Heart 2, Devil 2); the seed gives no ratings for "Black" Jack Kerrigan, "Lucky"
Luke Johnson or Dylan "Bang" McCreedy, so theirs are made up, each a legal R28 spread of 13.

Exact cards: ``set_hands`` and ``stack`` rearrange a dealt conflict so a test can play the seed's
own hands (Black Jack's 3♥ 3♣ 7♦ 7♣ 9♦ Q♦, the rival's 5♥ 5♣ 5♦). They only move cards between
the stock and the hands, never create or drop one, and check the 54 cards are conserved. They do
not touch ``state.order``, so a rearranged conflict's shuffle commitment still describes the
original shuffle: the R10 commitment tests use untouched deals.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from cards.deck import Card, assert_conserved, parse_cards
from conflicts.engine.conflict import (
    Approve,
    Call,
    ConflictState,
    Deal,
    IllegalMove,
    Kind,
    Move,
    Outcome,
    Participant,
    Phase,
    Reveal,
    all_cards,
    apply,
    new_conflict,
)

ZEKE = "zeke"
JACK = "jack"
LUKE = "luke"
BANG = "bang"
POSSE = "posse"
RIVAL = "rival"


def zeke(**overrides: object) -> Participant:
    """Zeke Munroe, the seed's numbers: Hand 5, Eye 3, Guts 3, Heart 2; a mean drunk, Devil 2."""
    base: dict[str, object] = {
        "pid": ZEKE,
        "name": "Zeke Munroe",
        "kind": Kind.PC,
        "currents": {"hand": 5, "eye": 3, "guts": 3, "heart": 2},
        "devil_rating": 2,
    }
    return Participant(**{**base, **overrides})  # type: ignore[arg-type]


def black_jack(**overrides: object) -> Participant:
    base: dict[str, object] = {
        "pid": JACK,
        "name": '"Black" Jack Kerrigan',
        "kind": Kind.PC,
        "currents": {"hand": 4, "eye": 4, "guts": 3, "heart": 2},
        "devil_rating": 1,
    }
    return Participant(**{**base, **overrides})  # type: ignore[arg-type]


def luke(**overrides: object) -> Participant:
    base: dict[str, object] = {
        "pid": LUKE,
        "name": '"Lucky" Luke Johnson',
        "kind": Kind.PC,
        "currents": {"hand": 3, "eye": 3, "guts": 3, "heart": 4},
        "devil_rating": 3,
    }
    return Participant(**{**base, **overrides})  # type: ignore[arg-type]


def mccreedy(**overrides: object) -> Participant:
    base: dict[str, object] = {
        "pid": BANG,
        "name": 'Dylan "Bang" McCreedy',
        "kind": Kind.PC,
        "currents": {"hand": 5, "eye": 2, "guts": 4, "heart": 2},
        "devil_rating": 2,
    }
    return Participant(**{**base, **overrides})  # type: ignore[arg-type]


def stud(size: int, pid: str = POSSE, name: str = "The posse", **overrides: object) -> Participant:
    """R12: the Dealer's stud hand for hazards and minor characters."""
    base: dict[str, object] = {
        "pid": pid,
        "name": name,
        "kind": Kind.STUD,
        "side": "dealer",
        "stud_size": size,
    }
    return Participant(**{**base, **overrides})  # type: ignore[arg-type]


def rival(**overrides: object) -> Participant:
    """The rival gunslinger who shoots at Luke: an important NPC (a Devil), its own hand (R12)."""
    base: dict[str, object] = {
        "pid": RIVAL,
        "name": "The rival gunslinger",
        "kind": Kind.NPC,
        "side": "dealer",
        "currents": {"hand": 4, "eye": 3, "guts": 3, "heart": 1},
        "devil_rating": 1,
    }
    return Participant(**{**base, **overrides})  # type: ignore[arg-type]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


def holdings(state: ConflictState) -> list[tuple[Card, ...]]:
    """Every hand, as ``all_cards`` counts them (the stock and discards are in the deck)."""
    return [p.hand for p in state.participants]


def check_conserved(state: ConflictState) -> None:
    """R10: the stock, the discard pile and every hand are exactly the 54 cards, each once."""
    if state.deck is None:
        assert all(not p.hand for p in state.participants)
        return
    assert_conserved(state.deck, *holdings(state))
    assert len(all_cards(state)) == 54


def step(state: ConflictState, move: Move, seed: int | random.Random = 0) -> Outcome:
    """Apply one move and check the cards are conserved afterwards (R10)."""
    generator = seed if isinstance(seed, random.Random) else random.Random(seed)
    outcome = apply(state, move, generator)
    check_conserved(outcome.state)
    return outcome


def play(
    state: ConflictState, moves: Iterable[Move], seed: int | random.Random = 0
) -> tuple[ConflictState, list[Outcome]]:
    """Apply moves in order with one seeded rng, checking conservation after EVERY move."""
    generator = seed if isinstance(seed, random.Random) else random.Random(seed)
    outcomes = []
    for move in moves:
        outcome = step(state, move, generator)
        outcomes.append(outcome)
        state = outcome.state
    return state, outcomes


def refused(state: ConflictState, move: Move, seed: int = 0) -> str:
    """Apply a move that must be refused: return the IllegalMove's message.

    Also checks the refusal is plain (a sentence, not a repr) and changed nothing.
    """
    before = state
    snapshot = repr(state)
    try:
        apply(state, move, random.Random(seed))
    except IllegalMove as error:
        message = str(error)
    else:
        raise AssertionError(f"{move!r} was allowed in phase {state.phase}")
    assert state is before
    assert repr(state) == snapshot, "a refused move changed the state"
    assert message.lstrip('"')[:1].isupper(), message
    assert message.endswith((".", "?")), message
    for internal in ("Phase.", "Kind.", "Card(", "Traceback", "None", "pid"):
        assert internal not in message, message
    return message


def approved(
    state: ConflictState,
    settings: Mapping[str, tuple[tuple[str, str], bool, int]],
) -> ConflictState:
    """The Dealer approves each character's Deal: pid -> (attributes, trait, devil)."""
    moves = [Approve(pid, attrs, trait, devil) for pid, (attrs, trait, devil) in settings.items()]
    return play(state, moves)[0]


def dealt(
    participants: Sequence[Participant],
    settings: Mapping[str, tuple[tuple[str, str], bool, int]] | None = None,
    *,
    stakes: int = 0,
    seed: int = 1,
    salt: str = "salt",
    recovery: tuple[str, int] | None = None,
) -> ConflictState:
    """A conflict approved as given (by default every character on Hand + Eye) and dealt."""
    state = new_conflict(participants, stakes=stakes, recovery=recovery)
    if settings is None:
        settings = {p.pid: (("hand", "eye"), False, 0) for p in participants if p.has_own_hand}
    state = approved(state, settings)
    return step(state, Deal(salt), seed).state


def set_hands(state: ConflictState, hands: Mapping[str, str | Sequence[Card]]) -> ConflictState:
    """Give the named participants exactly these cards (test helper, for the seed's hands).

    Only after the Deal and before the Call. Each chosen card is taken from wherever it is, the
    stock or another hand (never the discard pile); the chosen participant's old cards go to the
    bottom of the stock; any other hand that lost a card to the choice gets the top card of the
    stock in its place, so it keeps its size. Nothing else moves, and the 54 cards are checked.
    """
    assert state.phase == Phase.DRAW
    assert state.deck is not None
    chosen = {
        pid: cards(hand) if isinstance(hand, str) else tuple(hand) for pid, hand in hands.items()
    }
    taken: set[Card] = set()
    for hand in chosen.values():
        assert not taken & set(hand), "a card chosen for two hands"
        taken |= set(hand)
    assert not taken & set(state.deck.discards), "chosen cards must not be in the discard pile"
    freed = [c for pid in chosen for c in state.participant(pid).hand if c not in taken]
    stock = [c for c in state.deck.stock if c not in taken] + freed
    parts = []
    for p in state.participants:
        if p.pid in chosen:
            parts.append(replace(p, hand=chosen[p.pid]))
            continue
        kept = [c for c in p.hand if c not in taken]
        need = len(p.hand) - len(kept)
        assert len(stock) >= need, "not enough cards left to refill a hand"
        parts.append(replace(p, hand=(*kept, *stock[:need])))
        stock = stock[need:]
    new = replace(state, participants=tuple(parts), deck=replace(state.deck, stock=tuple(stock)))
    check_conserved(new)
    return new


def stack(state: ConflictState, top: str | Sequence[Card]) -> ConflictState:
    """Put these stock cards on top of the stock, in this order (the next cards drawn)."""
    assert state.deck is not None
    wanted = cards(top) if isinstance(top, str) else tuple(top)
    assert set(wanted) <= set(state.deck.stock), "stack only cards still in the stock"
    rest = tuple(c for c in state.deck.stock if c not in wanted)
    new = replace(state, deck=replace(state.deck, stock=(*wanted, *rest)))
    check_conserved(new)
    return new


def revealed(state: ConflictState, lays: Mapping[str, str] | None = None) -> Outcome:
    """Call, choose the given lays (the rest lay their best, R4) and reveal."""
    from conflicts.engine.conflict import ChooseLay

    moves: list[Move] = [Call(now=True)]
    moves += [ChooseLay(pid, cards(text)) for pid, text in (lays or {}).items()]
    moves.append(Reveal())
    _, outcomes = play(state, moves)
    return outcomes[-1]


# Every bidder's chips, for CloseBids (R16): plenty, so no bid lapses unless a test says so.
PURSES = dict.fromkeys((ZEKE, JACK, LUKE, BANG, POSSE, RIVAL), 99)


def approved_knack(
    state: ConflictState, pid: str, rating: int, name: str = "Shootin'"
) -> ConflictState:
    """R13: the Dealer approves a knack of ``rating`` for ``pid``'s Draw (as a test's Draw of
    that many discards needs); a hand that has drawn already is left as it is."""
    from conflicts.engine.conflict import ApproveKnack

    if not rating or state.participant(pid).drew:
        return state
    return step(state, ApproveKnack(pid, name, rating)).state
