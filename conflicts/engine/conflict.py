"""The conflict as a state machine (rulings R10–R20, R22): sizing the Deal, the Deal, the Draw,
folds, the Call, the lays, and the resolution (winner, Difficulty, narration, Stakes).

Pure and deterministic: ``apply(state, move, rng)`` returns an ``Outcome`` (the new state, the
events to log and the chip movements the caller must write to the ledger). An illegal move raises
``IllegalMove`` (``cards.errors``) with a plain-words message and changes nothing. Nothing here
knows about users, the database or chip balances: the service layer checks who may make a move
and whether a chip can be paid (the ledger refuses an overdraft), all in one transaction with the
state change.

Who sees what is decided in one place, ``visible_cards`` (R10: cards never reach anyone not
allowed to see them); the app's ``conflicts.selectors.view.conflict_view`` asks it for every
screen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from cards.deck import Card, Deck, Suit, commitment, format_cards, new_deck
from cards.errors import IllegalMove
from cards.hands import HandValue, evaluate

ATTRIBUTES = ("hand", "eye", "guts", "heart")
SUIT_ATTRIBUTE = {
    Suit.SPADES: "hand",
    Suit.DIAMONDS: "eye",
    Suit.CLUBS: "guts",
    Suit.HEARTS: "heart",
}
STUD_SIZES = (3, 5, 7)


class Phase(StrEnum):
    SIZING = "sizing"  # proposals, approvals, extra cards (R11)
    DRAW = "draw"  # cards dealt; discards and redraws, folds (R13, R19)
    LAYING = "laying"  # called: everyone picks a lay (R4)
    RESOLUTION = "resolution"  # lays revealed: narration bids, Difficulty (R8, R9, R16)
    DONE = "done"
    FOLDED = "folded"  # ended unresolved (R15, R19)
    CANCELLED = "cancelled"  # called off before the Deal: set up by mistake, nothing happened


class Kind(StrEnum):
    PC = "pc"  # a player character: its own hand, played by its player
    NPC = "npc"  # an important non-player character: its own hand, played by the Dealer (R12)
    STUD = "stud"  # the Dealer's stud hand for hazards and minor characters (R12)


@dataclass(frozen=True)
class Participant:
    pid: str
    name: str
    kind: Kind
    side: str = "players"
    # What the Deal is sized from (R11): the character's current values and Devil rating.
    currents: Mapping[str, int] = field(default_factory=dict)
    devil_rating: int = 0
    stud_size: int = 0
    winner_bonus: int = 0  # R11 house rule: won the previous hand of a continued fight
    # Sizing
    proposal: tuple[tuple[str, str], bool] | None = None  # (attributes, trait) from the player
    attributes: tuple[str, str] | None = None  # approved by the Dealer
    trait: bool = False
    devil: int = 0  # -1, 0 or +1: the Devil in play against, not at all, or for (R11)
    extra_card: bool = False  # a chip spent for an extra card (once per hand, R15)
    awards: int = 0  # Dealer awards of an extra card to this Dealer hand (R15)
    # R13: the knack for the Draw — named by the player, approved (or changed) by the Dealer
    knack: str = ""
    knack_rating: int = 0
    knack_approved: bool = False
    # Play
    hand: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()
    drew: bool = False
    extra_draw: bool = False
    folded: bool = False
    lay: tuple[Card, ...] | None = None
    lay_chosen: bool = False

    @property
    def has_own_hand(self) -> bool:
        return self.kind in (Kind.PC, Kind.NPC)

    @property
    def is_character(self) -> bool:
        return self.kind in (Kind.PC, Kind.NPC)

    @property
    def zero_attributes(self) -> tuple[str, ...]:
        """R17: chosen attributes at 0 — this conflict is the character's last."""
        if self.attributes is None:
            return ()
        return tuple(a for a in self.attributes if self.currents.get(a, 0) == 0)

    @property
    def last_stand(self) -> bool:
        """R17: this conflict is the character's last — player characters and important
        NPCs alike."""
        return bool(self.zero_attributes) and self.is_character


@dataclass(frozen=True)
class DealLine:
    label: str
    amount: int


def deal_size(p: Participant) -> tuple[int, tuple[DealLine, ...]]:
    """How many cards a hand gets, and how that was reached (R11, R12, R17)."""
    if p.kind == Kind.STUD:
        lines = [DealLine(f"{p.stud_size}-card stud", p.stud_size)]
        if p.awards:
            lines.append(DealLine("Dealer's awards: extra cards", p.awards))
        return max(0, sum(line.amount for line in lines)), tuple(lines)
    if p.attributes is None:
        return 0, ()
    lines = []
    for attribute in p.attributes:
        value = p.currents.get(attribute, 0)
        if value == 0:  # R17: the Devil rating stands in for a zero attribute
            lines.append(
                DealLine(f"{attribute.title()} is 0: Devil rating instead", p.devil_rating)
            )
        else:
            lines.append(DealLine(attribute.title(), value))
    if p.trait:
        lines.append(DealLine("Trait", 1))
    if p.devil:
        sign = "for" if p.devil > 0 else "against"
        lines.append(DealLine(f"Devil in play, {sign}", p.devil * p.devil_rating))
    if p.extra_card:
        lines.append(DealLine("Chip: extra card", 1))
    if p.awards:
        lines.append(DealLine("Dealer's awards: extra cards", p.awards))
    if p.winner_bonus:
        lines.append(DealLine("Won the last hand (house rule)", p.winner_bonus))
    return max(0, sum(line.amount for line in lines)), tuple(lines)


def recovery_stud_size(points: int) -> int:
    """R22: recovering 1–2 points is a 3-card stud, 3–4 a 5-card stud, 5+ a 7-card stud."""
    if points < 1:
        raise IllegalMove("Recovery needs at least one point to recover.")
    return 3 if points <= 2 else 5 if points <= 4 else 7


@dataclass(frozen=True)
class ChipMove:
    """A chip the caller must write to the ledger: +1 earned, -n spent."""

    pid: str
    amount: int
    reason: str


