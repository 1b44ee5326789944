"""Reads for the session page: what happened in a session — its conflicts, the Difficulty taken,
the chips earned and spent, who went down the Road to Hell (R17), the recovery (R22) and the
session's log. Players see the player characters' side of it; a non-player character's
attributes stay the Dealer's secret (as on its sheet)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from campaigns.models import GameSession, JobRun, Membership, SessionEvent
from characters.models import AttributeChange, Character, ChipEntry, SessionSnapshot
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTE_SUITS, ATTRIBUTES
from conflicts.models import Conflict

PHASES = {
    "sizing": "Sizing the Deal",
    "draw": "The Draw",
    "laying": "Called",
    "resolution": "Lays on the table",
    "done": "Over",
    "folded": "Folded",
    "cancelled": "Cancelled",
}


@dataclass(frozen=True)
class ConflictRow:
    conflict: Conflict
    phase: str
    winner: str  # "" until the lays are revealed
    abandoned: bool


@dataclass(frozen=True)
class Change:
    label: str
    suit: str
    before: int
    after: int
    conflict: str = ""

    @property
    def points(self) -> int:
        return abs(self.after - self.before)


@dataclass
class CharacterChanges:
    character: Character
    changes: list[Change] = field(default_factory=list)

    @property
    def points(self) -> int:
        return sum(c.points for c in self.changes)


@dataclass(frozen=True)
class ChipRow:
    entry: ChipEntry
    character: str


@dataclass(frozen=True)
class ChipTotal:
    character: str
    earned: int
    spent: int


@dataclass(frozen=True)
class RoadRow:
    character: Character
    attributes: list[str]
    here: bool  # reached 0 in this session


@dataclass(frozen=True)
class CarryOption:
    character: Character
    checked: bool


@dataclass
class Story:
    conflicts: list[ConflictRow]
    difficulty: list[CharacterChanges]
    restored: list[CharacterChanges]
    recovery: list[CharacterChanges]
    chips: list[ChipRow]
    chip_totals: list[ChipTotal]
    road: list[RoadRow]
    events: list[SessionEvent]
    recovery_run: JobRun | None
    carry_options: list[CarryOption]
    carried_names: list[str]

    @property
    def in_play(self) -> list[Conflict]:
        """Conflicts not over yet: ending the session asks what to do with them."""
        return [row.conflict for row in self.conflicts if not row.conflict.is_over]

    @property
    def quiet(self) -> bool:
        return not (self.conflicts or self.difficulty or self.chips or self.road)


def _visible(character: Character, membership: Membership) -> bool:
    return character.is_pc or membership.is_dealer


def _conflicts(session: GameSession) -> list[ConflictRow]:
    rows = []
    for conflict in session.conflicts.select_related("campaign").order_by("created_at", "pk"):
        data = conflict.state or {}
        names = {p.get("pid"): p.get("name", "") for p in data.get("participants", [])}
        winner = ""
        if conflict.phase in ("resolution", "done") and data.get("winner"):
            winner = names.get(data["winner"], "")
        abandoned = bool(
            not conflict.is_over
            and conflict.abandoned_at is not None
            and conflict.abandoned_at >= conflict.last_move_at
        )
        rows.append(
            ConflictRow(conflict, PHASES.get(conflict.phase, conflict.phase), winner, abandoned)
        )
    return rows


def _changes(
    session: GameSession, membership: Membership, reasons: list[str]
) -> list[CharacterChanges]:
    by_character: dict[int, CharacterChanges] = {}
    rows = (
        AttributeChange.objects.filter(session=session, reason__in=reasons)
        .select_related("character", "conflict")
        .order_by("character__kind", "character__name", "at", "pk")
    )
    for row in rows:
        if not _visible(row.character, membership):
            continue
        group = by_character.setdefault(row.character_id, CharacterChanges(row.character))
        group.changes.append(
            Change(
                ATTRIBUTE_LABELS[row.attribute],
                ATTRIBUTE_SUITS[row.attribute],
                row.before,
                row.after,
                row.conflict.title if row.conflict else "",
            )
        )
    return sorted(by_character.values(), key=lambda g: (not g.character.is_pc, g.character.name))


def _chips(session: GameSession) -> tuple[list[ChipRow], list[ChipTotal]]:
    entries = list(
        ChipEntry.objects.filter(session=session)
        .select_related("character")
        .order_by("created_at", "pk")
    )
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e in entries:
        totals[e.character.name][0 if e.amount > 0 else 1] += abs(e.amount)
    return (
        [ChipRow(e, e.character.name) for e in entries],
        [ChipTotal(name, earned, spent) for name, (earned, spent) in sorted(totals.items())],
    )


def _road(session: GameSession, membership: Membership) -> list[RoadRow]:
    """R17: who is on the Road to Hell — at the session's end (its snapshots) once it has
    ended, now while it is played; ``here`` when the 0 came in this session."""
    reached = set(
        AttributeChange.objects.filter(
            session=session, after=0, reason=AttributeChange.Reason.DIFFICULTY
        ).values_list("character_id", "attribute")
    )
    rows: list[RoadRow] = []
    if session.status == GameSession.Status.ENDED:
        snaps = SessionSnapshot.objects.filter(session=session).select_related("character")
        sources: list[tuple[Character, Any]] = [(s.character, s) for s in snaps]
    else:
        characters = session.campaign.characters.filter(out_of_play=False)
        sources = [(c, c) for c in characters]
    for character, values in sources:
        zeros = [a for a in ATTRIBUTES if values.current(a) == 0]
        if zeros and _visible(character, membership):
            rows.append(
                RoadRow(
                    character,
                    [ATTRIBUTE_LABELS[a] for a in zeros],
                    any((character.pk, a) in reached for a in zeros),
                )
            )
    return sorted(rows, key=lambda r: (not r.character.is_pc, r.character.name))


def session_story(session: GameSession, membership: Membership) -> Story:
    """Everything the session page shows beyond the Devil ratings."""
    chips, chip_totals = _chips(session)
    carried_ids = set(session.carry_over_for.values_list("pk", flat=True))
    options: list[CarryOption] = []
    if membership.is_dealer and session.status == GameSession.Status.OPEN:
        in_play = session.campaign.characters.filter(out_of_play=False).order_by("-kind", "name")
        options = [CarryOption(c, c.pk in carried_ids) for c in in_play]
    carried = session.carry_over_for.order_by("name")
    return Story(
        conflicts=_conflicts(session),
        difficulty=_changes(session, membership, [AttributeChange.Reason.DIFFICULTY]),
        restored=_changes(session, membership, [AttributeChange.Reason.RESTORE]),
        recovery=_changes(session, membership, [AttributeChange.Reason.RECOVERY]),
        chips=chips,
        chip_totals=chip_totals,
        road=_road(session, membership),
        events=list(session.events.select_related("actor")),
        recovery_run=session.job_runs.filter(job=JobRun.Job.RECOVER).first(),
        carry_options=options,
        carried_names=[c.name for c in carried if _visible(c, membership)],
    )
