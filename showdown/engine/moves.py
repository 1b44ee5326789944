"""The moves of Saloon Showdown: one frozen dataclass each, made by the mover's seat ``pid``.
Host moves (the events) are made by the table's host, seated or not (``pid`` may be "")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    pid: str


# --- A turn (A, B, C) ----------------------------------------------------------------------
@dataclass(frozen=True)
class Draw(Move):
    public: bool  # from the four public cards (the dealer token comes too) or blind


@dataclass(frozen=True)
class CashLoot(Move):
    cards: int  # "Malloppo" cards discarded, 10$ each


@dataclass(frozen=True)
class CashBounty(Move):
    victim: str  # a trio of "Taglia da vivo": another player's whole bounty


@dataclass(frozen=True)
class Threaten(Move):
    target: str
    pistol: str
    second: str = ""  # the Desperado's second target (a triello)


# --- Answers to a threat ----------------------------------------------------------------------
@dataclass(frozen=True)
class CallBluff(Move):
    """ "Stai bluffando!" """


@dataclass(frozen=True)
class AndYou(Move):
    """ "E tu?": a duel."""


@dataclass(frozen=True)
class Bullets(Move):
    count: int


@dataclass(frozen=True)
class TakeBackCount(Move):
    """A count mistyped: taken back before the last count is in (SS20), the bluff's or an
    event's."""


@dataclass(frozen=True)
class BountyTrio(Move):
    """Three "Taglia da vivo" shown to the threatener: their bounty, their turn over."""


@dataclass(frozen=True)
class Horse(Move):
    """ "Ci vediamo!": escape on horseback, naming the threat's new target."""

    new_target: str = ""


@dataclass(frozen=True)
class Law(Move):
    """ "Io sono la Legge.": the threatener to jail."""


@dataclass(frozen=True)
class Desperado(Move):
    """Threatened with three Desperado: a triello with the threatener and ``other``."""

    other: str


@dataclass(frozen=True)
class Standoff(Move):
    """ "Non credo proprio!": a pistol pointed at whoever threatened last."""


@dataclass(frozen=True)
class CloseStandoff(Move):
    """The first threatened player: nobody else joins; they become the referee."""


@dataclass(frozen=True)
class Bottle(Move):
    """ "Crash!" (case B): three cards of the threatening pistol's colour."""

    hit: str = ""  # in a standoff, who is knocked out of it


# --- A fight ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ready(Move):
    at: int  # the server's clock, ms


@dataclass(frozen=True)
class Fire(Move):
    at: int
    target: str = ""
    pistol: str = ""
    zone: str = ""
    noise: str = ""
    law: bool = False


@dataclass(frozen=True)
class Confirm(Move):
    pass


@dataclass(frozen=True)
class Dispute(Move):
    pass


@dataclass(frozen=True)
class Settle(Move):
    upheld: bool  # the dealer token's holder: the claim stands, or everyone fires again


# --- Events (the host) -------------------------------------------------------------------------
@dataclass(frozen=True)
class HostMove(Move):
    pass


@dataclass(frozen=True)
class RevealEvent(HostMove):
    name: str
    drawer: str


@dataclass(frozen=True)
class Turkey(HostMove):
    shooter: str  # the first of the others to shoot the turkey; "" for nobody


@dataclass(frozen=True)
class Noon(HostMove):
    shooter: str
    hit: str


@dataclass(frozen=True)
class Correct(HostMove):
    """SS21: the host puts a player's money or wounds right after a mistake, to these values."""

    who: str
    loot: int
    bounty: int
    wounds: int


@dataclass(frozen=True)
class TakeBackEvent(HostMove):
    """SS20: the event card revealed by mistake, taken back before anyone counted for it."""


@dataclass(frozen=True)
class EventDone(HostMove):
    pass


@dataclass(frozen=True)
class EventCount(Move):
    count: int  # bullets (rain) or loot symbols (robbery) on the player's cards