@dataclass(frozen=True)
class Owed:
    """Difficulty a beaten character takes (R9, R14)."""

    pid: str
    points: int
    attributes: tuple[str, ...]  # where the points may go
    source: str  # whose lay dealt it
    allocation: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Bid:
    pid: str
    amount: int


@dataclass(frozen=True)
class ConflictState:
    phase: Phase
    participants: tuple[Participant, ...]
    stakes: int = 0
    deck: Deck | None = None
    order: tuple[Card, ...] = ()  # the deck as shuffled, for the commitment
    salt: str = ""
    commitment: str = ""
    winner: str | None = None
    narrator: str | None = None  # holds narration now (R8, R16, R17)
    bidders: tuple[str, ...] = ()  # who may bid; empty: anyone but the Dealer (R16)
    bids: tuple[Bid, ...] = ()
    answer: int = 0  # the holder's answer to the bids (R16)
    bids_closed: bool = False
    narration_paid: int = 0
    restored: bool = False
    owed: tuple[Owed, ...] = ()
    recovery: tuple[str, int] | None = None  # (pid, points) for an R22 recovery conflict

    def participant(self, pid: str) -> Participant:
        for p in self.participants:
            if p.pid == pid:
                return p
        raise IllegalMove("That hand is not in this conflict.")

    def with_participant(self, updated: Participant) -> ConflictState:
        return replace(
            self,
            participants=tuple(updated if p.pid == updated.pid else p for p in self.participants),
        )

    @property
    def in_play(self) -> tuple[Participant, ...]:
        return tuple(p for p in self.participants if not p.folded)

    @property
    def pcs(self) -> tuple[Participant, ...]:
        return tuple(p for p in self.participants if p.kind == Kind.PC)

    def value_of(self, pid: str) -> HandValue:
        p = self.participant(pid)
        return evaluate(p.lay if p.lay is not None else p.hand)


# --- Moves ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Propose:
    pid: str
    attributes: tuple[str, str]
    trait: bool = False


@dataclass(frozen=True)
class Current:
    """R19a, R21, R29: a character's values as they are now — its attributes' current values
    and its Devil rating for the session — read by the caller when the hand is sized and dealt,
    not when the conflict was set up."""

    attributes: Mapping[str, int]
    devil_rating: int


@dataclass(frozen=True)
class Approve:
    pid: str
    attributes: tuple[str, str]
    trait: bool = False
    devil: int = 0
    current: Current | None = None  # R19a: the values now (None: as the state has them)


@dataclass(frozen=True)
class SpendExtraCard:
    pid: str


@dataclass(frozen=True)
class AwardExtraCard:
    pid: str  # a Dealer hand


@dataclass(frozen=True)
class Deal:
    salt: str
    # R19a: each character's values now, by pid; the hands are sized from these.
    current: Mapping[str, Current] = field(default_factory=dict)


@dataclass(frozen=True)
class NameKnack:
    """R13: the player names the knack their Draw plays to (its rating as on the sheet)."""

    pid: str
    name: str
    rating: int


@dataclass(frozen=True)
class ApproveKnack:
    """R13: the Dealer approves the knack named, or another of the character's knacks — also
    in advance, before the player names one, as with the Deal's attributes."""

    pid: str
    name: str
    rating: int


@dataclass(frozen=True)
class Draw:
    """Discard and draw. The discard limit comes from the knack the Dealer approved (R13)."""

    pid: str
    discards: tuple[Card, ...]
    extra_chip: bool = False


@dataclass(frozen=True)
class AwardRedraw:
    pid: str  # a Dealer hand
    card: Card


@dataclass(frozen=True)
class Fold:
    pid: str


@dataclass(frozen=True)
class DealerFold:
    pass


@dataclass(frozen=True)
class Call:
    """R13: the Dealer calls when every hand is settled (drawn or stood). ``now`` calls before
    that, explicitly: the hands that have not drawn stand pat, said in the log."""

    now: bool = False


@dataclass(frozen=True)
class ChooseLay:
    pid: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Reveal:
    pass


@dataclass(frozen=True)
class PlaceBid:
    """A narration bid, or the holder's answer (R16). ``held``: the chips the player holds as
    they make it (the caller reads the ledger; the engine knows no balances)."""

    pid: str
    amount: int
    held: int


@dataclass(frozen=True)
class WithdrawBid:
    """R16: a bid (or the holder's answer) can be taken back until the bidding closes."""

    pid: str


@dataclass(frozen=True)
class CloseBids:
    """The Dealer closes the bidding. ``held``: each bidder's chips now — a bid its bidder can
    no longer pay (chips spent elsewhere since) is passed over, said in the log, so the
    bidding can always close (R16)."""

    held: Mapping[str, int]


@dataclass(frozen=True)
class Allocate:
    pid: str
    allocation: Mapping[str, int]


@dataclass(frozen=True)
class Restore:
    pid: str
    attribute: str


@dataclass(frozen=True)
class OverrideDifficulty:
    """R14: the narrator decrees who takes Difficulty; the Dealer records it, with a reason."""

    pid: str
    source: str | None  # whose lay hurts them; None exempts them
    reason: str


@dataclass(frozen=True)
class Finish:
    pass


@dataclass(frozen=True)
class Cancel:
    """The Dealer calls off a conflict set up by mistake, before the Deal: no cards were dealt,
    nobody wins or loses, no chips change (a chip spent on an extra card or a fold in it is
    given back)."""


Move = (
    Propose | Approve | SpendExtraCard | AwardExtraCard | Deal | Draw | AwardRedraw | Fold
    | DealerFold | Call | ChooseLay | Reveal | PlaceBid | CloseBids | Allocate | Restore
    | OverrideDifficulty | Finish | WithdrawBid | NameKnack | ApproveKnack | Cancel
)  # fmt: skip


@dataclass(frozen=True)
class Outcome:
    state: ConflictState
    events: tuple[str, ...] = ()
    chips: tuple[ChipMove, ...] = ()


