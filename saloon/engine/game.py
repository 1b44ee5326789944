"""Death Enters the Saloon (seed 000) as a state machine: set-up, turns, leaving, the endings,
and the "Unwanted" card.

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
  drawer, whoever answers and anyone who left; each asks or passes. The extra question goes to
  the player whose character filled the "***" if the round did not reach them (a player who
  was offered a follow-up and passed has had their chance).
* S4 One Unwanted card: while it is up, nothing but lowering it happens, and only the one who
  raised it lowers it.
* S5 Only a safe player (no cards) can leave the game; they then get no follow-ups.
* S6 The black joker has gone round the table when it is back with the player it was first
  drawn from AND every player still in has held it on the way (drawn straight back is no round).

``READINGS`` says the same to the players.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from conflicts.engine.cards import BLACK_JOKER, FULL_DECK, RED_JOKER, Card, Suit, format_cards

from . import tables

MIN_PLAYERS, MAX_PLAYERS = 3, 5
FACE_CARDS: tuple[Card, ...] = tuple(c for c in FULL_DECK if c.rank in (11, 12, 13))
TABLE_ORDER: tuple[Card, ...] = tuple(tables.TABLE_1)  # K♥ Doctor … J♠ Undertaker
NUMBERED: tuple[Card, ...] = tuple(c for c in FULL_DECK if c.rank in (*range(2, 11), 14))
# The seed's suit order: hearts > diamonds > clubs > spades (not R2's, which is Dust Devils').
SUIT_ORDER = {Suit.HEARTS: 4, Suit.DIAMONDS: 3, Suit.CLUBS: 2, Suit.SPADES: 1}
# The engine's readings where the seed is silent (the module docstring's S-rulings), shown to
# the table on the saloon's page.
READINGS: tuple[tuple[str, str], ...] = (
    ("S1", "A second re-deal: whoever empties their hand first in the latest deal causes it, "
     "and is the one who starts as the Doomed."),
    ("S2", "The Doomed’s hand is shuffled whenever it changes: a position says nothing about a "
     "card."),
    ("S3", "Follow-ups go one player at a time, clockwise from the drawer’s left; each asks or "
     "passes. The extra question is for the player whose character filled the “***” when the "
     "round did not reach them (passing when offered one is a choice made)."),
    ("S4", "There is one Unwanted card: while it is up nothing else happens, and the one who "
     "raised it lowers it."),
    ("S5", "Only a safe character (no cards left) can leave the game; they then get no "
     "follow-ups."),
    ("S6", "The black joker has gone round the table when it is back with the player it was "
     "first drawn from and every player still holding cards has held it on the way."),
)  # fmt: skip
MAX_TEXT = 2000
MAX_NAME = 60


class IllegalMove(ValueError):
    """The rules do not allow that move now; the message says why in plain words."""


class Phase(StrEnum):
    ARCHETYPES = "archetypes"  # the alternative rule: each player picks their face card
    DISCARD = "discard"  # numbered cards dealt: everyone discards their pairs
    SWAP = "swap"  # after a re-deal: the appointed Doomed picks whose hand to take
    PLAY = "play"
    DUEL = "duel"
    OVER = "over"


class Step(StrEnum):
    DRAW = "draw"  # the drawer picks a card from the Doomed's hand, face down
    ASK = "ask"  # a pair: the drawer asks the table-2 question
    CLEAR = "clear"  # no pair: the drawer clears their name with the table-3 cue
    ANSWER = "answer"  # a question waits for its answer
    FOLLOW_UP = "follow_up"  # a player may ask a follow-up question, or pass


class Ending(StrEnum):
    DEATH_LEAVES = "death_leaves"  # the black joker went round the table uninterrupted
    TAKEN = "taken"  # the Doomed was left with only the black joker
    SHOT = "shot"  # the duel: a shot hit
    VANISHED = "vanished"  # the duel: both shots missed


ENDING_TEXT = {
    Ending.DEATH_LEAVES: (
        "The black joker went round the table uninterrupted: Death leaves the saloon without "
        "taking anyone’s life. The player holding the black joker describes Death’s exit; each "
        "player may narrate a small vignette of how their character’s life changes."
    ),
    Ending.TAKEN: (
        "The Doomed is left with only the black joker: Death has decided. The Doomed gives a "
        "short farewell monologue and describes how Death takes them away; each other player "
        "may narrate a short vignette of how their character’s life changes."
    ),
    Ending.SHOT: (
        "The shot hits. Death just shows up, and the mortals kill each other. The Doomed gives "
        "a short farewell monologue and describes how Death takes them away. The game ends: "
        "don’t add anything else."
    ),
    Ending.VANISHED: (
        "Both shots missed: Death is no longer among them, disappeared just as they appeared. "
        "Was Death really there or was it just a dream? The game ends without anyone adding "
        "anything else."
    ),
}


@dataclass(frozen=True)
class Player:
    pid: str
    name: str  # the person at the table
    archetype: Card | None = None
    character: str = ""  # the alternative rule: a name for the character
    hand: tuple[Card, ...] = ()
    discarded: bool = False  # has discarded their initial pairs in this deal
    left: bool = False  # a safe player who left the game (S5)

    @property
    def role(self) -> str:
        """How the table calls the character: its name, or "the <archetype>"."""
        if self.character:
            return self.character
        if self.archetype is None:
            return self.name
        return "the " + tables.archetype_of(self.archetype)


@dataclass(frozen=True)
class Turn:
    drawer: str
    step: Step = Step.DRAW
    card: Card | None = None  # the card drawn, shown to everyone
    table: int = 0  # 2 (a pair: point the finger) or 3 (no pair: clear your name)
    subject_pid: str = ""  # the player whose character filled "***", if any
    subject: str = ""  # the words that filled it
    asker: str = ""  # who asked the question waiting for its answer
    answerer: str = ""  # the Doomed (table 2) or the drawer (table 3)
    asked: tuple[str, ...] = ()  # who asked a follow-up this turn
    offered: tuple[str, ...] = ()  # who was offered one in the normal round
    offer: str = ""  # whose choice it is now (ask or pass)
    extra: bool = False  # the offer now is the extra question
    final: bool = False  # the Doomed holds only the black joker: the last interaction


@dataclass(frozen=True)
class Duel:
    target: str  # the Doomed: their two cards face down
    shooter: str
    shots: int = 0


@dataclass(frozen=True)
class SaloonState:
    phase: Phase
    players: tuple[Player, ...]  # clockwise
    aside: tuple[Card, ...] = ()  # face cards not drawn, jokers before the Gaze
    discards: tuple[Card, ...] = ()
    doomed: str = ""
    red_joker: str = ""  # in front of whom
    turn: Turn | None = None
    duel: Duel | None = None
    # The black joker's uninterrupted run: who held it, from the player it was first drawn from.
    run: tuple[str, ...] = ()
    appointed: str = ""  # emptied their hand at the set-up: the first Doomed (re-deal)
    unwanted: str = ""  # who holds the Unwanted card up
    ending: Ending | None = None
    dead: str = ""
    shown: tuple[Card, ...] = ()  # every card shown to the whole table
    year: int = 0  # games continued after an ending ("a year and a day")
    deal: int = 0  # how many times the numbered cards were dealt out

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.pid == pid:
                return p
        raise IllegalMove("That player is not at this table.")

    def has(self, pid: str) -> bool:
        return any(p.pid == pid for p in self.players)

    def with_player(self, updated: Player) -> SaloonState:
        return replace(
            self, players=tuple(updated if p.pid == updated.pid else p for p in self.players)
        )

    def seat(self, pid: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.pid == pid)

    def clockwise_from(self, pid: str) -> tuple[Player, ...]:
        """Everyone else, starting from the player on ``pid``'s left."""
        i = self.seat(pid)
        return self.players[i + 1 :] + self.players[:i]

    def in_game(self) -> tuple[Player, ...]:
        """Players still holding cards (the others are safe)."""
        return tuple(p for p in self.players if p.hand)

    def is_safe(self, pid: str) -> bool:
        return self.phase in (Phase.PLAY, Phase.DUEL, Phase.OVER) and not self.player(pid).hand


