"""A campaign file's plan: the clean values ``checks.campaign_plan`` made of it, ready for
``importer`` to write."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

# The games' codecs share the restorer's mark (a line's actor: whoever writes the file in).
from tables.codecs import RESTORER as RESTORER
from tables.codecs import PlannedGame


@dataclass
class PlannedEntry:
    amount: int
    reason: str
    note: str
    actor: str | None
    at: dt.datetime
    session: int | None


@dataclass
class PlannedCharacter:
    key: str
    kind: str
    player: str | None
    values: dict[str, Any]  # Character fields, as they are written
    knacks: dict[str, int]
    ledger: list[PlannedEntry]


@dataclass
class PlannedLine:
    """A line of a session's log or of a conflict's timeline (``seq`` and ``version``: 0)."""

    at: dt.datetime
    actor: str | None
    text: str
    seq: int = 0
    version: int = 0


@dataclass
class PlannedSession:
    values: dict[str, Any]  # GameSession fields
    devil_ratings: dict[str, int]
    log: list[PlannedLine] = field(default_factory=list)


@dataclass
class PlannedConflict:
    values: dict[str, Any]  # Conflict fields: title, phase, version, state, abandoned_at
    created_at: dt.datetime | None
    session: int | None
    previous: int | None  # an earlier conflict's index in Plan.conflicts
    seats: list[tuple[str, str | None, str]]  # pid, character key, goal
    timeline: list[PlannedLine]
    snapshots: list[tuple[int, dict[str, Any]]]  # version, engine state
    # A running conflict past the Deal whose hidden cards were dealt again (R10, issue 28).
    redealt: bool = False


@dataclass
class Plan:
    campaign: dict[str, Any]
    members: list[tuple[str, str]] = field(default_factory=list)
    characters: list[PlannedCharacter] = field(default_factory=list)
    links: list[dict[str, str]] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    sessions: list[PlannedSession] = field(default_factory=list)
    conflicts: list[PlannedConflict] = field(default_factory=list)
    games: dict[str, list[PlannedGame]] = field(default_factory=dict)  # by kind (version 3)


def redeal_line(planned: PlannedConflict, *, at: dt.datetime) -> PlannedLine:
    """The timeline line of a running conflict whose hidden cards a restore dealt again (R10,
    issue 28): after the file's last line, at the conflict's new version."""
    state = planned.values["state"]
    kept = " The lays already on the table stay." if state["phase"] == "resolution" else ""
    return PlannedLine(
        at=at,
        actor=RESTORER,
        text=(
            "Restored from a campaign file in the middle of the hand. No file carries a running "
            "conflict's hidden cards (R10): every one was shuffled afresh and dealt again, and "
            f"each hand, the stock and the discard pile keep their sizes.{kept} New shuffle "
            f"commitment {state['commitment'][:16]}…"
        ),
        seq=max((line.seq for line in planned.timeline), default=0) + 1,
        version=planned.values["version"],
    )