# --- Starting -----------------------------------------------------------------------------------


def new_conflict(
    participants: Sequence[Participant], *, stakes: int = 0, recovery: tuple[str, int] | None = None
) -> ConflictState:
    """A conflict at the sizing step. Stakes 0–3 (R18); stud hands of 3, 5 or 7 (R12)."""
    if not 0 <= stakes <= 3:
        raise IllegalMove("Stakes are 0 to 3 chips.")
    pids = [p.pid for p in participants]
    if len(set(pids)) != len(pids):
        raise IllegalMove("Each hand can take part only once.")
    if not any(p.kind == Kind.PC for p in participants):
        raise IllegalMove("A conflict needs at least one player character.")
    if len({p.side for p in participants}) < 2:
        raise IllegalMove(
            "A conflict needs at least two opposed hands, on two sides: put a hand on another "
            "side, or give the Dealer a stud hand (R12, R14)."
        )
    for p in participants:
        if p.kind == Kind.STUD and p.stud_size not in STUD_SIZES:
            raise IllegalMove("A stud hand has 3, 5 or 7 cards.")
    if recovery is not None:  # R22: the recovering character takes part, for 1+ points
        who = next((p for p in participants if p.pid == recovery[0]), None)
        if who is None or not who.is_character:
            raise IllegalMove("The character recovering must take part in the conflict.")
        size = recovery_stud_size(recovery[1])
        # R22: the stud's size follows the points; no other size is accepted.
        studs = [p.stud_size for p in participants if p.kind == Kind.STUD]
        if not studs or any(n != size for n in studs):
            points = recovery[1]
            raise IllegalMove(
                f"Recovering {points} point{'s' if points != 1 else ''} is against a "
                f"{size}-card stud (R22: 1–2 points 3 cards, 3–4 points 5, 5 or more 7)."
            )
    return ConflictState(
        phase=Phase.SIZING, participants=tuple(participants), stakes=stakes, recovery=recovery
    )


def winner_bonus_pids(previous: ConflictState, *, house_rule: bool) -> tuple[str, ...]:
    """R20 with R11's house rule: dealing again, the winner of the last hand gets an extra card
    — a player's or an NPC's hand, never the Dealer's stud (a stud's size is the Dealer's
    call, R12)."""
    if previous.phase != Phase.DONE:
        raise IllegalMove("Only a finished conflict can be dealt again.")
    winner = previous.participant(previous.winner) if previous.winner else None
    return (winner.pid,) if house_rule and winner and winner.kind != Kind.STUD else ()


# --- Applying moves -----------------------------------------------------------------------------


def apply(state: ConflictState, move: Move, rng: random.Random | None = None) -> Outcome:
    """Apply one move. Raises ``IllegalMove`` (state unchanged) when the rules refuse it."""
    handler = _HANDLERS.get(type(move))
    if handler is None:  # pragma: no cover - every Move type has a handler
        raise IllegalMove("Unknown move.")
    return handler(state, move, rng)


def _need(state: ConflictState, *phases: Phase) -> None:
    if state.phase in phases:
        return
    # Say whether the move comes too early (what must happen first) or too late (what has
    # already happened), so the message never tells a player to wait for a step that is past.
    first = min(phases, key=_PHASE_ORDER.index)
    if state.phase in _PHASE_ORDER and _PHASE_ORDER.index(state.phase) < _PHASE_ORDER.index(first):
        raise IllegalMove(_TOO_EARLY.get(first, "That cannot be done yet."))
    raise IllegalMove(_TOO_LATE.get(state.phase, "That cannot be done now."))


_PHASE_ORDER = (Phase.SIZING, Phase.DRAW, Phase.LAYING, Phase.RESOLUTION, Phase.DONE)
_TOO_EARLY = {
    Phase.DRAW: "The cards have not been dealt yet.",
    Phase.LAYING: "The Dealer has not called yet.",
    Phase.RESOLUTION: "The lays have not been shown yet.",
}
_TOO_LATE = {
    Phase.DRAW: "The cards have been dealt: the Deal is settled.",
    Phase.LAYING: "The Dealer has called: the Draw is over.",
    Phase.RESOLUTION: "The lays are on the table: the hand is over.",
    Phase.DONE: "This conflict is over.",
    Phase.FOLDED: "This conflict was folded.",
    Phase.CANCELLED: "This conflict was cancelled.",
}


def _own_hand(state: ConflictState, pid: str) -> Participant:
    p = state.participant(pid)
    if not p.has_own_hand:
        raise IllegalMove("A stud hand has no choices to make.")
    return p


def _check_attributes(attributes: tuple[str, str]) -> None:
    if len(attributes) != 2 or len(set(attributes)) != 2 or not set(attributes) <= set(ATTRIBUTES):
        raise IllegalMove("Choose two different attributes: Hand, Eye, Guts or Heart.")


def _propose(state: ConflictState, move: Propose, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING)
    p = _own_hand(state, move.pid)
    _check_attributes(move.attributes)
    state = state.with_participant(replace(p, proposal=(move.attributes, move.trait)))
    trait = " and a trait" if move.trait else ""
    return Outcome(state, (f"{p.name} proposes {' + '.join(move.attributes)}{trait}.",))


def _approve(state: ConflictState, move: Approve, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING)
    p = _own_hand(state, move.pid)
    _check_attributes(move.attributes)
    if move.devil not in (-1, 0, 1):
        raise IllegalMove("The Devil is in play for, against, or not at all.")
    p, _ = _refreshed(p, move.current)
    if move.devil and not p.devil_rating:
        raise IllegalMove(f"{p.name} has no Devil to bring into play.")
    p = replace(p, attributes=move.attributes, trait=move.trait, devil=move.devil)
    count, _ = deal_size(p)
    state = state.with_participant(p)
    return Outcome(state, (f"The Dealer sets {p.name}'s Deal at {count} cards.",))


