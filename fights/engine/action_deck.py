"""Combat rounds on the weird-Western action deck (rulings R23–R27, R30–R31), as a state machine.

Pure and deterministic, like ``conflict.py``: ``apply(state, move, rng)`` returns an ``Outcome``
(the new ``FightState``, the public timeline lines and the secret ones); an illegal move raises
``IllegalMove`` with a plain-words message and changes nothing. ``rng`` is injected (production
passes ``cards.system_rng()``); only the moves that shuffle, roll or draw a Fate chip need it.

How a service drives a fight
----------------------------
1. ``new_fight(combatants, rng, fate_pot=...)``: a fresh shuffled 54-card deck, round 1, waiting
   for Quickness. Each ``Combatant`` has an id (``cid``) the service chooses (a character's or
   NPC's primary key, ``"extras:3"``…), a kind (PC, NPC or a group of extras sharing one line),
   its Quickness dice, its card cap (5; ``None`` or more when the Dealer lifts it, R23) and
   whether it is surprised (failed the Cognition check, R26).
2. Each round, for every combatant: ``Quickness(cid, total, bust)`` when the total is typed in from
   real dice, or ``RollQuickness(cid)`` to roll its dice with the R27 roller; from round 2 a
   surprised combatant first needs ``Guts(cid, total, bust)`` (TN 5). ``quickness_needed(state)``
   says who is still missing.
3. ``DealRound()`` (R25) deals everyone's cards at once; the countdown starts.
4. ``up(state)`` says whose card is up. Its holder sends ``Act`` (describe the action, with its
   speed, R26), ``Sleeve`` or ``Pass``; anyone may send ``Act(card=...)`` with the card up their
   sleeve or the red joker out of turn, and ``Act(interrupt=True, opposed=...)`` to interrupt the
   action of the card that is up, before it is recorded (R26, R31, R33).
5. ``EndRound()`` when the countdown is done (or the Dealer cuts it short); back to step 2.
   ``EndFight()`` ends it. At any time ``Join(combatant)`` adds a newcomer (cards from the next
   deal), ``Leave(cid)`` takes a fallen one out (its cards to the discards), ``SetCap`` lifts a
   cap (R23) and ``Abandon`` drops an extended action (R26).

The service stores ``serial.state_to_data(state)`` (checked on load: the 54 cards), writes
``Outcome.events`` as public timeline lines and ``Outcome.secrets`` as lines for the Dealer and
the players they name, and renders each viewer from ``view_for(state, viewer, dealer=...)``.

Who may send a move (the player of a PC for its own cards, the Dealer for everything) is the
service's check, as in a conflict. After every move ``all_cards(state)`` is the 54 cards, each
once. Who sees which card is decided in one place, ``visible_cards`` (R30), and ``view_for``
builds a viewer's whole picture of the fight from it; the secret timeline lines (a hand's cards,
a red joker's Fate chip) come as ``Secret`` lines naming the combatants whose players may read
them (the Dealer reads them all).

How the app reads what the rulings leave open
---------------------------------------------
- R24: the red joker goes before the black one (as R6 and R8 rank them). The black joker never
  waits in a hand (R25 discards it at once), so the order between the two only shows in
  ``in_action_order``.
- R25/R30: the red joker never comes up in the countdown; its holder plays it whenever they like
  that round (``up`` says why). Its Fate draw is a secret of its holder and the Dealer until it
  is played or the round ends; the Fate pot's counts are the Dealer's for the same reason.
- R25: a deal reshuffles the deck with the discards whenever the deck holds fewer cards than the
  next combatant needs; R35: a black joker drawn this round stays out of that reshuffle (it
  returns with the end-of-round one), so it comes up and earns a Fate draw at most once a
  round. Only when every other card is in a hand or a sleeve (lifted caps) does a combatant get
  fewer cards, and the timeline says so.
- R26/R33: an interrupt acts against the action under way: the card that is up, whose holder
  is about to act (the table hears the action, the interrupt is recorded before it). An opposed
  roll is a success when it beats the other total, a raise when it beats it by 5 or more
  (``dice.opposed``); a tie fails.
- R26: a consecutive extended action falls back to 0 when another combatant interrupts one of
  its actions, or when its holder acts otherwise or passes a card; sleeving a card does not
  break it. A simple action still uses the card it was taken on.
- R32's house rule (a PC's Fate draw adds a Dust Devils chip) is the service's: ``FateDraw``
  says who drew, when and what.

Run as a program (``python -m fights.engine.action_deck``) it reads one JSON object per line
(ops ``cards``, ``order``, ``roll``, ``round``) and writes one JSON object per line.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, BinaryIO, TextIO

from cards.deck import (
    BLACK_JOKER,
    RED_JOKER,
    Card,
    CardParseError,
    Deck,
    assert_conserved,
    format_cards,
    new_deck,
    parse_card,
    system_rng,
)
from cards.dice import DiceSpec, Opposed, TNCheck, check_tn, dice_spec, roll
from cards.errors import IllegalMove
from cards.jsonlines import serve

__all__ = [
    "DEALER",
    "DEFAULT_CAP",
    "DEFAULT_FATE_POT",
    "Abandon",
    "Act",
    "Combatant",
    "CombatantKind",
    "CombatantView",
    "DealRound",
    "EndFight",
    "EndRound",
    "Extended",
    "FateDraw",
    "FightState",
    "FightView",
    "Guts",
    "IllegalMove",
    "Join",
    "Leave",
    "Move",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Quickness",
    "RollGuts",
    "RollQuickness",
    "Secret",
    "SetCap",
    "Sleeve",
    "Speed",
    "action_rank",
    "all_cards",
    "apply",
    "cards_due",
    "cards_for",
    "in_action_order",
    "main",
    "new_fight",
    "quickness_needed",
    "rounds_fought",
    "up",
    "view_for",
    "visible_cards",
    "visible_fate_draws",
]

DEALER = "dealer"  # who a Fate draw names when the Dealer draws (R25's black joker)
DEFAULT_CAP = 5  # R23: never more than 5 cards a round without supernatural aid
# R27: the Fate pot's chips, colour and count; the Dealer sets them. The default is the classic
# weird-Western pot's proportions (most white, fewer red, few blue).
DEFAULT_FATE_POT: tuple[tuple[str, int], ...] = (("white", 10), ("red", 5), ("blue", 3))
ONE_D6 = DiceSpec(1, 6)  # a combatant's Quickness dice unless the caller says otherwise (R27)
_TOP = 1_000  # the countdown position before the first card: above every card


# --- R24: the order of the action deck -----------------------------------------------------------


def action_rank(card: Card) -> int:
    """R24: a card's place in the countdown, higher first.

    Jokers first, then A, K, … 2; equal ranks by ♠, ♥, ♦, ♣. Between the two jokers the red
    one goes first: the app reads the jokers as it does everywhere else (R6 step 5 and R8, red
    beats black). It matters little in play, since the black joker is discarded as soon as it
    is drawn (R25) and the red one may act at any time anyway, but the order is fixed, so the
    same cards always count down the same way.
    """
    if card.is_joker:
        return 100 + card.joker  # red joker (2) before black (1)
    return card.rank * 5 + card.suit  # A♠ 74 … 2♣ 11


def in_action_order(cards: Iterable[Card]) -> list[Card]:
    """R24: the cards as the countdown takes them, first to last."""
    return sorted(cards, key=action_rank, reverse=True)


# --- R23: cards per round ------------------------------------------------------------------------


def cards_for(total: int, *, bust: bool = False, cap: int | None = DEFAULT_CAP) -> int:
    """R23: 1 free card + 1 per success and raise on a TN 5 Quickness roll, at most ``cap``.

    A total of 5–9 is a success (2 cards), 10–14 a success and a raise (3: so 13 → 3), 15–19
    two raises (4: 17 → 4). Below 5, the free card alone. A bust gets no cards. ``cap`` is 5
    unless the Dealer lifts it for supernatural aid (a larger number, or ``None`` for no cap).
    """
    if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
        raise IllegalMove("The card cap is a whole number, 1 or more (5 without supernatural aid).")
    result = check_tn(total, 5, bust=bust)
    if bust:
        return 0
    count = 1 + result.successes_and_raises
    return count if cap is None else min(count, cap)


# --- The state -----------------------------------------------------------------------------------


class Phase(StrEnum):
    QUICKNESS = "quickness"  # a round is open: Quickness totals (and Guts checks) come in
    COUNTDOWN = "countdown"  # the round is dealt: the countdown runs (R31)
    OVER = "over"  # the fight has ended


class CombatantKind(StrEnum):
    PC = "pc"  # a player character: its player sees its cards
    NPC = "npc"  # a named non-player character: only the Dealer sees its cards (R30)
    EXTRAS = "extras"  # unnamed extras sharing one line ("3 Pinkertons"), run by the Dealer


class Speed(StrEnum):
    """R26: what an action costs in cards."""

    SIMPLE = "simple"  # 0 cards: no real time; the app records it on the card used for it
    SHORT = "short"  # 1 card
    EXTENDED = "extended"  # 2 or more cards, paid a card at a time, round by round


@dataclass(frozen=True)
class Extended:
    """An extended action in progress (R26): ``paid`` of ``cost`` cards so far.

    A ``consecutive`` one falls back to 0 when it is interrupted: when another combatant
    interrupts one of its actions, or its holder spends or passes a card on anything else.
    """

    text: str
    cost: int
    paid: int = 0
    consecutive: bool = False


@dataclass(frozen=True)
class Combatant:
    cid: str
    name: str
    kind: CombatantKind = CombatantKind.PC
    quickness: DiceSpec = ONE_D6
    cap: int | None = DEFAULT_CAP  # None: the Dealer lifted the cap altogether (R23)
    surprised: bool = False  # failed the Cognition check and has not yet passed Guts (R26)
    size: int = 1  # how many extras share this line (1 for a character)
    guts: DiceSpec | None = None  # R26 Guts dice when the app rolls them; None: its Quickness dice
    # This round
    total: int | None = None  # the Quickness total; None: not in yet
    bust: bool = False
    dice: tuple[tuple[int, ...], ...] = ()  # the faces, when the app rolled them (R27)
    guts_failed: bool = False  # failed this round's Guts check (R26)
    hand: tuple[Card, ...] = ()  # unplayed cards, in R24 order
    # Kept from round to round
    sleeve: Card | None = None  # the card up the sleeve (R26), at most one, never the red joker
    extended: Extended | None = None
    out: bool = False  # has left the fight (fallen, fled): no more cards, no more moves

    @property
    def is_dealers(self) -> bool:
        """NPCs and extras are the Dealer's: their cards are the Dealer's to see (R30)."""
        return self.kind != CombatantKind.PC

    @property
    def plural(self) -> bool:
        """A line of several extras ("2 Pinkertons") is spoken of in the plural."""
        return self.kind == CombatantKind.EXTRAS and self.size > 1

    def does(self, singular: str, plural: str) -> str:
        """The name and the verb that agrees with it: "Jim joins", "2 Pinkertons join"."""
        return f"{self.name} {plural if self.plural else singular}"

    @property
    def whose(self) -> str:
        """The possessive: "Jim's", "2 Deputies'"."""
        return possessive(self.name, self.plural)


def possessive(name: str, plural: bool = False, mark: str = "'") -> str:
    """The possessive: "Jim's"; a plural name ending in s takes the apostrophe alone."""
    return f"{name}{mark}" if plural and name.endswith("s") else f"{name}{mark}s"


@dataclass(frozen=True)
class Play:
    """A card on the table this round: who played it and what they did (R31)."""

    cid: str
    card: Card
    text: str = ""
    speed: Speed = Speed.SHORT
    out_of_turn: bool = False  # the card up the sleeve or the red joker, before its turn
    interrupted: str | None = None  # the combatant whose action this one interrupted (R26)
    opposed: Opposed | None = None  # the opposed roll that allowed the interrupt


@dataclass(frozen=True)
class FateDraw:
    """R27: a chip drawn from the Fate pot: who (a cid or ``DEALER``), when, which colour.

    ``chip`` is ``None`` when the pot was empty. ``cause`` is the joker that earned the draw.
    A red joker's draw stays secret (its holder and the Dealer) until the joker is played or
    the round ends, since it would tell everyone who holds the joker (R30).
    """

    who: str
    round: int
    chip: str | None
    cause: Card | None = None
    revealed: bool = True


@dataclass(frozen=True)
class FightState:
    phase: Phase
    combatants: tuple[Combatant, ...]  # in seat order: the order of the deal (R25)
    deck: Deck  # the stock (top first) and the discard pile
    round: int = 1
    position: int = _TOP  # the countdown: every card ranked at or above it has come up
    table: tuple[Play, ...] = ()  # cards played this round, in the order played
    under_way: bool = False  # the last play is still under way: it can be interrupted (R26)
    reshuffle_at_end: bool = False  # a black joker came up this round (R25)
    fate_pot: tuple[tuple[str, int], ...] = DEFAULT_FATE_POT
    fate_draws: tuple[FateDraw, ...] = ()

    def combatant(self, cid: str) -> Combatant:
        for c in self.combatants:
            if c.cid == cid:
                return c
        raise IllegalMove("That combatant is not in this fight.")

    def active(self, cid: str) -> Combatant:
        """The combatant, for a move it makes or that is made for it: not one that has left."""
        c = self.combatant(cid)
        if c.out:
            raise IllegalMove(f"{c.does('has', 'have')} left the fight.")
        return c

    def with_combatant(self, updated: Combatant) -> FightState:
        return replace(
            self,
            combatants=tuple(updated if c.cid == updated.cid else c for c in self.combatants),
        )

    @property
    def fate_chips_left(self) -> int:
        return sum(n for _, n in self.fate_pot)


@dataclass(frozen=True)
class Secret:
    """A timeline line for the Dealer and the players of ``cids`` only (R30); no cids: the
    Dealer alone."""

    cids: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Outcome:
    state: FightState
    events: tuple[str, ...] = ()  # public timeline lines
    secrets: tuple[Secret, ...] = ()


# --- Moves ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quickness:
    """A Quickness total typed in from real dice (R23, R27); ``dice`` the faces if known."""

    cid: str
    total: int
    bust: bool = False
    dice: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class RollQuickness:
    """Roll the combatant's Quickness dice with the app's roller (R27)."""

    cid: str


@dataclass(frozen=True)
class Guts:
    """A surprised combatant's TN 5 Guts check, from round 2 on (R26)."""

    cid: str
    total: int
    bust: bool = False