# --- Moves ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PickArchetype:
    pid: str
    card: Card


@dataclass(frozen=True)
class NameCharacter:
    pid: str
    name: str


@dataclass(frozen=True)
class Discard:
    """Discard the initial pairs; ``keep`` chooses the card kept of a three of a kind (the
    proposal, ``proposed_keep``, is the highest suit)."""

    pid: str
    keep: tuple[Card, ...] = ()


@dataclass(frozen=True)
class SwapWith:
    pid: str
    other: str


@dataclass(frozen=True)
class Draw:
    pid: str
    position: int  # in the Doomed's hand as the backs are laid out, from 0


@dataclass(frozen=True)
class Prompt:
    """The drawer's table-2 question or table-3 cue, "***" filled with a player's character
    (``subject_pid``) or a secondary character (``subject``)."""

    pid: str
    subject_pid: str = ""
    subject: str = ""
    text: str = ""


@dataclass(frozen=True)
class Answer:
    pid: str
    text: str = ""


@dataclass(frozen=True)
class FollowUp:
    pid: str
    text: str = ""


@dataclass(frozen=True)
class Pass:
    pid: str


@dataclass(frozen=True)
class Shoot:
    pid: str
    position: int


@dataclass(frozen=True)
class Tell:
    """A description, a vignette, a farewell: story, no rule."""

    pid: str
    text: str


@dataclass(frozen=True)
class Leave:
    pid: str


@dataclass(frozen=True)
class RaiseUnwanted:
    pid: str


@dataclass(frozen=True)
class LowerUnwanted:
    pid: str


@dataclass(frozen=True)
class Continue:
    """After an ending: play on ("a year and a day"); the one taken by Death gets a new
    archetype (``card``, or a random one)."""

    pid: str
    card: Card | None = None


Move = (
    PickArchetype | NameCharacter | Discard | SwapWith | Draw | Prompt | Answer | FollowUp | Pass
    | Shoot | Tell | Leave | RaiseUnwanted | LowerUnwanted | Continue
)  # fmt: skip


@dataclass(frozen=True)
class Entry:
    """A timeline line. ``kind``: "rule" (what happened), "question", "cue", "answer",
    "follow_up", "tell". ``said``: the words typed, if any. Public: never a hidden card."""

    kind: str
    text: str
    pid: str = ""
    said: str = ""