def _refreshed(p: Participant, current: Current | None) -> tuple[Participant, str]:
    """R19a: the participant with its values as they are now, and a log line when they differ
    from what the conflict had (Difficulty taken elsewhere, a recovery, an improvement)."""
    if current is None or not p.is_character:
        return p, ""
    now = {a: int(current.attributes.get(a, 0)) for a in ATTRIBUTES}
    changes = [
        f"{a.title()} {now[a]} (was {p.currents.get(a, 0)})"
        for a in ATTRIBUTES
        if now[a] != p.currents.get(a, 0)
    ]
    if current.devil_rating != p.devil_rating:
        changes.append(f"Devil {current.devil_rating} (was {p.devil_rating})")
    p = replace(p, currents=now, devil_rating=current.devil_rating)
    if p.devil and not p.devil_rating:
        p = replace(p, devil=0)  # no Devil left to bring into play
    line = f"{p.name} is dealt as they are now: {', '.join(changes)} (R19a)." if changes else ""
    return p, line


def _extra_card(state: ConflictState, move: SpendExtraCard, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING)
    p = state.participant(move.pid)
    if p.kind != Kind.PC:
        raise IllegalMove("Only players spend chips for an extra card.")
    if p.folded:  # R19: out of the conflict; the chip would buy nothing
        raise IllegalMove(f"{p.name} has folded.")
    if p.extra_card:
        raise IllegalMove("A chip for an extra card can be spent once per hand.")
    state = state.with_participant(replace(p, extra_card=True))
    return Outcome(
        state, (f"{p.name} spends a chip for an extra card.",), (ChipMove(p.pid, -1, "extra_card"),)
    )


def _award_all(state: ConflictState, reason: str) -> tuple[ChipMove, ...]:
    return tuple(ChipMove(p.pid, 1, reason) for p in state.pcs if not p.folded)


def _award_extra(state: ConflictState, move: AwardExtraCard, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING)
    p = state.participant(move.pid)
    if p.kind == Kind.PC:
        raise IllegalMove("The Dealer's awards buy cards for the Dealer's own hands.")
    state = state.with_participant(replace(p, awards=p.awards + 1))
    return Outcome(
        state,
        (f"The Dealer awards every player a chip: {p.name} gets an extra card.",),
        _award_all(state, "dealer_award"),
    )


def _deal(state: ConflictState, move: Deal, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING)
    if rng is None:
        raise IllegalMove("Dealing needs a shuffle.")
    waiting = [p.name for p in state.in_play if p.has_own_hand and p.attributes is None]
    if waiting:
        raise IllegalMove(f"The Dealer has not set the Deal for {', '.join(waiting)} yet.")
    # R19a: the hands are sized from the values as they are at the Deal.
    refreshed = [_refreshed(p, move.current.get(p.pid)) for p in state.participants]
    state = replace(state, participants=tuple(p for p, _ in refreshed))
    read_now = [line for _, line in refreshed if line]
    deck = new_deck(rng)  # R10: every conflict starts from a fresh, complete, shuffled deck
    order = deck.stock
    # R19: a hand folded at the sizing step is out of the conflict and is not dealt.
    wanted = {p.pid: 0 if p.folded else deal_size(p)[0] for p in state.participants}
    hands: dict[str, list[Card]] = {pid: [] for pid in wanted}
    events: list[str] = []
    # Round by round, one card at a time, as at a real table. A fresh deck has no discards to
    # reshuffle, so once it is empty the Deal stops short, and the log says so once (R10).
    for round_ in range(max(wanted.values(), default=0)):
        for p in state.participants:
            if wanted[p.pid] > round_ and (deck.stock or deck.discards):
                result = deck.draw(1, rng)
                deck = result.deck
                hands[p.pid].extend(result.cards)
                events.extend(result.events)
    total, dealt = sum(wanted.values()), sum(len(h) for h in hands.values())
    if dealt < total:
        events.append(f"The deck ran out: the Deal stopped short, {dealt} of {total} cards dealt.")
    parts = tuple(replace(p, hand=tuple(hands[p.pid])) for p in state.participants)
    digest = commitment(order, move.salt)
    state = replace(
        state, phase=Phase.DRAW, participants=parts, deck=deck, order=order, salt=move.salt,
        commitment=digest,
    )  # fmt: skip
    counts = ", ".join(f"{p.name} {len(p.hand)}" for p in parts)
    return Outcome(
        state, (*read_now, f"Dealt: {counts}. Shuffle commitment {digest[:16]}…", *events)
    )


def _draw(state: ConflictState, move: Draw, rng: random.Random | None) -> Outcome:
    _need(state, Phase.DRAW)
    p = _own_hand(state, move.pid)
    if p.folded:
        raise IllegalMove(f"{p.name} has folded.")
    if p.drew:
        raise IllegalMove(f"{p.name} has already drawn this hand.")
    discards = tuple(dict.fromkeys(move.discards))
    if not set(discards) <= set(p.hand):
        raise IllegalMove("You can only discard cards from your own hand.")
    # R13: the approved knack's rating, +1 with a chip, + the Devil rating on the Road to Hell
    # (R17). A knack named but not yet approved grants nothing yet.
    knack = p.knack_rating if p.knack_approved else 0
    base = knack + (p.devil_rating if p.last_stand else 0)
    limit = base + (1 if move.extra_chip else 0)
    if len(discards) > limit:
        waiting = (
            f"; {p.knack} waits for the Dealer's approval" if p.knack and not p.knack_approved
            else ""
        )  # fmt: skip
        raise IllegalMove(
            f"You may discard at most {limit} card{'s' if limit != 1 else ''} "
            f"(knack {knack}{waiting}"
            + (", +1 for a chip" if move.extra_chip else "")
            + (f", +{p.devil_rating} Devil on the Road to Hell" if p.last_stand else "")
            + ")."
        )
    used_chip = move.extra_chip and len(discards) > base
    if used_chip and p.kind != Kind.PC:
        raise IllegalMove("Only players spend chips for an extra draw.")
    if used_chip and p.extra_draw:
        raise IllegalMove("A chip for an extra draw can be spent once per hand.")
    if rng is None:
        raise IllegalMove("Drawing may need a shuffle.")
    assert state.deck is not None
    # Discards are chosen, then all replacements are dealt at once (R13).
    deck, drawn, draw_events = _replace_cards(state.deck, discards, rng)
    kept = tuple(c for c in p.hand if c not in discards)
    p = replace(
        p, hand=kept + drawn, discarded=p.discarded + discards, drew=True,
        extra_draw=p.extra_draw or used_chip,
    )  # fmt: skip
    state = replace(state.with_participant(p), deck=deck)
    n = len(discards)
    events = [f"{p.name} discards {n} and draws {len(drawn)}." if n else f"{p.name} stands."]
    chips = (ChipMove(p.pid, -1, "extra_draw"),) if used_chip else ()
    return Outcome(state, (*events, *draw_events), chips)


