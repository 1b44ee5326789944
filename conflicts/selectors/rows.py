"""What a conflict screen's context holds: plain rows of what one viewer may see (cards only
as ``CardView``, and only those ``visible_cards`` let through, R10), and the labels."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from characters.models import Character
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from tables.cards import CardView

Phase = engine.Phase


PHASE_LABELS = {phase: Conflict.Phase(phase.value).label for phase in Phase}


KIND_LABELS = {
    engine.Kind.PC: "Player character",
    engine.Kind.NPC: "Important NPC",
    engine.Kind.STUD: "Stud hand",
}


def display_name(user: User | None) -> str:
    if user is None:
        return ""
    return user.first_name or user.get_username()


@dataclass
class LayOption:
    cards: list[CardView]
    description: str
    notes: list[str]
    best: bool


@dataclass
class AttributeRow:
    name: str
    label: str
    suit: str
    current: int
    rating: int
    placed: int = 0  # Difficulty placed here (or the default to place, R9)


@dataclass
class OwedRow:
    pid: str
    name: str
    points: int
    placeable: int
    attributes: list[AttributeRow]
    source: str
    allocation: dict[str, int] | None
    allocation_text: str
    default: dict[str, int]


@dataclass
class Odds:
    percent: int
    deals: int
    opposing: int  # how many hands it reckons against
    against: str = ""  # and in words: "against Long Tom's 8 cards and two other hands"
    advice: list[tuple[list[CardView], int]] = field(default_factory=list)
    advice_limit: int = 0
    advice_pending: bool = False
    pending: bool = False  # not worked out yet: the screen asks the advisor's fragment for it

    @property
    def deals_text(self) -> str:
        return f"{self.deals:,}"


@dataclass
class HandRow:
    """One participant as this viewer may see it: cards only when ``visible_cards`` allows."""

    pid: str
    name: str
    kind: str
    kind_label: str
    side: str
    side_label: str
    goal: str
    player: str
    character_id: int | None
    count: int
    deal_count: int
    deal_lines: str
    proposal: str
    approved: str
    approve_initial: dict[str, Any]
    devil_rating: int
    folded: bool
    drew: bool
    lay_chosen: bool
    last_stand: bool
    awards: int
    extra_card: bool
    extra_draw: bool
    mine: bool
    cards: list[CardView]
    discarded: list[CardView]
    lay: list[CardView]
    lay_text: str
    winner: bool = False
    narrator: bool = False
    awaiting_end: bool = False  # R17: out of play after its last stand, the end not written
    lay_options: list[LayOption] = field(default_factory=list)
    knacks: list[tuple[int, str, int]] = field(default_factory=list)
    draw_base: int = 0
    # R13: the knack for the Draw, as named and (or) approved; the discards it allows now
    knack: str = ""
    knack_rating: int = 0
    knack_approved: bool = False
    draw_limit: int = 0
    odds: Odds | None = None
    owed: OwedRow | None = None
    character: Character | None = None
    attributes: list[AttributeRow] = field(default_factory=list)
    chips: int = 0
    may_bid: bool = False
    may_answer: bool = False
    may_withdraw: str = ""  # R16: "bid" or "answer" while the bidding is open
    restore_options: list[AttributeRow] = field(default_factory=list)
    # After the reveal, from this hand's seat: "won", "side" (its side won) or "lost"
    outcome: str = ""
