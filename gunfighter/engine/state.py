"""The Gunfighter's state and moves: frozen dataclasses, nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# Seed 003, "Setup" and "Components".
DECKS = ("Gunslinger", "Outlaw", "Veteran", "Drunk", "Lawman", "Reverend")
COLOURS = {
    "Gunslinger": "Black", "Outlaw": "Orange", "Veteran": "Red", "Drunk": "Yellow",
    "Lawman": "Blue", "Reverend": "White",
}  # fmt: skip
MAX_PLAYERS = 6  # one per character deck
MIN_PLAYERS = 2  # GF1: a duel needs two
LIVES = 3  # "Each player takes three wooden chips"
COVERT_HAND = 5  # "Each player is dealt a hand of 5 covert (GREEN) cards"
COVERT_CARDS = 42  # "42 Covert cards"
DECK_SIZE = 30  # "6 Character Decks of 30 showdown cards"
BANDOLIER = 6  # "draw 6 cards off of the top of their character's showdown card deck"
POCKET_MAX = 6  # "you may have up to 6 cards in your pocket"
COUNTDOWN_MS = 5000  # "the first 5 seconds are a countdown"
PLAY_MS = 5000  # "the remaining 5 seconds are when cards ... may be played"
MAX_POINTS = DECK_SIZE  # GF6: points from one gunfighter in one mat, at most a whole deck


class Phase(StrEnum):
    CHOOSE = "choose"  # each picks a deck (GF2), or anyone asks for the random draw
    PREPARE = "prepare"  # leading up to a showdown: bandoliers, one covert card each
    SHOWDOWN = "showdown"  # the clock runs; when it hits zero, the mats are reviewed in turn
    OVER = "over"


@dataclass(frozen=True)
class Gunfighter:
    """A seat. Counts of the physical cards: ``stock`` (the showdown deck), ``bandolier``,
    ``pocket``, ``discard`` always add up to ``DECK_SIZE`` (GF7); ``covert`` in hand."""

    pid: str
    name: str
    deck: str = ""
    lives: int = LIVES
    covert: int = COVERT_HAND
    stock: int = DECK_SIZE
    bandolier: int = 0
    pocket: int = 0
    discard: int = 0
    ready: bool = False  # the bandolier is set (this showdown)
    covert_played: bool = False  # this showdown's one covert card
    no_covert: bool = False  # said "no covert card" for this showdown (R38)
    reviewed: bool = False  # this showdown's mat is reviewed
    out: int = 0  # the showdown they were eliminated in (0: standing)
    killed_by: str = ""

    @property
    def standing(self) -> bool:
        return self.out == 0


@dataclass(frozen=True)
class Hit:
    """``shooter`` dealt ``points`` to ``target`` in one showdown (as the target's mat showed)."""

    target: str
    shooter: str
    points: int


@dataclass(frozen=True)
class Showdown:
    """One showdown's story: who shot whom, who fell and to whom."""

    number: int
    hits: tuple[Hit, ...] = ()
    fallen: tuple[tuple[str, str], ...] = ()  # (victim, killer); killer "" for none (GF5)


@dataclass(frozen=True)
class GunfightState:
    phase: Phase
    gunfighters: tuple[Gunfighter, ...]
    western: str  # who saw a western last: the mats' review starts there (GF3)
    showdown: int = 0  # the current showdown's number (1 from the first)
    clock_at: int | None = None  # the countdown's start, server epoch ms (GF4)
    covert_discard: int = 0  # the one shared covert discard pile
    covert_stock: int = COVERT_CARDS  # the covert cards never dealt (GF8)
    history: tuple[Showdown, ...] = ()
    hits: tuple[Hit, ...] = ()  # the current showdown's, as mats are reviewed
    winner: str = ""
    rebuilt: int = 0  # the showdown for which every deck was last rebuilt (GF7)
    # GF11: the table as it was before the last mat was entered (itself with the one before it,
    # back to this showdown's first mat), so a mistyped mat can be taken back; any other move
    # clears it.
    before: GunfightState | None = None

    def has(self, pid: str) -> bool:
        return any(g.pid == pid for g in self.gunfighters)

    def gunfighter(self, pid: str) -> Gunfighter:
        for g in self.gunfighters:
            if g.pid == pid:
                return g
        raise KeyError(pid)

    @property
    def standing(self) -> tuple[Gunfighter, ...]:
        return tuple(g for g in self.gunfighters if g.standing)

    @property
    def clock_end(self) -> int | None:
        return None if self.clock_at is None else self.clock_at + COUNTDOWN_MS + PLAY_MS


# --- Moves: each names its mover (``pid``); the app fills in the server's instants ----------


@dataclass(frozen=True)
class ChooseDeck:
    pid: str
    deck: str


@dataclass(frozen=True)
class DrawAtRandom:
    """GF2: someone does not agree to choosing: the app deals every deck at random."""

    pid: str


@dataclass(frozen=True)
class PlayCovert:
    pid: str


@dataclass(frozen=True)
class NoCovert:
    """R38: "no covert card" for this showdown, so the clock need not wait for one."""

    pid: str


@dataclass(frozen=True)
class BandolierSet:
    pid: str


@dataclass(frozen=True)
class StartClock:
    pid: str
    at_ms: int  # the countdown's start on the server's clock
    # R38: the host starts it without waiting for a quiet phone's covert card (the app lets only
    # the host send it; ``pid`` is then the host's seat, or "" for a host without one).
    anyway: bool = False


@dataclass(frozen=True)
class EnterMat:
    """What the mover's own mat showed: the points each gunfighter dealt them (``hits``: pid,
    points; the mover's own cards too, GF5), who dealt the last point if it killed (``last``),
    and how many cards were left in their bandolier (``left``)."""

    pid: str
    now_ms: int
    hits: tuple[tuple[str, int], ...] = ()
    left: int = 0
    last: str = ""


@dataclass(frozen=True)
class TakeBack:
    """GF11: the mover's mat, entered wrong, is reviewed again (with every mat entered after
    it), as long as the table made no other move since."""

    pid: str


@dataclass(frozen=True)
class TakeBackCovert:
    """GF11: a covert card tapped by mistake goes back to the hand, before the clock starts."""

    pid: str


Move = (
    ChooseDeck | DrawAtRandom | PlayCovert | NoCovert | TakeBackCovert | BandolierSet
    | StartClock | EnterMat | TakeBack
)  # fmt: skip


@dataclass(frozen=True)
class Event:
    """A line of the timeline: what happened, in plain words (``pid``: whose it is)."""

    text: str
    pid: str = ""