def _replace_cards(
    deck: Deck, discards: tuple[Card, ...], rng: random.Random
) -> tuple[Deck, tuple[Card, ...], tuple[str, ...]]:
    """Deal replacements for ``discards``, then put the discards on the pile.

    As in draw poker, a player does not get their own discards back while other cards are
    left: if the stock runs dry, the pile that R10 reshuffles is the one from before this draw.
    Only when even that is exhausted are this draw's discards shuffled in as a last resort.
    """
    result = deck.draw(len(discards), rng)
    deck = result.deck.discard(discards)
    drawn, events = result.cards, result.events
    short = len(discards) - len(drawn)
    if short:
        more = deck.draw(short, rng)
        deck, drawn = more.deck, drawn + more.cards
        events = tuple(e for e in events if not e.startswith("The deck and the discard pile"))
        events += more.events
    return deck, drawn, events


def _check_knack(name: str, rating: int) -> str:
    name = " ".join(name.split())
    if not name:
        raise IllegalMove("Name the knack your Draw plays to.")
    if not 1 <= rating <= 4:
        raise IllegalMove("A knack is rated 1 to 4.")
    return name


def _name_knack(state: ConflictState, move: NameKnack, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING, Phase.DRAW)
    p = _own_hand(state, move.pid)
    if p.drew:
        raise IllegalMove(f"{p.name} has already drawn this hand.")
    name = _check_knack(move.name, move.rating)
    approved = p.knack_approved and p.knack == name  # the one approved in advance
    p = replace(p, knack=name, knack_rating=move.rating, knack_approved=approved)
    text = f"{p.name} names {name} ({move.rating}) for the Draw" + (
        ", as the Dealer approved." if approved else ": the Dealer decides (R13)."
    )
    return Outcome(state.with_participant(p), (text,))


def _approve_knack(state: ConflictState, move: ApproveKnack, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING, Phase.DRAW)
    p = _own_hand(state, move.pid)
    if p.drew:
        raise IllegalMove(f"{p.name} has already drawn this hand.")
    name = _check_knack(move.name, move.rating)
    changed = p.knack and p.knack != name
    text = (
        f"The Dealer changes {p.name}'s knack to {name} ({move.rating}) (R13)."
        if changed
        else f"The Dealer approves {name} ({move.rating}) for {p.name}'s Draw (R13)."
    )
    p = replace(p, knack=name, knack_rating=move.rating, knack_approved=True)
    return Outcome(state.with_participant(p), (text,))


def _award_redraw(state: ConflictState, move: AwardRedraw, rng: random.Random | None) -> Outcome:
    _need(state, Phase.DRAW)
    p = state.participant(move.pid)
    if p.kind == Kind.PC:
        raise IllegalMove("The Dealer's awards redraw cards in the Dealer's own hands.")
    if move.card not in p.hand:
        raise IllegalMove("That card is not in that hand.")
    if rng is None:
        raise IllegalMove("Drawing may need a shuffle.")
    assert state.deck is not None
    deck, drawn, draw_events = _replace_cards(state.deck, (move.card,), rng)
    kept = tuple(c for c in p.hand if c is not move.card)
    p = replace(p, hand=kept + drawn, discarded=(*p.discarded, move.card))
    state = replace(state.with_participant(p), deck=deck)
    return Outcome(
        state,
        (f"The Dealer awards every player a chip and redraws a card of {p.name}.", *draw_events),
        _award_all(state, "dealer_award"),
    )


def _fold(state: ConflictState, move: Fold, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING, Phase.DRAW)
    p = state.participant(move.pid)
    if p.kind != Kind.PC:
        raise IllegalMove("Only players fold by spending a chip; the Dealer folds the conflict.")
    if p.folded:
        raise IllegalMove(f"{p.name} has already folded.")
    state = state.with_participant(replace(p, folded=True))
    events = [f"{p.name} folds (a chip): no Difficulty, no Stakes."]
    if all(q.folded for q in state.pcs):  # R15: every player character folded
        state = replace(state, phase=Phase.FOLDED)
        events.append("Every player character folded: the conflict stays unresolved.")
    return Outcome(state, tuple(events), (ChipMove(p.pid, -1, "fold"),))


def _cancel(state: ConflictState, move: Cancel, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING)
    # No chips change: what was spent in it (an extra card, a fold) goes back.
    chips = tuple(
        ChipMove(p.pid, n, "correction")
        for p in state.pcs
        if (n := int(p.extra_card) + int(p.folded))
    )
    events = [
        "The Dealer cancels the conflict before the Deal: nothing was dealt, no chips change."
    ]
    events += [
        f"{state.participant(c.pid).name} gets back the {c.amount} chip(s) spent in it."
        for c in chips
    ]
    return Outcome(replace(state, phase=Phase.CANCELLED), tuple(events), chips)


def _dealer_fold(state: ConflictState, move: DealerFold, rng: random.Random | None) -> Outcome:
    _need(state, Phase.SIZING, Phase.DRAW)
    chips = _award_all(state, "dealer_award")
    state = replace(state, phase=Phase.FOLDED)
    return Outcome(
        state,
        ("The Dealer folds, awarding every player a chip: the conflict ends unresolved.",),
        chips,
    )