@dataclass(frozen=True)
class Outcome:
    state: SaloonState
    entries: tuple[Entry, ...] = ()


# --- Set-up --------------------------------------------------------------------------------


def new_game(
    seats: Sequence[tuple[str, str]], rng: random.Random, *, pick: bool = False
) -> Outcome:
    """A game for 3–5 players, ``seats`` clockwise as (pid, name). Face cards are shuffled and
    each player draws one (or, by the alternative rule, ``pick``s one); then the numbered cards
    are dealt out."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise IllegalMove("Death Enters the Saloon is for 3 to 5 players.")
    pids = [pid for pid, _ in seats]
    if len(set(pids)) != len(pids) or not all(pids):
        raise IllegalMove("Each player sits at the table once.")
    faces = list(FACE_CARDS)
    rng.shuffle(faces)
    players = [Player(pid, name) for pid, name in seats]
    entries: list[Entry] = []
    if not pick:
        players = [replace(p, archetype=faces[i]) for i, p in enumerate(players)]
        faces = faces[len(players) :]
        entries += [
            Entry("rule", f"{p.name} draws {p.archetype}: {p.role.removeprefix('the ')}.", p.pid)
            for p in players
        ]
    state = SaloonState(
        phase=Phase.ARCHETYPES,
        players=tuple(players),
        aside=(*faces, *NUMBERED, BLACK_JOKER, RED_JOKER),
    )
    if pick:
        entries.append(Entry("rule", "Each player picks the archetype they wish to play."))
        return Outcome(state, tuple(entries))
    dealt = _deal(state, rng)
    return Outcome(dealt.state, (*entries, *dealt.entries))


def _deal(state: SaloonState, rng: random.Random) -> Outcome:
    """Hand out every numbered card (A, 10…2), from the first seat round: someone may get an
    extra card. Everyone then discards their pairs."""
    cards = [c for c in state.aside if c in NUMBERED]
    cards += [c for c in state.discards if c in NUMBERED]
    for p in state.players:
        cards += [c for c in p.hand if c in NUMBERED]
    cards.sort(key=lambda c: c.index)
    rng.shuffle(cards)
    n = len(state.players)
    players = tuple(
        replace(p, hand=tuple(cards[i::n]), discarded=False) for i, p in enumerate(state.players)
    )
    aside = tuple(c for c in state.aside if c not in NUMBERED)
    jokers = tuple(c for c in (BLACK_JOKER, RED_JOKER) if c not in aside)
    dealt = replace(
        state,
        phase=Phase.DISCARD,
        players=players,
        aside=aside + jokers,
        discards=(),
        doomed="",
        red_joker="",
        turn=None,
        duel=None,
        run=(),
        shown=(),
        deal=state.deal + 1,
    )
    sizes = ", ".join(f"{p.name} {len(p.hand)}" for p in players)
    return Outcome(
        dealt,
        (Entry("rule", f"The numbered cards are dealt out ({sizes}): discard your pairs."),),
    )


def proposed_keep(hand: Sequence[Card]) -> tuple[Card, ...]:
    """Of each three of a kind, the card the seed recommends keeping: the highest suit
    (hearts > diamonds > clubs > spades)."""
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    return tuple(
        max(group, key=lambda c: SUIT_ORDER[Suit(c.suit)])
        for _, group in sorted(by_rank.items())
        if len(group) == 3
    )


def after_discard(hand: Sequence[Card], keep: Sequence[Card] = ()) -> tuple[Card, ...]:
    """The hand once its pairs are discarded: a pair goes, a three of a kind keeps one card
    (``keep``'s, or the proposal), four of a kind is two pairs."""
    counts = Counter(c.rank for c in hand)
    keeping = {c.rank: c for c in proposed_keep(hand)}
    for c in keep:
        if c not in hand:
            raise IllegalMove(f"You do not hold the {c}.")
        if counts[c.rank] != 3:
            raise IllegalMove(f"The {c} is not part of a three of a kind: it is no choice to make.")
        keeping[c.rank] = c
    if len({c.rank for c in keep}) != len(keep):
        raise IllegalMove("Keep one card of each three of a kind.")
    return tuple(
        c for c in hand if counts[c.rank] == 1 or (counts[c.rank] == 3 and keeping[c.rank] is c)
    )


def lowest_card(hand: Sequence[Card]) -> Card:
    """The lowest card by the seed's order: A > 10 > … > 2, then hearts > diamonds > clubs >
    spades."""
    return min(hand, key=lambda c: (c.rank, SUIT_ORDER[Suit(c.suit)]))


def _discard(state: SaloonState, move: Discard, rng: random.Random) -> Outcome:
    _need(state, Phase.DISCARD)
    p = state.player(move.pid)
    if p.discarded:
        raise IllegalMove("You have already discarded your pairs.")
    kept = after_discard(p.hand, move.keep)
    gone = tuple(c for c in p.hand if c not in kept)
    state = replace(state, discards=state.discards + gone).with_player(
        replace(p, hand=kept, discarded=True)
    )
    what = f"discards {format_cards(gone)}" if gone else "has no pair to discard"
    entries = [Entry("rule", f"{p.name} {what}: {len(kept)} cards left.", p.pid)]
    if not kept:
        # Not named: they are dealt again at once, and may be anyone's hidden cards then.
        entries = [Entry("rule", f"{p.name} discards all {len(gone)} cards.", p.pid)]
        # The seed: whoever must discard every card causes a new deal and starts as the Doomed.
        entries.append(
            Entry(
                "rule",
                f"{p.name} discarded every card: all cards are withdrawn and dealt again, and "
                f"{p.role} will start the game as the Doomed.",
                p.pid,
            )
        )
        redealt = _deal(replace(state, appointed=p.pid), rng)
        return Outcome(redealt.state, (*entries, *redealt.entries))
    if all(q.discarded for q in state.players):
        gazed = _choose_doomed(state, rng)
        return Outcome(gazed.state, (*entries, *gazed.entries))
    return Outcome(state, tuple(entries))


def _choose_doomed(state: SaloonState, rng: random.Random) -> Outcome:
    """The Gaze of Death: the most cards; ties by the lowest card shown, then the lowest suit.
    After a re-deal the appointed player takes the hand with the most cards."""
    top = max(len(p.hand) for p in state.players)
    most = [p for p in state.players if len(p.hand) == top]
    if state.appointed:
        appointed = state.player(state.appointed)
        if len(appointed.hand) == top:
            return _gaze(state, appointed.pid, rng)
        if len(most) == 1:
            swapped = _swap(state, appointed.pid, most[0].pid)
            gazed = _gaze(swapped.state, appointed.pid, rng)
            return Outcome(gazed.state, swapped.entries + gazed.entries)
        names = " or ".join(p.name for p in most)
        return Outcome(
            replace(state, phase=Phase.SWAP),
            (Entry("rule", f"{appointed.name} chooses whose hand to take: {names}."),),
        )
    if len(most) == 1:
        return _gaze(state, most[0].pid, rng)
    lows = [(p, lowest_card(p.hand)) for p in most]
    shown = tuple(c for _, c in lows)
    doomed = min(lows, key=lambda pc: (pc[1].rank, SUIT_ORDER[Suit(pc[1].suit)]))[0]
    said = ", ".join(f"{p.name} {c}" for p, c in lows)
    entry = Entry("rule", f"Tied with {top} cards, each shows their lowest card: {said}.")
    gazed = _gaze(replace(state, shown=state.shown + shown), doomed.pid, rng)
    return Outcome(gazed.state, (entry, *gazed.entries))


def _swap(state: SaloonState, a: str, b: str) -> Outcome:
    pa, pb = state.player(a), state.player(b)
    state = state.with_player(replace(pa, hand=pb.hand)).with_player(replace(pb, hand=pa.hand))
    return Outcome(state, (Entry("rule", f"{pa.name} and {pb.name} exchange hands.", a),))


def _swap_with(state: SaloonState, move: SwapWith, rng: random.Random) -> Outcome:
    _need(state, Phase.SWAP)
    if move.pid != state.appointed:
        raise IllegalMove(f"{state.player(state.appointed).name} chooses whose hand to take.")
    top = max(len(p.hand) for p in state.players)
    if not state.has(move.other) or len(state.player(move.other).hand) != top:
        raise IllegalMove(f"Take the hand of a player with the most cards ({top}).")
    swapped = _swap(state, move.pid, move.other)
    gazed = _gaze(swapped.state, move.pid, rng)
    return Outcome(gazed.state, swapped.entries + gazed.entries)


def _gaze(state: SaloonState, pid: str, rng: random.Random) -> Outcome:
    p = state.player(pid)
    hand = [*p.hand, BLACK_JOKER]
    rng.shuffle(hand)  # S2
    state = replace(
        state,
        aside=tuple(c for c in state.aside if c not in (BLACK_JOKER, RED_JOKER)),
        doomed=pid,
        red_joker=pid,
        appointed="",
        phase=Phase.PLAY,
    ).with_player(replace(p, hand=tuple(hand)))
    entries = [
        Entry(
            "rule",
            f"{p.name} adds the black joker to their hand and places the red joker in front of "
            f"them: {p.role} is the Doomed. “{tables.RITUAL}”",
            pid,
        )
    ]
    started = _start_turn(state, _next_drawer(state, pid))
    return Outcome(started.state, (*entries, *started.entries))


def _pick_archetype(state: SaloonState, move: PickArchetype, rng: random.Random) -> Outcome:
    _need(state, Phase.ARCHETYPES)
    p = state.player(move.pid)
    if p.archetype is not None:
        raise IllegalMove("You already have your archetype.")
    if move.card not in FACE_CARDS:
        raise IllegalMove("An archetype is a face card: a king, a queen or a jack.")
    if move.card not in state.aside:
        raise IllegalMove(f"{tables.archetype_of(move.card)} is taken: pick another.")
    p = replace(p, archetype=move.card)
    state = replace(state, aside=tuple(c for c in state.aside if c != move.card)).with_player(p)
    entries = [Entry("rule", f"{p.name} picks {move.card}: {p.role.removeprefix('the ')}.", p.pid)]
    if all(q.archetype is not None for q in state.players):
        dealt = _deal(state, rng)
        return Outcome(dealt.state, (*entries, *dealt.entries))
    return Outcome(state, tuple(entries))


def _name(state: SaloonState, move: NameCharacter, rng: random.Random) -> Outcome:
    p = state.player(move.pid)
    name = " ".join(move.name.split())[:MAX_NAME]
    if name == p.character:
        raise IllegalMove("That is already your character’s name.")
    before = p.role
    p = replace(p, character=name)
    text = f"{before} is called {name}." if name else f"{before} goes by {p.role} again."
    return Outcome(state.with_player(p), (Entry("rule", text[0].upper() + text[1:], p.pid),))


# --- Turns ---------------------------------------------------------------------------------


def _next_drawer(state: SaloonState, after: str) -> str:
    """The next player clockwise from ``after`` who still holds cards, not the Doomed (with
    only one such player left, ``after`` draws again)."""
    for p in (*state.clockwise_from(after), state.player(after)):
        if p.hand and p.pid != state.doomed:
            return p.pid
    raise AssertionError("nobody left to draw")  # the endings come first (see _end_turn)


def _duel_due(state: SaloonState) -> bool:
    """The third ending: two players still in, three cards between them."""
    left = state.in_game()
    return len(left) == 2 and sum(len(p.hand) for p in left) == 3


def _start_turn(state: SaloonState, drawer: str) -> Outcome:
    if _duel_due(state):
        other = next(p for p in state.in_game() if p.pid != state.doomed)
        doomed = state.player(state.doomed)
        state = replace(
            state, phase=Phase.DUEL, turn=None, duel=Duel(target=doomed.pid, shooter=other.pid)
        )
        return Outcome(
            state,
            (
                Entry(
                    "rule",
                    f"Only {doomed.role} and {other.role} are still in, with three cards between "
                    f"them: they come out of the saloon to a gun duel. {doomed.name} lays their "
                    f"two cards face down; {other.name} shoots first.",
                ),
            ),
        )
    return Outcome(replace(state, turn=Turn(drawer=drawer)), ())


def _turn(state: SaloonState, step: Step) -> Turn:
    _need(state, Phase.PLAY)
    turn = state.turn
    assert turn is not None
    if turn.step != step:
        raise IllegalMove(_WAITING[turn.step](state, turn))
    return turn


_WAITING: dict[Step, Callable[[SaloonState, Turn], str]] = {
    Step.DRAW: lambda s, t: f"It is {s.player(t.drawer).name}’s turn to draw from the Doomed.",
    Step.ASK: lambda s, t: f"Waiting for {s.player(t.drawer).name} to point the finger.",
    Step.CLEAR: lambda s, t: f"Waiting for {s.player(t.drawer).name} to clear their name.",
    Step.ANSWER: lambda s, t: f"Waiting for {s.player(t.answerer).name} to answer.",
    Step.FOLLOW_UP: lambda s, t: (
        f"It is {s.player(t.offer).name}’s turn to ask a follow-up question or pass."
    ),
}


def _draw(state: SaloonState, move: Draw, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.DRAW)
    if move.pid != turn.drawer:
        raise IllegalMove(_WAITING[Step.DRAW](state, turn))
    doomed = state.player(state.doomed)
    drawer = state.player(move.pid)
    if not 0 <= move.position < len(doomed.hand):
        raise IllegalMove(
            f"There is no card there: the Doomed holds {len(doomed.hand)} cards "
            f"(positions 1 to {len(doomed.hand)})."
        )
    card = doomed.hand[move.position]
    rest = doomed.hand[: move.position] + doomed.hand[move.position + 1 :]
    if card == BLACK_JOKER:
        return _black_joker(state, drawer, doomed, rest, rng)
    remaining = list(rest)
    rng.shuffle(remaining)  # S2
    state = replace(state, shown=(*state.shown, card), run=()).with_player(
        replace(doomed, hand=tuple(remaining))
    )
    match = next((c for c in drawer.hand if c.rank == card.rank), None)
    final = tuple(remaining) == (BLACK_JOKER,)
    if match is not None:
        drawer = replace(drawer, hand=tuple(c for c in drawer.hand if c != match))
        state = replace(state, discards=(*state.discards, match, card)).with_player(drawer)
        turn = replace(turn, step=Step.ASK, card=card, table=2, final=final)
        text = (
            f"{drawer.name} draws the {card} from {doomed.name}: it pairs with their {match}. "
            f"They discard the pair and point the finger at the Doomed."
        )
    else:
        drawer = replace(drawer, hand=(*drawer.hand, card))
        state = state.with_player(drawer)
        turn = replace(turn, step=Step.CLEAR, card=card, table=3, final=final)
        text = (
            f"{drawer.name} draws the {card} from {doomed.name}: no pair. They keep it and clear "
            f"their name in the eyes of Death."
        )
    entries = [Entry("rule", text, drawer.pid)]
    if not drawer.hand:
        entries.append(
            Entry(
                "rule",
                f"{drawer.name} has no cards left: {drawer.role} escapes Death and is safe "
                "(no more draws; follow-up questions still welcome).",
                drawer.pid,
            )
        )
    if final:
        entries.append(
            Entry(
                "rule",
                f"{doomed.name} is left with only the black joker: Death has decided. The last "
                "interaction is played normally.",
                doomed.pid,
            )
        )
    return Outcome(replace(state, turn=turn), tuple(entries))


def _black_joker(
    state: SaloonState, drawer: Player, doomed: Player, rest: tuple[Card, ...], rng: random.Random
) -> Outcome:
    hand = [*drawer.hand, BLACK_JOKER]
    rng.shuffle(hand)  # S2
    run = (*(state.run or (doomed.pid,)), drawer.pid)
    state = (
        replace(state, doomed=drawer.pid, red_joker=drawer.pid, run=run)
        .with_player(replace(doomed, hand=rest))
        .with_player(replace(drawer, hand=tuple(hand)))
    )
    entries = [
        Entry(
            "rule",
            f"{drawer.name} draws the black joker: {drawer.role} is the new Doomed, and the red "
            f"joker moves in front of them. {doomed.name} says: “{tables.RITUAL}”",
            drawer.pid,
        )
    ]
    # The first ending: back to the player it was first drawn from, having passed through the
    # hands of all the players still at the table (a bounce straight back is not round it).
    if drawer.pid == run[0] and {p.pid for p in state.in_game()} <= set(run):
        state = replace(state, phase=Phase.OVER, turn=None, ending=Ending.DEATH_LEAVES)
        entries.append(Entry("rule", ENDING_TEXT[Ending.DEATH_LEAVES]))
        return Outcome(state, tuple(entries))
    started = _start_turn(state, _next_drawer(state, drawer.pid))
    return Outcome(started.state, (*entries, *started.entries))


def _subject(state: SaloonState, move: Prompt, turn: Turn) -> tuple[str, str]:
    """The words that fill "***", and the player whose character they are (if any)."""
    if not tables.needs_subject(turn.table, _rank(turn)):
        return "", ""
    if move.subject_pid:
        if not state.has(move.subject_pid):
            raise IllegalMove("That player is not at this table.")
        if move.subject_pid == turn.drawer:
            raise IllegalMove("Fill the gap with another character than your own.")
        if turn.table == 2 and move.subject_pid == state.doomed:
            raise IllegalMove("The question is for the Doomed: fill the gap with someone else.")
        return state.player(move.subject_pid).role, move.subject_pid
    subject = " ".join(move.subject.split())[:MAX_NAME]
    if not subject:
        raise IllegalMove(
            "Fill the “***” with a character: another player’s, a secondary character from "
            "table 1, or a new one."
        )
    return subject, ""


def _rank(turn: Turn) -> int:
    assert turn.card is not None
    return turn.card.rank


def _text(text: str) -> str:
    return text.strip()[:MAX_TEXT]


def _prompt(state: SaloonState, move: Prompt, rng: random.Random) -> Outcome:
    _need(state, Phase.PLAY)
    turn = state.turn
    assert turn is not None
    if turn.step not in (Step.ASK, Step.CLEAR):
        raise IllegalMove(_WAITING[turn.step](state, turn))
    if move.pid != turn.drawer:
        raise IllegalMove(_WAITING[turn.step](state, turn))
    subject, subject_pid = _subject(state, move, turn)
    cue = tables.filled(turn.table, _rank(turn), subject)
    drawer = state.player(turn.drawer)
    turn = replace(turn, subject=subject, subject_pid=subject_pid)
    if turn.table == 2:
        doomed = state.player(state.doomed)
        entry = Entry("question", f"{drawer.name} asks {doomed.name}: “{cue}”", drawer.pid)
        turn = replace(turn, step=Step.ANSWER, asker=drawer.pid, answerer=doomed.pid)
        return Outcome(replace(state, turn=turn), (replace(entry, said=_text(move.text)),))
    entry = Entry("cue", f"{drawer.name} clears their name: “{cue}”", drawer.pid, _text(move.text))
    turn = replace(turn, answerer=drawer.pid)
    return _offer_next(replace(state, turn=turn), (entry,))


def _answer(state: SaloonState, move: Answer, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.ANSWER)
    if move.pid != turn.answerer:
        raise IllegalMove(_WAITING[Step.ANSWER](state, turn))
    who = state.player(move.pid)
    entry = Entry("answer", f"{who.name} answers.", who.pid, _text(move.text))
    return _offer_next(state, (entry,))


def _eligible(state: SaloonState, turn: Turn, pid: str) -> bool:
    p = state.player(pid)
    return pid not in (turn.drawer, turn.answerer) and not p.left


def _offer_next(state: SaloonState, entries: tuple[Entry, ...]) -> Outcome:
    """S3: the next follow-up offer, the extra question, or the end of the turn."""
    turn = state.turn
    assert turn is not None
    if not turn.extra and len(turn.asked) < 2:
        for p in state.clockwise_from(turn.drawer):
            if _eligible(state, turn, p.pid) and p.pid not in turn.offered:
                turn = replace(turn, step=Step.FOLLOW_UP, offer=p.pid)
                return Outcome(replace(state, turn=turn), entries)
    subject = turn.subject_pid
    if (
        not turn.extra
        and subject
        and subject not in turn.asked
        and subject not in turn.offered
        and _eligible(state, turn, subject)
        and len(turn.asked) < 3
    ):
        turn = replace(turn, step=Step.FOLLOW_UP, offer=subject, extra=True)
        return Outcome(replace(state, turn=turn), entries)
    ended = _end_turn(state)
    return Outcome(ended.state, entries + ended.entries)


def _follow_up(state: SaloonState, move: FollowUp, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.FOLLOW_UP)
    if move.pid != turn.offer:
        if move.pid in turn.asked:
            raise IllegalMove("You have already asked your follow-up question this turn.")
        raise IllegalMove(_WAITING[Step.FOLLOW_UP](state, turn))
    who = state.player(move.pid)
    answerer = state.player(turn.answerer)
    kind = "an extra" if turn.extra else "a follow-up"
    turn = replace(
        turn,
        step=Step.ANSWER,
        asker=who.pid,
        asked=(*turn.asked, who.pid),
        offered=turn.offered if turn.extra else (*turn.offered, who.pid),
    )
    entry = Entry("follow_up", f"{who.name} asks {answerer.name} {kind} question.", who.pid)
    return Outcome(replace(state, turn=turn), (replace(entry, said=_text(move.text)),))


def _pass(state: SaloonState, move: Pass, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.FOLLOW_UP)
    if move.pid != turn.offer:
        raise IllegalMove(_WAITING[Step.FOLLOW_UP](state, turn))
    if turn.extra:
        ended = _end_turn(replace(state, turn=replace(turn, offer="")))
        return Outcome(ended.state, (Entry("rule", f"{state.player(move.pid).name} passes."),))
    turn = replace(turn, offered=(*turn.offered, move.pid), offer="")
    return _offer_next(replace(state, turn=turn), ())


def _end_turn(state: SaloonState) -> Outcome:
    turn = state.turn
    assert turn is not None
    if turn.final:
        doomed = state.player(state.doomed)
        state = replace(state, phase=Phase.OVER, turn=None, ending=Ending.TAKEN, dead=doomed.pid)
        return Outcome(state, (Entry("rule", ENDING_TEXT[Ending.TAKEN], doomed.pid),))
    return _start_turn(state, _next_drawer(state, turn.drawer))


# --- The duel ------------------------------------------------------------------------------


def _shoot(state: SaloonState, move: Shoot, rng: random.Random) -> Outcome:
    _need(state, Phase.DUEL)
    duel = state.duel
    assert duel is not None
    shooter, target = state.player(duel.shooter), state.player(duel.target)
    if move.pid != shooter.pid:
        raise IllegalMove(f"It is {shooter.name}’s shot.")
    if not 0 <= move.position < len(target.hand):
        raise IllegalMove("Choose one of the two cards face down.")
    card = target.hand[move.position]
    rest = target.hand[: move.position] + target.hand[move.position + 1 :]
    state = replace(state, shown=(*state.shown, card))
    if card != BLACK_JOKER:
        match = next(c for c in shooter.hand if c.rank == card.rank)
        state = (
            replace(
                state,
                phase=Phase.OVER,
                ending=Ending.SHOT,
                dead=target.pid,
                discards=(*state.discards, match, card),
            )
            .with_player(replace(shooter, hand=tuple(c for c in shooter.hand if c != match)))
            .with_player(replace(target, hand=rest))
        )
        text = (
            f"{shooter.name} draws the {card}, which pairs with their {match}: the shot hits "
            f"{target.role}. They discard the last pair of the game."
        )
        return Outcome(
            state, (Entry("rule", text, shooter.pid), Entry("rule", ENDING_TEXT[Ending.SHOT]))
        )
    hand = [*shooter.hand, BLACK_JOKER]
    rng.shuffle(hand)  # S2: the cards are shuffled and laid face down
    state = (
        replace(state, doomed=shooter.pid, red_joker=shooter.pid)
        .with_player(replace(target, hand=rest))
        .with_player(replace(shooter, hand=tuple(hand)))
    )
    text = f"{shooter.name} draws the black joker: the shot misses. {shooter.name} describes how."
    entries = [Entry("rule", text, shooter.pid)]
    if duel.shots + 1 >= 2:
        state = replace(state, phase=Phase.OVER, ending=Ending.VANISHED)
        entries.append(Entry("rule", ENDING_TEXT[Ending.VANISHED]))
        return Outcome(state, tuple(entries))
    state = replace(state, duel=Duel(target=shooter.pid, shooter=target.pid, shots=1))
    entries.append(
        Entry(
            "rule",
            f"The roles are reversed: {shooter.name} lays their two cards face down and "
            f"{target.name} shoots.",
        )
    )
    return Outcome(state, tuple(entries))


# --- At any time ---------------------------------------------------------------------------


def _tell(state: SaloonState, move: Tell, rng: random.Random) -> Outcome:
    p = state.player(move.pid)
    text = _text(move.text)
    if not text:
        raise IllegalMove("Write what you tell the table.")
    duel = state.duel
    duelists = () if duel is None else (duel.target, duel.shooter)
    if state.ending in (Ending.SHOT, Ending.VANISHED) and move.pid not in duelists:
        # The duellists describe their shots (and the one hit says farewell); nobody else.
        raise IllegalMove("The game ends without anyone adding anything else.")
    return Outcome(state, (Entry("tell", f"{p.name} tells.", p.pid, text),))


def _leave(state: SaloonState, move: Leave, rng: random.Random) -> Outcome:
    _need(state, Phase.PLAY, Phase.DUEL)
    p = state.player(move.pid)
    if p.hand:
        raise IllegalMove("Only a safe character (no cards left) can leave the game.")
    if p.left:
        raise IllegalMove("You have already left the saloon.")
    state = state.with_player(replace(p, left=True))
    turn = state.turn
    if turn is not None and turn.step == Step.FOLLOW_UP and turn.offer == p.pid:
        passed = _pass(state, Pass(p.pid), rng)
        state = passed.state
        return Outcome(
            state,
            (Entry("rule", f"{p.role.capitalize()} leaves the saloon.", p.pid), *passed.entries),
        )
    return Outcome(state, (Entry("rule", f"{p.role.capitalize()} leaves the saloon.", p.pid),))


def _raise(state: SaloonState, move: RaiseUnwanted, rng: random.Random) -> Outcome:
    p = state.player(move.pid)
    if state.unwanted:
        raise IllegalMove(f"The Unwanted card is already up: {state.player(state.unwanted).name}.")
    return Outcome(
        replace(state, unwanted=p.pid),
        (
            Entry(
                "rule",
                f"{p.name} raises the Unwanted card. Play pauses: talk together about how to "
                "change or delete what was said so that it is acceptable to everyone.",
                p.pid,
            ),
        ),
    )


def _lower(state: SaloonState, move: LowerUnwanted, rng: random.Random) -> Outcome:
    if not state.unwanted:
        raise IllegalMove("The Unwanted card is not up.")
    if move.pid != state.unwanted:
        raise IllegalMove(f"Only {state.player(state.unwanted).name}, who raised it, lowers it.")
    p = state.player(move.pid)
    return Outcome(
        replace(state, unwanted=""),
        (Entry("rule", f"{p.name} lowers the Unwanted card: play goes on.", p.pid),),
    )


def _continue(state: SaloonState, move: Continue, rng: random.Random) -> Outcome:
    """ "Continue Playing After the Ending": a new archetype for the one taken by Death (an
    unused one, picked or drawn at random), every numbered card collected and dealt out again,
    pairs discarded, and the most cards is the Doomed."""
    _need(state, Phase.OVER)
    entries = [Entry("rule", tables.YEAR_AND_A_DAY)]
    if state.dead:
        dead = state.player(state.dead)
        free = [c for c in FACE_CARDS if c in state.aside]
        if move.card is not None and move.card not in free:
            raise IllegalMove("Pick an archetype nobody plays.")
        card = move.card if move.card is not None else rng.choice(free)
        assert dead.archetype is not None
        aside = (*(c for c in state.aside if c != card), dead.archetype)
        dead = replace(dead, archetype=card, character="")
        state = replace(state, aside=aside).with_player(dead)
        entries.append(Entry("rule", f"{dead.name} now plays {dead.role}.", dead.pid))
    elif move.card is not None:
        raise IllegalMove("Nobody was taken by Death: everyone keeps their character.")
    state = replace(
        state,
        players=tuple(replace(p, left=False) for p in state.players),
        ending=None,
        dead="",
        duel=None,
        appointed="",
        year=state.year + 1,
        shown=(),
    )
    dealt = _deal(state, rng)  # the jokers go aside until the Gaze
    return Outcome(dealt.state, (*entries, *dealt.entries))


# --- Applying moves ------------------------------------------------------------------------

_Handler = Callable[[SaloonState, Any, random.Random], Outcome]
_HANDLERS: dict[type, _Handler] = {
    PickArchetype: _pick_archetype, NameCharacter: _name, Discard: _discard,
    SwapWith: _swap_with, Draw: _draw, Prompt: _prompt, Answer: _answer, FollowUp: _follow_up,
    Pass: _pass, Shoot: _shoot, Tell: _tell, Leave: _leave, RaiseUnwanted: _raise,
    LowerUnwanted: _lower, Continue: _continue,
}  # fmt: skip


def apply(state: SaloonState, move: Move, rng: random.Random | None = None) -> Outcome:
    """Apply one move; ``IllegalMove`` (nothing changed) when the rules refuse it."""
    handler = _HANDLERS.get(type(move))
    if handler is None:  # pragma: no cover - every Move type has a handler
        raise IllegalMove("Unknown move.")
    state.player(move.pid)  # only the players at the table act
    if state.unwanted and not isinstance(move, RaiseUnwanted | LowerUnwanted):
        raise IllegalMove(  # S4
            f"Play is paused: {state.player(state.unwanted).name} has raised the Unwanted card."
        )
    return handler(state, move, rng or random.SystemRandom())


def _need(state: SaloonState, *phases: Phase) -> None:
    if state.phase not in phases:
        raise IllegalMove(_PHASE_WORDS[state.phase])


_PHASE_WORDS = {
    Phase.ARCHETYPES: "First everyone picks an archetype.",
    Phase.DISCARD: "First everyone discards their pairs.",
    Phase.SWAP: "First the appointed Doomed chooses whose hand to take.",
    Phase.PLAY: "That is not part of a turn.",
    Phase.DUEL: "The duel is on: only the shots are left.",
    Phase.OVER: "The game is over.",
}


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
