"""Saloon Showdown's state: frozen, JSON-able, and nothing of the physical cards.

The cards, pistols and bottle stay on the table (seed 001 lists no deck): the state keeps what a
companion app keeps — the money (loot and bounty), the wounds, the dealer token, whose turn it
is, the threat, bluff or fight under way with its hidden numbers, the event held, and the end.
Rulings SS1–SS22 (``showdown.rulings``) say how the seed is read where it is silent.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from cards.words import pgettext

START_LOOT = 20  # seed: "Consegna 20$ a ogni giocatore … zona Bottino"
START_BOUNTY = 20  # seed: "Consegna altri 20$ … zona Taglia"
TARGET_LOOT = 130  # seed: "Quando un giocatore raggiunge un Bottino di 130$"
MAX_WOUNDS = 3  # seed: "quando ottiene il terzo segnalino Ferita"
WOUND = 10  # seed: "1 segnalino Ferita, che vale -10$ a fine partita"
STEAL = 20  # seed: "ruba 20$ dal Bottino"
PISTOLS = ("red", "blue", "yellow", "green")  # SS3: four coloured pistols
# Each pistol's colour as a line says it, translated for its reader (cards.words).
PISTOL_WORDS = {
    "red": pgettext("pistol", "red"),
    "blue": pgettext("pistol", "blue"),
    "yellow": pgettext("pistol", "yellow"),
    "green": pgettext("pistol", "green"),
}
ZONES = ("head", "arm", "chest", "leg")  # SS3
NOISES = ("Bang", "Blam", "Boom")  # seed: "Boom", "Bang" oppure "Blam"
BOTTLE = "bottle"  # the Bottle, case A: "Crash!" instead of a pistol
COUNTDOWN_MS = 3000  # SS6: from the last "ready" to "Via!", on the server's clock
MAX_BULLETS = 9  # three cards, at most three bullets each
MAX_SYMBOLS = 12  # an event may count four cards
EVENTS = ("turkey", "noon", "rain", "robbery", "other")
EVENT_NAMES = {
    "turkey": pgettext("event", "The Turkey (Il tacchino)"),
    "noon": pgettext("event", "Showdown at Noon (Resa dei conti a mezzogiorno)"),
    "rain": pgettext("event", "Rain of Bullets (Pioggia di proiettili)"),
    "robbery": pgettext("event", "The Great Bank Robbery (La grande rapina alla banca)"),
    "other": pgettext("event", "Another event card"),
}


class Phase(StrEnum):
    PLAY = "play"  # the player whose turn it is chooses an action
    THREAT = "threat"  # "Ti senti fortunato?": the threatened player answers
    BLUFF = "bluff"  # "Stai bluffando!": the bullet counts are being entered
    FIGHT = "fight"  # a duel, triello, standoff or tie-break
    EVENT = "event"  # an event card holds play
    OVER = "over"


class Kind(StrEnum):
    DUEL = "duel"
    TRIELLO = "triello"
    STANDOFF = "standoff"
    TIEBREAK = "tiebreak"


@dataclass(frozen=True)
class Player:
    pid: str
    name: str
    loot: int = START_LOOT
    bounty: int = START_BOUNTY
    wounds: int = 0

    @property
    def score(self) -> int:
        return self.loot + self.bounty - WOUND * self.wounds


@dataclass(frozen=True)
class Options:
    simple: bool = False  # the 2-player / simplified game: no Desperado, no standoff
    roulette: bool = False  # the Russian roulette variant of calling a bluff
    events: bool = False  # the mini-expansion "…cosa porta il vento"


@dataclass(frozen=True)
class Threat:
    threatener: str
    target: str
    pistol: str
    first: str  # the first threatened player (the standoff's referee, SS10)
    escaped: tuple[str, ...] = ()  # who rode away on horseback from this threat
    forced: bool = False  # SS8: after two escapes only "Stai bluffando!" or "E tu?"
    standoff: tuple[str, ...] = ()  # "Non credo proprio!": the chain, in order
    knocked: tuple[str, ...] = ()  # R37: knocked out of the standoff by the Bottle: not again


@dataclass(frozen=True)
class Bluff:
    threatener: str
    target: str
    # The bullet counts entered so far: hidden until every count is in (``visible_state``).
    counts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Claim:
    shooter: str
    target: str
    at: int  # the server's clock when the claim arrived, in ms
    pistol: str
    zone: str
    noise: str
    law: bool = False


@dataclass(frozen=True)
class Fight:
    kind: Kind
    members: tuple[str, ...]
    ready: tuple[str, ...] = ()
    go_at: int | None = None  # "Via!" on the server's clock (ms), once everyone is ready
    claim: Claim | None = None
    disputed: bool = False
    desperado: str = ""
    referee: str = ""
    # The shots that lost the race (SS6), as (pid, the server's clock when it arrived): the
    # timeline says "zeke fired too, 2 ms later" (issue 36), and nobody fires twice.
    late: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Event:
    name: str
    drawer: str
    # Rain and robbery: the counts each player enters, hidden until all are in.
    counts: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    dealer: str  # who holds the dealer token
    turn: str  # whose turn it is
    options: Options = field(default_factory=Options)
    threat: Threat | None = None
    bluff: Bluff | None = None
    fight: Fight | None = None
    event: Event | None = None
    events_seen: tuple[str, ...] = ()
    reminder: str = ""  # who is to replace the four public cards (after their turn)
    trigger: str = ""  # who reached 130$ or a third wound first
    end_after: str = ""  # the game ends at the end of this player's turn
    jailed: tuple[str, ...] = ()  # R37: sent to jail by the Law: they skip their next turn
    over: bool = False
    winner: str = ""
    turns: int = 0

    @property
    def phase(self) -> Phase:
        if self.over:
            return Phase.OVER
        if self.event is not None:
            return Phase.EVENT
        if self.fight is not None:
            return Phase.FIGHT
        if self.bluff is not None:
            return Phase.BLUFF
        if self.threat is not None:
            return Phase.THREAT
        return Phase.PLAY

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.pid == pid:
                return p
        raise KeyError(pid)

    def has(self, pid: str) -> bool:
        return any(p.pid == pid for p in self.players)

    @property
    def pids(self) -> tuple[str, ...]:
        return tuple(p.pid for p in self.players)

    def after(self, pid: str) -> str:
        """The next player clockwise (on ``pid``'s left)."""
        pids = self.pids
        return pids[(pids.index(pid) + 1) % len(pids)]

    def before(self, pid: str) -> str:
        """The player on ``pid``'s right (the one before them, clockwise)."""
        pids = self.pids
        return pids[(pids.index(pid) - 1) % len(pids)]

    def with_player(self, pid: str, **changes: Any) -> State:
        return replace(
            self, players=tuple(replace(p, **changes) if p.pid == pid else p for p in self.players)
        )


# --- To and from JSON ----------------------------------------------------------------------

FORMAT = 1


def state_to_data(state: State) -> dict[str, Any]:
    def plain(value: Any) -> Any:
        if hasattr(value, "__dataclass_fields__"):
            return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value

    data: dict[str, Any] = plain(state)
    data["format"] = FORMAT
    return data


def _pairs(raw: Any) -> tuple[tuple[str, int], ...]:
    return tuple((str(pid), int(n)) for pid, n in raw)


def state_from_data(data: dict[str, Any]) -> State:
    """The state back from ``state_to_data``; raises on anything malformed."""
    if data.get("format") != FORMAT:
        raise ValueError("unknown state format")
    threat = data["threat"]
    bluff = data["bluff"]
    fight = data["fight"]
    event = data["event"]
    claim = fight["claim"] if fight else None
    state = State(
        players=tuple(Player(**p) for p in data["players"]),
        dealer=str(data["dealer"]),
        turn=str(data["turn"]),
        options=Options(**data["options"]),
        threat=None
        if threat is None
        else replace(
            Threat(**threat),
            escaped=tuple(threat["escaped"]),
            standoff=tuple(threat["standoff"]),
            knocked=tuple(threat.get("knocked", ())),
        ),
        bluff=None
        if bluff is None
        else Bluff(bluff["threatener"], bluff["target"], _pairs(bluff["counts"])),
        fight=None
        if fight is None
        else Fight(
            kind=Kind(fight["kind"]),
            members=tuple(fight["members"]),
            ready=tuple(fight["ready"]),
            go_at=fight["go_at"],
            claim=None if claim is None else Claim(**claim),
            disputed=bool(fight["disputed"]),
            desperado=fight["desperado"],
            referee=fight["referee"],
            late=_pairs(fight.get("late", ())),
        ),
        event=None
        if event is None
        else Event(event["name"], event["drawer"], _pairs(event["counts"])),
        events_seen=tuple(data["events_seen"]),
        reminder=data["reminder"],
        trigger=data["trigger"],
        end_after=data["end_after"],
        jailed=tuple(str(p) for p in data.get("jailed", ())),
        over=bool(data["over"]),
        winner=data["winner"],
        turns=int(data["turns"]),
    )
    if len(set(state.pids)) != len(state.players) or not state.has(state.turn):
        raise ValueError("seats are broken")
    if not all(state.has(p) for p in state.jailed):
        raise ValueError("jailed players are not at the table")
    return state