def unsettled(state: ConflictState) -> tuple[Participant, ...]:
    """R13: the hands still in play that draw (players' and important NPCs') and have not."""
    return tuple(p for p in state.in_play if p.has_own_hand and not p.drew)


def _call(state: ConflictState, move: Call, rng: random.Random | None) -> Outcome:
    _need(state, Phase.DRAW)
    waiting = unsettled(state)
    if waiting and not move.now:
        names = ", ".join(p.name for p in waiting)
        raise IllegalMove(
            f"Not every hand is settled: {names} {'has' if len(waiting) == 1 else 'have'} not "
            "drawn yet. Wait, or call now and they stand pat (R13)."
        )
    pat = tuple(f"{p.name} had not drawn: stands pat (R13)." for p in waiting)
    parts = []
    for p in state.participants:
        if p.folded:
            parts.append(p)
            continue
        best = evaluate(p.hand)
        parts.append(replace(p, lay=best.laid, drew=True))
    state = replace(state, phase=Phase.LAYING, participants=tuple(parts))
    called = "The Dealer calls now." if waiting else "The Dealer calls."
    return Outcome(state, (f"{called} Choose your lays.", *pat))


def _choose_lay(state: ConflictState, move: ChooseLay, rng: random.Random | None) -> Outcome:
    _need(state, Phase.LAYING)
    p = state.participant(move.pid)
    if p.folded:
        raise IllegalMove(f"{p.name} has folded.")
    cards = tuple(dict.fromkeys(move.cards))
    size = min(5, len(p.hand))
    if not set(cards) <= set(p.hand):
        raise IllegalMove("A lay is made from the cards in your own hand.")
    if len(cards) != size:
        raise IllegalMove(f"Lay exactly {size} card{'s' if size != 1 else ''} (R4).")
    state = state.with_participant(replace(p, lay=cards, lay_chosen=True))
    return Outcome(state, (f"{p.name} has chosen a lay.",))


def _reveal(state: ConflictState, move: Reveal, rng: random.Random | None) -> Outcome:
    _need(state, Phase.LAYING)
    players = state.in_play
    values = {p.pid: evaluate(p.lay or ()) for p in players}
    winner = max(players, key=lambda p: values[p.pid].key)
    events = [
        f"{p.name} lays {format_cards(p.lay or ())}: {values[p.pid].describe()}." for p in players
    ]
    events.append(f"{winner.name} wins.")
    # R14: beaten when some opponent's lay is better; the best opposing lay deals Difficulty.
    owed = []
    for p in players:
        opponents = [q for q in players if q.side != p.side]
        if not opponents or not p.is_character:
            continue
        best = max(opponents, key=lambda q: values[q.pid].key)
        if values[best.pid].key > values[p.pid].key:
            owed.append(_owed_from(p.pid, best.pid, values[best.pid]))
    # R8 / R17: the narrator.
    last = [p for p in players if p.last_stand]
    if last:
        holder = max(last, key=lambda p: values[p.pid].high_card_key)
        bidders = tuple(p.pid for p in last) if len(last) > 1 else ()
        closed = len(last) == 1
        events.append(f"{holder.name} is on their last stand and narrates (R17).")
    else:
        holder = max(players, key=lambda p: values[p.pid].high_card_key)
        bidders, closed = (), False
        card = values[holder.pid].high_card
        events.append(f"{holder.name} holds the high card ({card}) and the narration.")
    state = replace(
        state, phase=Phase.RESOLUTION, winner=winner.pid, narrator=holder.pid, owed=tuple(owed),
        bidders=bidders, bids_closed=closed,
    )  # fmt: skip
    return Outcome(state, tuple(events))


def _owed_from(pid: str, source: str, value: HandValue) -> Owed:
    attributes = tuple(SUIT_ATTRIBUTE[s] for s in sorted(value.difficulty_suits, reverse=True))
    return Owed(pid=pid, points=value.difficulty, attributes=attributes, source=source)


def _may_bid(state: ConflictState, pid: str) -> Participant:
    p = state.participant(pid)
    if p.kind != Kind.PC or p.folded:
        raise IllegalMove("Only players in the conflict bid for narration; the Dealer does not.")
    if state.bidders and pid not in state.bidders:
        raise IllegalMove("Only the characters on their last stand bid for this narration (R17).")
    return p


def _bid(state: ConflictState, move: PlaceBid, rng: random.Random | None) -> Outcome:
    _need(state, Phase.RESOLUTION)
    if state.bids_closed:
        raise IllegalMove("Narration is settled.")
    if move.amount < 1:
        raise IllegalMove("Bid at least one chip.")
    p = _may_bid(state, move.pid)
    if move.amount > move.held:  # R16: never more than the chips held when bidding
        raise IllegalMove(
            f"{p.name} holds {move.held} chip{'s' if move.held != 1 else ''}: "
            f"a bid of {move.amount} cannot be paid."
        )
    if move.pid == state.narrator:
        # R16: the holder answers; they keep narration by matching the highest bid.
        top = max((b.amount for b in state.bids), default=0)
        if not state.bids:
            raise IllegalMove("Nobody has bid yet: you already hold the narration.")
        if move.amount < top:
            raise IllegalMove(f"To keep the narration, match the highest bid of {top}.")
        state = replace(state, answer=move.amount)
        return Outcome(state, (f"{p.name} answers with {move.amount} chip(s).",))
    state = replace(state, bids=(*state.bids, Bid(move.pid, move.amount)))
    return Outcome(state, (f"{p.name} bids {move.amount} chip(s) for the narration.",))