@dataclass(frozen=True)
class RollGuts:
    """Roll a surprised combatant's TN 5 Guts check with the app's roller (R26, R27): its Guts
    dice, or its Quickness dice when it has none (a line of extras)."""

    cid: str


@dataclass(frozen=True)
class SetCap:
    """R23: the Dealer lifts (or restores) a combatant's card cap; ``None`` lifts it entirely."""

    cid: str
    cap: int | None


@dataclass(frozen=True)
class DealRound:
    pass


@dataclass(frozen=True)
class Act:
    """Act with a card (R31, R26).

    ``card=None``: the card up, which must be the actor's. Otherwise the card up the actor's
    sleeve or the red joker, out of turn: before the current card's action, or, with
    ``interrupt=True``, interrupting the action of the card that is up (R33), which needs
    ``opposed`` (the opposed Quickness roll's outcome) unless the card is the red joker.
    ``cost`` starts an extended action (2 or more cards); while one is in progress an extended
    ``Act`` pays one more card toward it.
    """

    cid: str
    text: str = ""
    speed: Speed = Speed.SHORT
    card: Card | None = None
    cost: int = 0
    consecutive: bool = False
    interrupt: bool = False
    opposed: Opposed | None = None


@dataclass(frozen=True)
class Sleeve:
    """Put the card up the sleeve (R26): one at most, never the red joker. ``card``, when
    given, must be the card up (a form can name the card it shows)."""

    cid: str
    card: Card | None = None


