"""The saloon's state, its moves and what they return (see ``game``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from cards.deck import FULL_DECK, Card, Suit
from cards.errors import IllegalMove

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
     "passes. The extra question (up to three in all) is for the player whose character was "
     "brought up — by the “***”, by a table-3 cue without one, or by the answer to the initial "
     "question — unless they already asked one: passing is not asking (R34). With several "
     "brought up, it is offered in that order until one asks."),
    ("S4", "There is one Unwanted card: while it is up play pauses, and what was said can be "
     "changed or deleted — the one who raised it, or whoever said the words, strikes them from "
     "the story (say the new version out loud, or type it again once play goes on). The turn’s "
     "own question or cue, struck, is asked again with a new “***”. The one who raised it "
     "lowers it, or the host, saying so on the timeline (R34)."),
    ("S5", "Only a safe character (no cards left) can leave the game; they then get no "
     "follow-ups."),
    ("S6", "The black joker has gone round the table when it is back with the player it was "
     "first drawn from and every player still holding cards has held it on the way."),
)  # fmt: skip
MAX_TEXT = 2000
MAX_NAME = 60


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
    # R34: characters brought up besides the "***": by a table-3 cue without one, or by the
    # answer to the initial question. Their players may take the extra question too.
    brought_up: tuple[str, ...] = ()
    declined: tuple[str, ...] = ()  # who passed the extra question when offered it
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
    (``subject_pid``) or a secondary character (``subject``). A table-3 cue without "***"
    (rows 6, 4, 2) may name the player whose character it brings up (``brought_up``, R34)."""

    pid: str
    subject_pid: str = ""
    subject: str = ""
    text: str = ""
    brought_up: str = ""


@dataclass(frozen=True)
class Answer:
    """An answer; to the initial question it may name the player whose character it brings
    up (``brought_up``, R34): they may take the extra question."""

    pid: str
    text: str = ""
    brought_up: str = ""


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
    """The one who raised it lowers it; or the host (``host``: their name), so an absent
    raiser cannot pause the table for good (R34)."""

    pid: str
    host: str = ""


@dataclass(frozen=True)
class Strike:
    """S4: while the Unwanted card is up, strike words said (typed) from the story. ``author``
    is the pid of whoever said them; the words themselves live outside the engine (the
    timeline), so the engine only rules who may strike and when — and forgets the turn's
    filled-in "***" when its own question or cue is struck."""

    pid: str
    author: str = ""
    # The words are the turn's own question or cue: its "***" goes back to a gap, too.
    prompt: bool = False


@dataclass(frozen=True)
class Continue:
    """After an ending: play on ("a year and a day"); the one taken by Death gets a new
    archetype (``card``, or a random one)."""

    pid: str
    card: Card | None = None


Move = (
    PickArchetype | NameCharacter | Discard | SwapWith | Draw | Prompt | Answer | FollowUp | Pass
    | Shoot | Tell | Leave | RaiseUnwanted | LowerUnwanted | Strike | Continue
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