def _withdraw_bid(state: ConflictState, move: WithdrawBid, rng: random.Random | None) -> Outcome:
    _need(state, Phase.RESOLUTION)
    if state.bids_closed:
        raise IllegalMove("Narration is settled: bids can no longer be withdrawn.")
    p = state.participant(move.pid)
    if move.pid == state.narrator and state.answer:
        state = replace(state, answer=0)
        return Outcome(state, (f"{p.name} withdraws their answer.",))
    if not any(b.pid == move.pid for b in state.bids):
        raise IllegalMove(f"{p.name} has no bid to withdraw.")
    state = replace(state, bids=tuple(b for b in state.bids if b.pid != move.pid))
    if not state.bids:
        state = replace(state, answer=0)  # nothing left to answer
    return Outcome(state, (f"{p.name} withdraws their bid.",))


def _close_bids(state: ConflictState, move: CloseBids, rng: random.Random | None) -> Outcome:
    _need(state, Phase.RESOLUTION)
    if state.bids_closed:
        raise IllegalMove("Narration is settled.")
    state = replace(state, bids_closed=True)
    if not state.bids:
        return Outcome(state, ("Nobody bids: the high card narrates.",))

    def can_pay(pid: str, amount: int) -> bool:
        return move.held.get(pid, 0) >= amount

    # R16: a bid its bidder can no longer pay (chips spent since) is passed over, so the
    # bidding always closes; the log says so.
    events = [
        f"{state.participant(b.pid).name} can no longer pay {b.amount} chip(s): that bid lapses."
        for b in state.bids
        if not can_pay(b.pid, b.amount)
    ]
    payable = [b for b in state.bids if can_pay(b.pid, b.amount)]
    holder = state.narrator
    answer = state.answer
    if answer and holder is not None and not can_pay(holder, answer):
        events.append(
            f"{state.participant(holder).name} can no longer pay {answer} chip(s): "
            "the answer lapses."
        )
        answer = 0
    if not payable:
        events.append("No bid stands: the high card narrates.")
        return Outcome(state, tuple(events))
    top = max(b.amount for b in payable)
    if answer >= top and holder is not None and state.participant(holder).kind == Kind.PC:
        name = state.participant(holder).name
        state = replace(state, narration_paid=answer)
        return Outcome(
            state,
            (*events, f"{name} keeps the narration for {answer} chip(s)."),
            (ChipMove(holder, -answer, "narration_bid"),),
        )
    first = next(b for b in payable if b.amount == top)  # equal bids: the earlier wins
    name = state.participant(first.pid).name
    state = replace(state, narrator=first.pid, narration_paid=top)
    return Outcome(
        state,
        (*events, f"{name} takes the narration for {top} chip(s)."),
        (ChipMove(first.pid, -top, "narration_bid"),),
    )


def _owed_index(state: ConflictState, pid: str) -> int:
    for i, o in enumerate(state.owed):
        if o.pid == pid:
            return i
    raise IllegalMove("That character takes no Difficulty in this conflict.")


def placeable(owed: Owed, currents: Mapping[str, int]) -> int:
    """R9: no attribute goes below 0; points that cannot be placed are lost."""
    return min(owed.points, sum(currents.get(a, 0) for a in owed.attributes))


def default_allocation(owed: Owed, currents: Mapping[str, int]) -> dict[str, int]:
    """A sensible default: one point at a time to the allowed attribute with the most left,
    which keeps the character off the Road to Hell as long as the points allow."""
    left = {a: currents.get(a, 0) for a in owed.attributes}
    out = dict.fromkeys(owed.attributes, 0)
    for _ in range(placeable(owed, currents)):
        target = max(owed.attributes, key=lambda a: (left[a], -ATTRIBUTES.index(a)))
        left[target] -= 1
        out[target] += 1
    return {a: n for a, n in out.items() if n}


def _allocate(state: ConflictState, move: Allocate, rng: random.Random | None) -> Outcome:
    _need(state, Phase.RESOLUTION)
    i = _owed_index(state, move.pid)
    owed = state.owed[i]
    p = state.participant(move.pid)
    if owed.allocation is not None and state.restored and state.narrator == move.pid:
        # R16: placing the points again would quietly take back the restored point.
        raise IllegalMove(f"{p.name} has restored a point: the Difficulty stands as placed.")
    allocation = {a: n for a, n in move.allocation.items() if n}
    if any(n < 0 for n in allocation.values()):
        raise IllegalMove("Difficulty points cannot be negative.")
    if not set(allocation) <= set(owed.attributes):
        allowed = ", ".join(a.title() for a in owed.attributes)
        raise IllegalMove(f"These points can only go to {allowed} (R9).")
    for a, n in allocation.items():
        if n > p.currents.get(a, 0):
            raise IllegalMove(f"{a.title()} has only {p.currents.get(a, 0)} to lose.")
    must = placeable(owed, p.currents)
    if sum(allocation.values()) != must:
        raise IllegalMove(f"Place {must} point{'s' if must != 1 else ''} of Difficulty.")
    owed_list = list(state.owed)
    owed_list[i] = replace(owed, allocation=allocation)
    state = replace(state, owed=tuple(owed_list))
    text = ", ".join(f"{a.title()} −{n}" for a, n in allocation.items()) or "nothing to lose"
    events = [f"{p.name} takes Difficulty: {text}."]
    lost = owed.points - must
    if lost:  # R9, R19a: said, never dropped silently
        where = ", ".join(f"{a.title()} {p.currents.get(a, 0)}" for a in owed.attributes)
        events.append(
            f"{lost} point{'s' if lost != 1 else ''} of Difficulty could not be placed: "
            f"nothing below 0 ({where}) (R9)."
        )
    return Outcome(state, tuple(events))


def _restore(state: ConflictState, move: Restore, rng: random.Random | None) -> Outcome:
    _need(state, Phase.RESOLUTION)
    if not state.narration_paid or state.narrator != move.pid:
        raise IllegalMove("Only a player who paid chips for the narration may restore a point.")
    if state.restored:
        raise IllegalMove("One point per conflict can be restored this way (R16).")
    i = _owed_index(state, move.pid)
    owed = state.owed[i]
    if owed.allocation is None or not owed.allocation.get(move.attribute):
        raise IllegalMove("Restore a point of an attribute that took Difficulty in this conflict.")
    allocation = dict(owed.allocation)
    allocation[move.attribute] -= 1
    owed_list = list(state.owed)
    owed_list[i] = replace(owed, allocation={a: n for a, n in allocation.items() if n})
    state = replace(state, owed=tuple(owed_list), restored=True)
    name = state.participant(move.pid).name
    return Outcome(state, (f"{name} restores a point of {move.attribute.title()}.",))