@dataclass(frozen=True)
class Pass:
    """Pass on the card up: it is discarded (R31)."""

    cid: str


@dataclass(frozen=True)
class Abandon:
    """Give up the extended action in progress (R26)."""

    cid: str


@dataclass(frozen=True)
class Join:
    """A combatant joins a fight under way; it gets cards from the next deal."""

    combatant: Combatant


@dataclass(frozen=True)
class Leave:
    """A combatant leaves the fight (falls, flees): its cards and sleeve go to the discards."""

    cid: str


@dataclass(frozen=True)
class EndRound:
    pass


@dataclass(frozen=True)
class EndFight:
    pass


Move = (
    Quickness | RollQuickness | Guts | RollGuts | SetCap | DealRound | Act | Sleeve | Pass | Abandon
    | Join | Leave | EndRound | EndFight
)  # fmt: skip


# --- Starting ------------------------------------------------------------------------------------


def _check_cap(cap: object) -> None:
    if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
        raise IllegalMove("The card cap is a whole number, 1 or more (5 without supernatural aid).")


def _check_pot(pot: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    chips: dict[str, int] = {}
    for colour, count in pot:
        if not isinstance(colour, str) or not colour.strip():
            raise IllegalMove("Each Fate chip colour needs a name.")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise IllegalMove(f"The number of {colour} chips is a whole number, 0 or more.")
        name = colour.strip()
        if name in chips:
            raise IllegalMove(f"The Fate pot names {name} twice.")
        chips[name] = count
    return tuple(chips.items())


def _check_combatant(c: Combatant) -> Combatant:
    if not isinstance(c.cid, str) or not c.cid:
        raise IllegalMove("Every combatant needs an id.")
    if not c.name.strip():
        raise IllegalMove("Every combatant needs a name.")
    dice_spec(c.quickness.count, c.quickness.sides)
    _check_cap(c.cap)
    if not isinstance(c.size, int) or isinstance(c.size, bool) or c.size < 1:
        raise IllegalMove(f"{c.name} needs at least one member.")
    return replace(
        c, total=None, bust=False, dice=(), guts_failed=False, hand=(), sleeve=None, out=False
    )


def new_fight(
    combatants: Sequence[Combatant],
    rng: random.Random,
    *,
    fate_pot: Iterable[tuple[str, int]] = DEFAULT_FATE_POT,
) -> FightState:
    """A fight at round 1, waiting for Quickness, with a fresh shuffled 54-card deck."""
    if not combatants:
        raise IllegalMove("A fight needs at least one combatant.")
    cids = [c.cid for c in combatants]
    if len(set(cids)) != len(cids):
        raise IllegalMove("Each combatant can take part only once.")
    fresh = tuple(_check_combatant(c) for c in combatants)
    return FightState(
        phase=Phase.QUICKNESS,
        combatants=fresh,
        deck=new_deck(rng),
        fate_pot=_check_pot(fate_pot),
    )


# --- Reading the state ---------------------------------------------------------------------------


def all_cards(state: FightState) -> list[Card]:
    """Every card the fight holds: stock, discards, hands, sleeves and the table (54, once)."""
    out = list(state.deck.stock) + list(state.deck.discards)
    for c in state.combatants:
        out += list(c.hand)
        if c.sleeve is not None:
            out.append(c.sleeve)
    out += [p.card for p in state.table]
    return out


def up(state: FightState) -> tuple[Combatant, Card] | None:
    """R31: whose card is up in the countdown, and which; ``None`` when the countdown is done.

    The red joker never comes up: it acts at any time that round (R25), so its holder plays it
    out of turn whenever they like (``Act(card=RED_JOKER)``), and an unplayed one goes to the
    discards at the end of the round. Stopping the countdown on it would also tell the table
    who holds it (R30), since it cannot be sleeved and a passed card is shown in the discards.
    """
    if state.phase != Phase.COUNTDOWN:
        return None
    best: tuple[Combatant, Card] | None = None
    best_rank = -1
    for c in state.combatants:
        for card in c.hand:
            if card is RED_JOKER:
                continue
            rank = action_rank(card)
            if best_rank < rank < state.position:
                best, best_rank = (c, card), rank
    return best


def cards_due(state: FightState, c: Combatant) -> int:
    """How many cards the combatant is dealt this round (R23, R26); 0 before its total is in."""
    if c.out or c.surprised or c.guts_failed or c.total is None:
        return 0
    return cards_for(c.total, bust=c.bust, cap=c.cap)


def quickness_needed(state: FightState) -> tuple[Combatant, ...]:
    """Who must still roll before the deal: a Quickness total, or (surprised, from round 2) Guts."""
    if state.phase != Phase.QUICKNESS:
        return ()
    waiting = []
    for c in state.combatants:
        if c.out:
            continue
        if c.surprised and state.round == 1:
            continue  # R26: no cards in the first round, nothing to roll
        if c.guts_failed:
            continue  # R26: failed Guts this round: no cards, nothing more to roll
        if c.surprised or c.total is None:
            waiting.append(c)
    return tuple(waiting)


# --- Applying moves ------------------------------------------------------------------------------


def apply(state: FightState, move: Move, rng: random.Random | None = None) -> Outcome:
    """Apply one move. Raises ``IllegalMove`` (state unchanged) when the rules refuse it."""
    handler = _HANDLERS.get(type(move))
    if handler is None:  # pragma: no cover - every Move type has a handler
        raise IllegalMove("Unknown move.")
    return handler(state, move, rng)


def _need(state: FightState, phase: Phase) -> None:
    if state.phase == phase:
        return
    if state.phase == Phase.OVER:
        raise IllegalMove("This fight is over.")
    if phase == Phase.QUICKNESS:
        raise IllegalMove("The round is dealt: Quickness is rolled at the start of the next one.")
    raise IllegalMove("The round has not been dealt yet.")


def _whole(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise IllegalMove(f"{what} is a whole number, 0 or more.")
    return value


def _may_roll_quickness(state: FightState, c: Combatant) -> None:
    if c.surprised and state.round == 1:
        raise IllegalMove(f"{c.does('is', 'are')} surprised: no cards in the first round (R26).")
    if c.guts_failed:
        raise IllegalMove(f"{c.name} failed the Guts check: no cards this round (R26).")
    if c.surprised:
        raise IllegalMove(f"{c.does('is', 'are')} surprised: pass a TN 5 Guts check first (R26).")


def _record_quickness(
    state: FightState,
    c: Combatant,
    total: int,
    bust: bool,
    dice: tuple[tuple[int, ...], ...],
    shown: str,
) -> Outcome:
    _may_roll_quickness(state, c)
    corrected = " (corrected)" if c.total is not None else ""
    if bust:
        result = "bust: no cards this round"
    else:
        count = cards_for(total, cap=c.cap)
        result = f"{count} card{'s' if count != 1 else ''}"
    state = state.with_combatant(replace(c, total=total, bust=bust, dice=dice))
    rolls = c.does("rolls", "roll")
    return Outcome(state, (f"{rolls} {shown} for Quickness{corrected}: {result}.",))


def _quickness(state: FightState, move: Quickness, rng: random.Random | None) -> Outcome:
    _need(state, Phase.QUICKNESS)
    c = state.active(move.cid)
    total = _whole(move.total, "A Quickness total")
    try:
        dice = tuple(tuple(_whole(f, "A die's face") for f in die) for die in move.dice)
    except TypeError:
        raise IllegalMove("The dice are a list of each die's faces, like [[6, 4], [2]].") from None
    if dice:  # faces given: they must add up to what was typed
        values = [sum(die) for die in dice]
        bust = sum(1 for v in values if v == 1) * 2 > len(values)
        if max(values) != total or bust != bool(move.bust):
            raise IllegalMove("Those dice do not make that total: the highest die is the total.")
    shown = f"{total}, bust" if move.bust else str(total)
    return _record_quickness(state, c, total, bool(move.bust), dice, shown)


def _roll_quickness(state: FightState, move: RollQuickness, rng: random.Random | None) -> Outcome:
    _need(state, Phase.QUICKNESS)
    if rng is None:
        raise IllegalMove("Rolling needs dice.")
    c = state.active(move.cid)
    _may_roll_quickness(state, c)  # refuse before rolling, not after
    result = roll(c.quickness, rng)
    return _record_quickness(state, c, result.total, result.bust, result.faces, str(result))


def _may_roll_guts(state: FightState, c: Combatant) -> None:
    if not c.surprised:
        raise IllegalMove(f"{c.does('is', 'are')} not surprised: no Guts check needed.")
    if state.round == 1:
        raise IllegalMove(
            f"{c.does('is', 'are')} surprised: no cards in the first round; Guts is rolled from "
            "round 2."
        )


def _guts(state: FightState, move: Guts, rng: random.Random | None) -> Outcome:
    _need(state, Phase.QUICKNESS)
    c = state.active(move.cid)
    _may_roll_guts(state, c)
    total = _whole(move.total, "A Guts total")
    return _record_guts(state, c, check_tn(total, 5, bust=bool(move.bust)), "")


def _roll_guts(state: FightState, move: RollGuts, rng: random.Random | None) -> Outcome:
    _need(state, Phase.QUICKNESS)
    if rng is None:
        raise IllegalMove("Rolling needs dice.")
    c = state.active(move.cid)
    _may_roll_guts(state, c)  # refuse before rolling, not after
    if c.guts_failed:  # the app rolls once a round; a typed total may still correct it
        raise IllegalMove(f"{c.name} failed the Guts check: no cards this round (R26).")
    result = roll(c.guts or c.quickness, rng)
    return _record_guts(state, c, check_tn(result.total, 5, bust=result.bust), str(result))


def _record_guts(state: FightState, c: Combatant, check: TNCheck, rolled: str) -> Outcome:
    """R26: a pass deals cards from this round on; a failure, none this round. ``rolled`` is the
    app's roll as shown ("2d6: 4, 3"), or "" for a total typed in from real dice."""
    passed = check.success
    if rolled:
        rolls = c.does("rolls", "roll")
        verdict = ("passes", "pass") if passed else ("fails", "fail")
        head = f"{rolls} {rolled} for Guts and {verdict[1] if c.plural else verdict[0]}"
    else:
        head = c.does("passes", "pass") if passed else c.does("fails", "fail")
        head += " Guts"
    if passed:
        state = state.with_combatant(replace(c, surprised=False, guts_failed=False))
        return Outcome(state, (f"{head} ({check}): cards from this round on.",))
    state = state.with_combatant(replace(c, guts_failed=True))
    return Outcome(state, (f"{head} ({check}): no cards this round.",))


def _set_cap(state: FightState, move: SetCap, rng: random.Random | None) -> Outcome:
    if state.phase == Phase.OVER:
        raise IllegalMove("This fight is over.")
    c = state.active(move.cid)
    _check_cap(move.cap)
    state = state.with_combatant(replace(c, cap=move.cap))
    if move.cap is None:
        return Outcome(state, (f"The Dealer lifts {c.whose} card cap: no limit.",))
    return Outcome(state, (f"The Dealer sets {c.whose} card cap at {move.cap}.",))


def _draw_fate(
    state: FightState, who: str, cause: Card, rng: random.Random, *, revealed: bool
) -> tuple[FightState, FateDraw]:
    """R27: one chip at random from the pot, recorded with who drew it and when."""
    chips = [colour for colour, count in state.fate_pot for _ in range(count)]
    chip = rng.choice(chips) if chips else None
    pot = tuple((colour, count - (colour == chip)) for colour, count in state.fate_pot)
    draw = FateDraw(who, state.round, chip, cause, revealed)
    return replace(state, fate_pot=pot, fate_draws=(*state.fate_draws, draw)), draw


def _chip_text(draw: FateDraw) -> str:
    return f"a {draw.chip} chip" if draw.chip else "nothing: the Fate pot is empty"


def _deal_round(state: FightState, move: DealRound, rng: random.Random | None) -> Outcome:
    """R25: each combatant in seat order takes all its cards from the top; the deck and the
    discards are shuffled together first whenever the deck holds fewer cards than the next
    combatant needs. Jokers act as they are drawn."""
    _need(state, Phase.QUICKNESS)
    if rng is None:
        raise IllegalMove("Dealing needs a shuffle.")
    waiting = quickness_needed(state)
    if waiting:
        names = ", ".join(c.name for c in waiting)
        raise IllegalMove(f"Still waiting for Quickness (or a Guts check) from {names}.")
    stock, discards = list(state.deck.stock), list(state.deck.discards)
    events: list[str] = []
    secrets: list[Secret] = []
    counts: list[str] = []
    for seat in state.combatants:
        c = state.combatant(seat.cid)  # the state changes as Fate chips are drawn
        if c.out:
            continue
        due = cards_due(state, c)
        if due == 0:
            why = (
                "failed Guts" if c.guts_failed
                else "surprised" if c.surprised
                else "bust" if c.bust and c.total is not None
                else "no cards"
            )  # fmt: skip
            counts.append(f"{c.name} none ({why})")
            continue
        # R35: a black joker drawn this round waits beside the deck: it comes back only with
        # the end-of-round reshuffle, so it comes up (and earns a Fate draw) once a round.
        waiting_out = [d for d in discards if d is BLACK_JOKER and state.reshuffle_at_end]
        back = [d for d in discards if d not in waiting_out]
        if len(stock) < due and back:
            pile = stock + back
            rng.shuffle(pile)
            aside = " (the black joker waits out the round, R35)" if waiting_out else ""
            events.append(
                f"The deck holds {len(stock)} card{'s' if len(stock) != 1 else ''} and {c.name} "
                f"needs {due}: the deck and the discards ({len(pile)} cards) are shuffled "
                f"together{aside}."
            )
            stock, discards = pile, waiting_out
        taken, stock = stock[:due], stock[due:]
        if len(taken) < due:
            aside = " (the black joker waits out the round, R35)" if waiting_out else ""
            events.append(
                f"Every other card is in play{aside}: {c.name} gets {len(taken)} of {due} cards."
            )
        hand: list[Card] = []
        sleeve = c.sleeve
        for card in taken:
            if card is BLACK_JOKER:
                # R25: discarded at once with any sleeved card; the Dealer draws from the pot;
                # the whole deck is reshuffled at the end of the round.
                lost = [card] if sleeve is None else [card, sleeve]
                discards.extend(lost)
                state = replace(state, reshuffle_at_end=True)
                state, draw = _draw_fate(state, DEALER, card, rng, revealed=True)
                also = f" with the {sleeve.text} up the sleeve" if sleeve is not None else ""
                events.append(
                    f"{c.does('draws', 'draw')} the black joker: discarded at once{also}. "
                    f"The Dealer draws {_chip_text(draw)} from the Fate pot, and the deck is "
                    "reshuffled at the end of the round."
                )
                sleeve = None
            else:
                hand.append(card)
                if card is RED_JOKER:
                    state, draw = _draw_fate(state, c.cid, card, rng, revealed=False)
                    secrets.append(
                        Secret(
                            (c.cid,),
                            f"{c.does('holds', 'hold')} the red joker and draws "
                            f"{_chip_text(draw)} from the Fate pot.",
                        )
                    )
        ordered = tuple(in_action_order(hand))
        state = state.with_combatant(replace(c, hand=ordered, sleeve=sleeve))
        counts.append(f"{c.name} {len(ordered)}")
        secrets.append(Secret((c.cid,), f"Dealt to {c.name}: {format_cards(ordered) or 'none'}."))
    state = replace(
        state,
        phase=Phase.COUNTDOWN,
        deck=Deck(tuple(stock), tuple(discards)),
        position=_TOP,
        table=(),
        under_way=False,
    )
    head = f"Round {state.round} dealt: {', '.join(counts)}."
    return Outcome(state, (head, *events), tuple(secrets))


def _break_consecutive(c: Combatant) -> tuple[Combatant, str | None]:
    """R26: a consecutive extended action falls back to 0 when its run is broken."""
    ext = c.extended
    if ext is None or not ext.consecutive or ext.paid == 0:
        return c, None
    return (
        replace(c, extended=replace(ext, paid=0)),
        f"{c.whose} {ext.text or 'extended action'} falls back to 0 of {ext.cost}.",
    )


def _describe(text: str) -> str:
    return f": “{text.strip()}”" if text.strip() else ""


def _act(state: FightState, move: Act, rng: random.Random | None) -> Outcome:
    _need(state, Phase.COUNTDOWN)
    c = state.active(move.cid)
    current = up(state)
    try:
        speed = Speed(move.speed)
        opposed_given = Opposed(move.opposed) if move.opposed is not None else None
    except ValueError:
        raise IllegalMove(
            "An action is simple, short or extended; an opposed roll fails, succeeds or makes "
            "a raise."
        ) from None
    if not isinstance(move.text, str):
        raise IllegalMove("Describe the action in words.")
    in_turn = move.card is None or (
        current is not None and current[0].cid == c.cid and current[1] is move.card
    )
    if in_turn:
        if current is None:
            raise IllegalMove("The countdown is done: no card is up. End the round.")
        if current[0].cid != c.cid:
            raise IllegalMove(f"It is not {c.whose} turn: the card up is {current[0].whose}.")
        if move.interrupt:
            raise IllegalMove(
                "Interrupting is done out of turn, with the card up the sleeve or the red joker."
            )
        card = current[1]
    else:
        card = move.card  # type: ignore[assignment]
        if card is not c.sleeve and not (card is RED_JOKER and card in c.hand):
            raise IllegalMove(
                f"{c.name} can play out of turn only the card up the sleeve or the red joker."
            )
    events: list[str] = []
    interrupted: str | None = None
    opposed: Opposed | None = None
    if move.interrupt:
        # R33: an interrupt is aimed at the action under way — the card that is up — never at
        # the action recorded before it.
        if current is None:
            raise IllegalMove("There is no action under way for this to interrupt: no card is up.")
        victim = current[0]
        if victim.cid == c.cid:
            raise IllegalMove(
                f"The card up is {c.whose} own: act with it, there is nothing to interrupt."
            )
        if card is RED_JOKER:
            opposed = Opposed.RAISE  # R25: the red joker interrupts without a roll, and goes first
            how = "with the red joker (no roll needed): goes first"
        else:
            if opposed_given is None:
                raise IllegalMove(
                    "Interrupting needs the opposed Quickness roll (R26): did it fail, succeed "
                    "or make a raise?"
                )
            opposed = opposed_given
            if opposed == Opposed.FAILURE:
                raise IllegalMove(
                    f"The opposed Quickness roll failed: {c.name} cannot interrupt "
                    f"{victim.name}; the card stays up the sleeve."
                )
            how = (
                "with a raise on the opposed roll: goes first"
                if opposed == Opposed.RAISE
                else "with a success on the opposed roll: both act at once"
            )
        interrupted = victim.cid
        events.append(f"{c.does('interrupts', 'interrupt')} {victim.name} {how}.")
        broken, line = _break_consecutive(victim)
        if line is not None:
            state = state.with_combatant(broken)
            events.append(line)
        c = state.combatant(c.cid)
    # R26: the action's speed and any extended action in progress.
    ext = c.extended
    if speed == Speed.EXTENDED:
        if ext is None:
            cost = move.cost
            if not isinstance(cost, int) or isinstance(cost, bool) or cost < 2:
                raise IllegalMove("An extended action costs 2 cards or more (R26).")
            ext = Extended(move.text.strip(), cost, 0, bool(move.consecutive))
        elif move.cost and move.cost != ext.cost:
            raise IllegalMove(
                f"{c.name} is already on an extended action ({ext.paid} of {ext.cost} cards): "
                "abandon it first to start another."
            )
        ext = replace(ext, paid=ext.paid + 1)
        if ext.paid >= ext.cost:
            progress = f"completes {ext.text or 'the extended action'} ({ext.cost} cards)"
            c = replace(c, extended=None)
        else:
            progress = f"{ext.text or 'extended action'}: {ext.paid} of {ext.cost} cards"
            c = replace(c, extended=ext)
    else:
        c, line = _break_consecutive(c)
        if line is not None:
            events.append(line)
        progress = f"{speed.value} action"
    # The card leaves the hand or the sleeve for the table.
    if not in_turn and card is c.sleeve:
        c = replace(c, sleeve=None)
        source = "the card up the sleeve, "
    else:
        c = replace(c, hand=tuple(x for x in c.hand if x is not card))
        source = ""
    state = state.with_combatant(c)
    play = Play(c.cid, card, move.text.strip(), speed, not in_turn, interrupted, opposed)
    state = replace(state, table=(*state.table, play), under_way=True)
    if in_turn:
        state = replace(state, position=action_rank(card))
    when = "" if in_turn else " out of turn"
    plays = c.does("plays", "play")
    line = f"{plays} {source}{card.text}{when} ({progress}){_describe(move.text)}."
    if card is RED_JOKER:
        state, reveal = _reveal_red_draw(state, c.cid)
        line += reveal
    return Outcome(state, (*events, line))


def _reveal_red_draw(state: FightState, cid: str) -> tuple[FightState, str]:
    """The red joker is out: its Fate draw is no longer a secret (R30)."""
    text = ""
    draws = []
    for d in state.fate_draws:
        if not d.revealed and d.who == cid and d.cause is RED_JOKER:
            text = f" (it drew {_chip_text(d)} from the Fate pot)"
            d = replace(d, revealed=True)
        draws.append(d)
    return replace(state, fate_draws=tuple(draws)), text


def _holder_of_up(state: FightState, cid: str) -> tuple[Combatant, Card]:
    c = state.active(cid)
    current = up(state)
    if current is None:
        raise IllegalMove("The countdown is done: no card is up. End the round.")
    if current[0].cid != c.cid:
        raise IllegalMove(f"It is not {c.whose} turn: the card up is {current[0].whose}.")
    return current


def _sleeve(state: FightState, move: Sleeve, rng: random.Random | None) -> Outcome:
    _need(state, Phase.COUNTDOWN)
    if move.card is RED_JOKER:
        raise IllegalMove(
            "The red joker cannot go up the sleeve (R25): play it at any time this round."
        )
    c, card = _holder_of_up(state, move.cid)
    if move.card is not None and move.card is not card:
        raise IllegalMove("Only the card up can go up the sleeve, when it comes up.")
    if c.sleeve is not None:
        raise IllegalMove(
            f"{c.name} already has a card up the sleeve: only one at a time (R26). Play it, "
            "act, or pass."
        )
    c = replace(c, hand=tuple(x for x in c.hand if x is not card), sleeve=card)
    state = replace(state.with_combatant(c), position=action_rank(card), under_way=False)
    return Outcome(
        state,
        (f"{c.does('puts', 'put')} a card up the sleeve.",),
        (Secret((c.cid,), f"{c.whose} card up the sleeve: {card.text}."),),
    )


def _pass(state: FightState, move: Pass, rng: random.Random | None) -> Outcome:
    _need(state, Phase.COUNTDOWN)
    c, card = _holder_of_up(state, move.cid)
    state = replace(state, position=action_rank(card), under_way=False)
    c, line = _break_consecutive(replace(c, hand=tuple(x for x in c.hand if x is not card)))
    state = replace(state.with_combatant(c), deck=state.deck.discard((card,)))
    events = [f"{c.does('passes', 'pass')}: the {card.text} goes to the discards."]
    if line is not None:
        events.append(line)
    return Outcome(state, tuple(events))


def _abandon(state: FightState, move: Abandon, rng: random.Random | None) -> Outcome:
    if state.phase == Phase.OVER:
        raise IllegalMove("This fight is over.")
    c = state.active(move.cid)
    if c.extended is None:
        raise IllegalMove(f"{c.name} has no extended action in progress.")
    ext = c.extended
    state = state.with_combatant(replace(c, extended=None))
    return Outcome(
        state,
        (
            f"{c.does('abandons', 'abandon')} {ext.text or 'the extended action'} "
            f"({ext.paid} of {ext.cost}).",
        ),
    )


def _join(state: FightState, move: Join, rng: random.Random | None) -> Outcome:
    if state.phase == Phase.OVER:
        raise IllegalMove("This fight is over.")
    c = _check_combatant(move.combatant)
    there = next((x for x in state.combatants if x.cid == c.cid), None)
    if there is not None and not there.out:
        raise IllegalMove(f"{c.does('is', 'are')} already in this fight.")
    if there is None:
        state = replace(state, combatants=(*state.combatants, c))
        joins = c.does("joins the fight", "join the fight")
    else:  # one who left (fell, fled) comes back: as new, holding no card (they went with them)
        state = state.with_combatant(c)
        joins = c.does("is back in the fight", "are back in the fight")
    when = "this round" if state.phase == Phase.QUICKNESS else "from the next round"
    surprised = " Surprised (R26)." if c.surprised else ""
    return Outcome(state, (f"{joins}: cards {when}.{surprised}",))


def _leave(state: FightState, move: Leave, rng: random.Random | None) -> Outcome:
    c = state.active(move.cid)
    if state.phase == Phase.OVER:
        raise IllegalMove("This fight is over.")
    lost = list(c.hand) + ([c.sleeve] if c.sleeve is not None else [])
    state = state.with_combatant(
        replace(c, hand=(), sleeve=None, extended=None, total=None, bust=False, dice=(), out=True)
    )
    state = replace(state, deck=state.deck.discard(lost))
    line = c.does("leaves the fight", "leave the fight")
    if lost:
        line += f": {format_cards(lost)} go to the discards"
        if RED_JOKER in lost:
            state, reveal = _reveal_red_draw(state, c.cid)
            line += reveal
    return Outcome(state, (line + ".",))


def _end_round(state: FightState, move: EndRound, rng: random.Random | None) -> Outcome:
    """R31: unplayed cards and the table go to the discards, the sleeves stay; after a black
    joker (R25) the whole deck is reshuffled, all but the sleeves."""
    _need(state, Phase.COUNTDOWN)
    if state.reshuffle_at_end and rng is None:
        raise IllegalMove("Reshuffling needs a shuffle.")
    events = [f"Round {state.round} ends."]
    unplayed: list[Card] = []
    fresh = []
    for c in state.combatants:
        if c.hand:
            reveal = ""
            if RED_JOKER in c.hand:
                state, reveal = _reveal_red_draw(state, c.cid)
            events.append(
                f"Not played by {c.name}, to the discards: {format_cards(c.hand)}{reveal}."
            )
            unplayed += list(c.hand)
        fresh.append(replace(c, hand=(), total=None, bust=False, dice=(), guts_failed=False))
    deck = state.deck.discard(unplayed + [p.card for p in state.table])
    draws = tuple(replace(d, revealed=True) for d in state.fate_draws)
    if state.reshuffle_at_end:
        assert rng is not None
        pile = list(deck.stock) + list(deck.discards)
        rng.shuffle(pile)
        deck = Deck(tuple(pile))
        events.append(
            f"The black joker came up: the whole action deck ({len(pile)} cards) is reshuffled."
        )
    state = replace(
        state,
        phase=Phase.QUICKNESS,
        combatants=tuple(fresh),
        deck=deck,
        round=state.round + 1,
        position=_TOP,
        table=(),
        under_way=False,
        reshuffle_at_end=False,
        fate_draws=draws,
    )
    return Outcome(state, tuple(events))


def _end_fight(state: FightState, move: EndFight, rng: random.Random | None) -> Outcome:
    if state.phase == Phase.OVER:
        raise IllegalMove("This fight is already over.")
    rounds = rounds_fought(state)
    line = _fight_ends_line(state, rounds)
    cards: list[Card] = [p.card for p in state.table]
    fresh = []
    for c in state.combatants:
        cards += list(c.hand) + ([c.sleeve] if c.sleeve is not None else [])
        fresh.append(replace(c, hand=(), sleeve=None, extended=None))
    draws = tuple(replace(d, revealed=True) for d in state.fate_draws)
    state = replace(
        state,
        phase=Phase.OVER,
        round=max(rounds, 1),  # the last round dealt, not the one opened after it
        combatants=tuple(fresh),
        deck=state.deck.discard(cards),
        table=(),
        under_way=False,
        fate_draws=draws,
    )
    return Outcome(state, (line,))


def rounds_fought(state: FightState) -> int:
    """How many rounds were dealt (R31). ``round`` is the round being played: once a round ends
    it already counts the next one, which is open for Quickness but not dealt yet. A fight that
    is over keeps the last round dealt (``EndFight`` sets it back)."""
    if state.phase == Phase.QUICKNESS:
        return state.round - 1
    return state.round


ENDS_BEFORE_A_DEAL = "The fight ends in round"


def _fight_ends_line(state: FightState, rounds: int) -> str:
    """R31: the rounds dealt; a fight ended once the next round's Quickness was rolled says it
    ended in that round (the table rolled for it), before its deal."""
    if rounds == 0:
        return "The fight ends before a card is dealt."
    dealt = f"{rounds} round{'' if rounds == 1 else 's'}"
    rolled = any(c.total is not None or c.guts_failed for c in state.combatants)
    if state.phase == Phase.QUICKNESS and rolled:
        return f"{ENDS_BEFORE_A_DEAL} {state.round}'s Quickness, before its deal ({dealt} dealt)."
    return f"The fight ends after {dealt}."


_HANDLERS: dict[type, Callable[[FightState, Any, random.Random | None], Outcome]] = {
    Quickness: _quickness,
    RollQuickness: _roll_quickness,
    RollGuts: _roll_guts,
    Guts: _guts,
    SetCap: _set_cap,
    DealRound: _deal_round,
    Act: _act,
    Sleeve: _sleeve,
    Pass: _pass,
    Abandon: _abandon,
    Join: _join,
    Leave: _leave,
    EndRound: _end_round,
    EndFight: _end_fight,
}


# --- Who sees what (R30) -------------------------------------------------------------------------


def _seers(state: FightState, viewer: Iterable[str], dealer: bool) -> set[str]:
    """The combatants whose hidden cards this viewer may see: all for the Dealer; for a player
    only player characters (never an NPC's or extras' cards, whatever the caller passes)."""
    if dealer:
        return {c.cid for c in state.combatants}
    mine = set(viewer)
    return {c.cid for c in state.combatants if c.cid in mine and c.kind == CombatantKind.PC}


def visible_cards(state: FightState, viewer: Iterable[str], *, dealer: bool) -> set[Card]:
    """The one place that decides which cards a viewer may see in a fight (R30).

    ``viewer`` is the combatants this person plays. Everyone sees the cards on the table (played
    this round) and the discard pile. A combatant's unplayed cards and its card up the sleeve are
    seen by its player and the Dealer; an NPC's or extras' only by the Dealer (a player never,
    even if named in ``viewer``). To anyone else a sleeve is one face-down card and a hand only
    its count. Nobody sees the deck's order, the Dealer included.
    """
    seen: set[Card] = set(state.deck.discards)
    seen.update(p.card for p in state.table)
    who = _seers(state, viewer, dealer)
    for c in state.combatants:
        if c.cid in who:
            seen.update(c.hand)
            if c.sleeve is not None:
                seen.add(c.sleeve)
    return seen


def visible_fate_draws(
    state: FightState, viewer: Iterable[str], *, dealer: bool
) -> tuple[FateDraw, ...]:
    """R27/R30: the Fate draws a viewer may see: all for the Dealer, one's own, and every draw
    that no longer gives away a hidden card (a red joker's once it is played or the round ends)."""
    who = _seers(state, viewer, dealer)
    return tuple(d for d in state.fate_draws if dealer or d.revealed or d.who in who)


@dataclass(frozen=True)
class CombatantView:
    """One combatant as a viewer may see it. ``hand`` and ``sleeve`` are ``None`` when hidden;
    ``cards`` (the count) and ``has_sleeve`` are public (R30)."""

    cid: str
    name: str
    kind: CombatantKind
    size: int
    cards: int
    hand: tuple[Card, ...] | None
    has_sleeve: bool
    sleeve: Card | None
    total: int | None
    bust: bool
    dice: tuple[tuple[int, ...], ...]
    surprised: bool
    guts_failed: bool
    cap: int | None
    extended: Extended | None
    out: bool
    is_up: bool
    due: int  # the cards this round's total is worth (R23); 0 before the total is in


@dataclass(frozen=True)
class FightView:
    """A viewer's whole picture of the fight, every card in it checked by ``visible_cards``.

    ``running_order`` is the countdown as this viewer may see it: the cards still to come up
    that the viewer can see, in R24 order (a player: their own; the Dealer: everyone's). Others'
    unplayed cards are left out entirely, since their place in the order would tell their rank.
    The red joker never comes up (it plays at any time, see ``up``): it shows in its holder's
    hand only.
    ``up`` names whose card is up (public), ``up_card`` is the card only if visible.
    """

    phase: Phase
    round: int
    combatants: tuple[CombatantView, ...]
    up: str | None
    up_card: Card | None
    running_order: tuple[tuple[str, Card], ...]
    table: tuple[Play, ...]
    discards: tuple[Card, ...]
    deck_left: int
    reshuffle_at_end: bool
    fate_draws: tuple[FateDraw, ...]
    fate_pot: tuple[tuple[str, int], ...] | None  # the Dealer's only: it would count red jokers


def view_for(state: FightState, viewer: Iterable[str], *, dealer: bool) -> FightView:
    """What one viewer may see of the fight (R30), built only from ``visible_cards``."""
    viewer = tuple(viewer)
    seen = visible_cards(state, viewer, dealer=dealer)
    current = up(state)
    lines = []
    for c in state.combatants:
        hand_seen = all(card in seen for card in c.hand)
        sleeve_seen = c.sleeve is not None and c.sleeve in seen
        lines.append(
            CombatantView(
                cid=c.cid,
                name=c.name,
                kind=c.kind,
                size=c.size,
                cards=len(c.hand),
                hand=c.hand if hand_seen else None,
                has_sleeve=c.sleeve is not None,
                sleeve=c.sleeve if sleeve_seen else None,
                total=c.total,
                bust=c.bust,
                dice=c.dice,
                surprised=c.surprised,
                guts_failed=c.guts_failed,
                cap=c.cap,
                extended=c.extended,
                out=c.out,
                is_up=current is not None and current[0].cid == c.cid,
                due=cards_due(state, c),
            )
        )
    order = sorted(
        ((c.cid, card) for c in state.combatants for card in c.hand if card in seen),
        key=lambda pair: action_rank(pair[1]),
        reverse=True,
    )
    return FightView(
        phase=state.phase,
        round=state.round,
        combatants=tuple(lines),
        up=current[0].cid if current else None,
        up_card=current[1] if current and current[1] in seen else None,
        running_order=tuple(
            (cid, card)
            for cid, card in order
            if action_rank(card) < state.position and card is not RED_JOKER
        ),
        table=state.table,
        discards=state.deck.discards,
        deck_left=len(state.deck.stock),
        reshuffle_at_end=state.reshuffle_at_end,
        fate_draws=visible_fate_draws(state, viewer, dealer=dealer),
        fate_pot=state.fate_pot if dealer else None,
    )


# --- Command line: one JSON object per line in, one per line out, never a traceback --------------


class _BadLine(ValueError):
    pass


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _BadLine(f"{key!r} must be a whole number")
    return value


def _card_list(value: object, key: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise _BadLine(f'{key!r} must be a list of cards like "A♠" or "RJ"')
    return [parse_card(t) for t in value]


def _op_cards(data: Mapping[str, Any]) -> dict[str, Any]:
    total = _int(data, "total")
    cap = data.get("cap", DEFAULT_CAP)
    return {"cards": cards_for(total, bust=data.get("bust") is True, cap=cap)}


def _op_order(data: Mapping[str, Any]) -> dict[str, Any]:
    cards = _card_list(data.get("cards"), "cards")
    if len(set(cards)) != len(cards):
        raise _BadLine("a card appears twice")
    return {"order": [c.text for c in in_action_order(cards)]}


def _op_roll(data: Mapping[str, Any]) -> dict[str, Any]:
    spec = dice_spec(data.get("dice"), data.get("sides"))
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _BadLine("'seed' must be a whole number")
    rng = random.Random(seed) if seed is not None else system_rng()
    result = roll(spec, rng)
    return {"dice": [list(f) for f in result.faces], "total": result.total, "bust": result.bust}


def _op_round(data: Mapping[str, Any]) -> dict[str, Any]:
    stock = _card_list(data.get("deck", []), "deck")
    discards = _card_list(data.get("discards", []), "discards")
    raw_sleeves = data.get("sleeves") or {}
    if not isinstance(raw_sleeves, dict):
        raise _BadLine("'sleeves' must map names to a card or null")
    round_ = _int(data, "round", 1)
    if round_ < 1:
        raise _BadLine("'round' starts at 1")
    raw = data.get("combatants")
    if not isinstance(raw, list) or not raw:
        raise _BadLine('\'combatants\' must be a list of {"name", "total", ...}')
    combatants = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise _BadLine('each combatant needs a "name"')
        name = item["name"]
        # R26: in round 1 a surprised combatant gets none; later rounds' Guts checks are
        # settled before this op, so "surprised" there means the check was failed.
        surprised = item.get("surprised") is True
        sleeve_text = raw_sleeves.get(name)
        if sleeve_text is not None and not isinstance(sleeve_text, str):
            raise _BadLine(f"{name}'s sleeve must be a card or null")
        sleeve = parse_card(sleeve_text) if sleeve_text else None
        if sleeve is RED_JOKER:
            raise IllegalMove("The red joker cannot go up the sleeve (R25).")
        if sleeve is BLACK_JOKER:
            raise IllegalMove("The black joker is discarded as soon as it is drawn (R25).")
        cap = item.get("cap", DEFAULT_CAP)
        _check_cap(cap)
        total = _int(item, "total", 0)
        if total < 0:
            raise _BadLine("a Quickness total is 0 or more")
        combatants.append(
            Combatant(
                cid=name,
                name=name,
                cap=cap,
                surprised=surprised and round_ == 1,
                guts_failed=surprised and round_ > 1,
                total=None if surprised else total,
                bust=item.get("bust") is True,
                sleeve=sleeve,
            )
        )
    names = [c.cid for c in combatants]
    if len(set(names)) != len(names):
        raise _BadLine("each combatant's name must be different")
    unknown = sorted(set(raw_sleeves) - set(names))
    if unknown:
        raise _BadLine(f"sleeves name someone not in the fight: {', '.join(unknown)}")
    state = FightState(
        phase=Phase.QUICKNESS,
        combatants=tuple(combatants),
        deck=Deck(tuple(stock), tuple(discards)),
        round=round_,
    )
    try:
        assert_conserved(Deck(tuple(all_cards(state))))
    except AssertionError as error:
        raise _BadLine(f"deck + discards + sleeves must be the 54 cards: {error}") from None
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _BadLine("'seed' must be a whole number")
    outcome = apply(state, DealRound(), random.Random(seed) if seed is not None else system_rng())
    after = outcome.state
    order = sorted(
        ((c.name, card) for c in after.combatants for card in c.hand),
        key=lambda pair: action_rank(pair[1]),
        reverse=True,
    )
    return {
        "hands": {c.name: [x.text for x in c.hand] for c in after.combatants},
        "order": [[name, card.text] for name, card in order],
        "fate_draws": [
            "Dealer" if d.who == DEALER else after.combatant(d.who).name for d in after.fate_draws
        ],
        "sleeves": {c.name: c.sleeve.text if c.sleeve else None for c in after.combatants},
        "reshuffle_after_round": after.reshuffle_at_end,
        "reshuffled_during_deal": any("shuffled together" in e for e in outcome.events),
        "deck_left": len(after.deck.stock),
        "discards": [x.text for x in after.deck.discards],
    }


_OPS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "cards": _op_cards,
    "order": _op_order,
    "roll": _op_roll,
    "round": _op_round,
}


def _line_result(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except ValueError:
        return {"error": 'not a JSON object: write one object per line, like {"op": "cards"}'}
    if not isinstance(data, dict):
        return {"error": 'not a JSON object: write one object per line, like {"op": "cards"}'}
    op = _OPS.get(data.get("op"))  # type: ignore[arg-type]
    if op is None:
        return {"error": f"unknown op {data.get('op')!r}: use cards, order, roll or round"}
    try:
        return op(data)
    except (IllegalMove, _BadLine, CardParseError) as error:
        return {"error": str(error)}


def main(stdin: BinaryIO | TextIO | None = None, stdout: BinaryIO | TextIO | None = None) -> int:
    """The command line: one line in, one JSON object out (``jsonlines.serve``)."""
    return serve(_line_result, "could not read this line", stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())