def _override(state: ConflictState, move: OverrideDifficulty, rng: random.Random | None) -> Outcome:
    _need(state, Phase.RESOLUTION)
    if not move.reason.strip():
        raise IllegalMove("Give the reason for the narrator's decree.")
    p = state.participant(move.pid)
    if not p.is_character or p.folded:
        raise IllegalMove("Only characters still in the conflict can take Difficulty.")
    owed = [o for o in state.owed if o.pid != move.pid]
    if move.source is None:
        text = f"By the narrator's decree {p.name} takes no Difficulty: {move.reason.strip()}"
    else:
        source = state.participant(move.source)
        if source.folded:  # R19: a folded hand laid nothing, so its lay hurts no one
            raise IllegalMove(f"{source.name} folded and laid no cards.")
        owed.append(_owed_from(p.pid, source.pid, evaluate(source.lay or ())))
        text = (
            f"By the narrator's decree {p.name} takes Difficulty from {source.name}'s lay: "
            f"{move.reason.strip()}"
        )
    return Outcome(replace(state, owed=tuple(owed)), (text,))


def _finish(state: ConflictState, move: Finish, rng: random.Random | None) -> Outcome:
    _need(state, Phase.RESOLUTION)
    if not state.bids_closed and state.bids:
        raise IllegalMove("Settle the narration bids first.")
    waiting = [state.participant(o.pid).name for o in state.owed if o.allocation is None]
    if waiting:
        raise IllegalMove(f"Waiting for {', '.join(waiting)} to place their Difficulty.")
    events: list[str] = []
    chips: list[ChipMove] = []
    assert state.winner is not None
    side = state.participant(state.winner).side
    if state.stakes:  # R18: every PC on the winner's side who did not fold
        for p in state.pcs:
            if p.side == side and not p.folded:
                chips.append(ChipMove(p.pid, state.stakes, "stakes"))
                events.append(f"{p.name} earns the Stakes: {state.stakes} chip(s).")
    if state.recovery and state.participant(state.recovery[0]).side == side:
        name = state.participant(state.recovery[0]).name
        events.append(f"{name} wins the recovery and restores {state.recovery[1]} point(s) (R22).")
    for p in state.participants:
        if p.last_stand and not p.folded:  # R17/R19: folding skirts the last conflict
            events.append(
                f"{p.name}'s last conflict is over: {p.name} leaves play, and the player writes "
                "the end (R17)."
            )
    events.append(f"The shuffle's salt is revealed: {state.salt}.")
    return Outcome(replace(state, phase=Phase.DONE), tuple(events), tuple(chips))


_Handler = Callable[[ConflictState, Any, random.Random | None], Outcome]
_HANDLERS: dict[type, _Handler] = {
    Propose: _propose, Approve: _approve, SpendExtraCard: _extra_card,
    AwardExtraCard: _award_extra, Deal: _deal, Draw: _draw, AwardRedraw: _award_redraw,
    Fold: _fold, DealerFold: _dealer_fold, Call: _call, ChooseLay: _choose_lay, Reveal: _reveal,
    PlaceBid: _bid, CloseBids: _close_bids, Allocate: _allocate, Restore: _restore,
    OverrideDifficulty: _override, Finish: _finish, WithdrawBid: _withdraw_bid,
    NameKnack: _name_knack, ApproveKnack: _approve_knack, Cancel: _cancel,
}  # fmt: skip


# --- Results and views --------------------------------------------------------------------------


def recovery_won(state: ConflictState) -> bool:
    """R22: a recovery conflict restores the points when the recovering character's side wins."""
    if state.recovery is None or state.winner is None or state.phase != Phase.DONE:
        return False
    return state.participant(state.recovery[0]).side == state.participant(state.winner).side


def leaving_play(state: ConflictState) -> tuple[str, ...]:
    """R17: the characters whose last conflict this was — it used an attribute at 0, and they
    did not fold out of it (R19) — who leave play the moment it ends."""
    if state.phase != Phase.DONE:
        return ()
    return tuple(p.pid for p in state.participants if p.last_stand and not p.folded)


def attribute_losses(state: ConflictState) -> dict[str, dict[str, int]]:
    """The Difficulty each character takes, as placed (after any restored point)."""
    return {o.pid: dict(o.allocation or {}) for o in state.owed}


def all_cards(state: ConflictState) -> list[Card]:
    """Every card the conflict holds: stock, discards and hands (for the conservation check)."""
    out: list[Card] = []
    if state.deck is not None:
        out += list(state.deck.stock) + list(state.deck.discards)
    for p in state.participants:
        out += list(p.hand)
    return out


def visible_cards(
    state: ConflictState, viewer: Iterable[str], *, dealer: bool, ended: bool = False
) -> set[Card]:
    """The one place that decides which cards a viewer may see (R10).

    ``viewer`` is the participants this person plays (a player: their character; the Dealer:
    everything the Dealer runs). Before the lays are revealed a player sees only their own hand
    (and their own discards); the Dealer sees every hand. From the reveal on, everyone sees every
    lay of those who did not fold — never the unlaid cards of others, folded hands or the deck.

    ``ended``: the conflict this state belongs to has ended and its salt and deck order are
    revealed (the replay of a finished conflict, issue 18): every hand and discard of ``state``
    is seen by everyone in the campaign — still never the deck's undealt cards.
    """
    mine = set(viewer)
    seen: set[Card] = set()
    for p in state.participants:
        if dealer or ended or p.pid in mine:
            seen.update(p.hand)
            seen.update(p.discarded)
        elif state.phase in (Phase.RESOLUTION, Phase.DONE) and not p.folded and p.lay:
            seen.update(p.lay)
    return seen
