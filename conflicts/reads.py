"""The one read of a conflict's table: ``table_read(conflict_id)``.

Every screen of a conflict — the page, a move's answer, each live stream — and every move (under
the row's lock) reads the same things: the conflict with its campaign and session, its seats with
their characters, players and knacks, the campaign's members, and the timeline. One ORM queryset
reads them (``select_related`` for the rows beside the conflict; the seats with theirs; the
members' roles and the timeline as values, not model instances: a fixed number of queries
however many hands or lines), the same on PostgreSQL and SQLite, and hands them over as a
frozen ``TableRead``.

A ``TableRead`` holds every hand's cards (in ``conflict.state``): it never reaches a template
itself. ``selectors.conflict_view`` turns it into ONE viewer's context (R10).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from django.core.cache import cache
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery

from campaigns.models import Campaign, GameSession, Membership
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict, Event, Seat
from dustdevils.memo import Found
from fights.models import Fight
from tables.errors import readable


@dataclass(frozen=True)
class TimelineEntry:
    """One line of a conflict's timeline, as the screens show it (public words only: the
    events never name a hidden card)."""

    seq: int
    version: int
    text: str
    created_at: datetime
    actor_name: str  # the display name of who made the move, "" for the app itself


Lines = tuple[TimelineEntry, ...]


@dataclass(frozen=True)
class TableRead:
    """A conflict's table as read at one version. Frozen: the live streams share one read among
    all of a process's screens of that table, so nothing may change it."""

    conflict: Conflict  # with its campaign and session
    seats: tuple[Seat, ...]  # with their characters, players and knacks
    timeline: Lines
    continued_by: tuple[Conflict, ...]  # R20: the hands dealt again from this one
    # The members' roles as read with the table; None: read when first asked (``roles``) —
    # a move's read, whose answer never asks (only the live screens do).
    members: Mapping[int, str] | None = None

    @cached_property
    def roles(self) -> Mapping[int, str]:
        """User id -> Membership.Role of everyone in the campaign."""
        if self.members is not None:
            return self.members
        return roles_of(self.conflict.campaign_id)

    @property
    def campaign(self) -> Campaign:
        return self.conflict.campaign

    @property
    def session(self) -> GameSession | None:
        return self.conflict.session

    @property
    def version(self) -> int:
        return int(self.conflict.version)

    @property
    def last_seq(self) -> int:
        """The number of the timeline's last line (a move's lines go on from it)."""
        return self.timeline[-1].seq if self.timeline else 0

    @cached_property
    def state(self) -> engine.ConflictState:
        """The engine's state, parsed once per read (frozen: every screen may share it)."""
        return readable(state_from_data, self.conflict.state)  # 409 if it cannot be read


def seats_of(conflict_id: int) -> tuple[Seat, ...]:
    """The conflict's seats with what every screen shows of them: the character, its player
    (not its password's hash: the seats travel through the shared cache) and its knacks."""
    return tuple(
        Seat.objects.select_related("character__player")
        .defer("character__player__password")
        .prefetch_related("character__knacks")
        .filter(conflict_id=conflict_id)
    )


# The seats as at a version (issue 38): a move reads them under the lock and, when it changed
# no character, hands them on to the version it makes, through the shared cache, before it
# announces that version — the live screens then take them from there instead of reading the
# seats, their characters and knacks again at every version (the move read them a moment
# before). Keyed by the table (its id and when it was made: an id given again is another
# table) and the version; remembered in the process once found.
SEATS_SECONDS = 600
_SEATS: Found[tuple[Seat, ...]] = Found(1024)


def _seats_key(conflict: Conflict, version: int) -> str:
    return f"conflict-seats:{conflict.pk}:{conflict.created_at.timestamp()}:{version}"


def seats_at(conflict: Conflict) -> tuple[Seat, ...]:
    """The seats as at the conflict's version: as the move that made it read them, else read
    now (and shared for the other processes' screens)."""
    key = _seats_key(conflict, conflict.version)
    seats = _SEATS.get(key)
    if seats is None:
        seats = cache.get(key)
        if seats is None:
            seats = seats_of(conflict.pk)
            cache.set(key, seats, SEATS_SECONDS)
        _SEATS.put(key, seats)
    return seats


def hand_on_seats(read: TableRead) -> None:
    """A move that changes no character: its read's seats are the seats at the version it
    makes, shared once it commits (before it is announced: the ``on_commit`` of the move's
    ``apply`` runs before the table kit's publish)."""
    key = _seats_key(read.conflict, read.version + 1)
    seats = read.seats
    transaction.on_commit(lambda: cache.set(key, seats, SEATS_SECONDS))


# What a timeline line shows, read as values (no model instance per line: a long conflict
# has hundreds, and every screen's read and every move's reads them).
TIMELINE_FIELDS = ("seq", "version", "text", "created_at", "actor__first_name", "actor__username")


def with_gunfight(conflicts: QuerySet[Conflict]) -> QuerySet[Conflict]:
    """“This turns into a gunfight”: each conflict's ``gunfight_id``, the last fight started
    from it, in the same statement (a sub-select), for its screens and the list's badge."""
    return conflicts.annotate(
        gunfight_id=Subquery(
            Fight.objects.filter(from_conflict=OuterRef("pk")).order_by("-pk").values("pk")[:1]
        )
    )


def roles_of(campaign_id: int) -> dict[int, str]:
    """User id -> Membership.Role of everyone in the campaign."""
    members = Membership.objects.filter(campaign_id=campaign_id)
    return dict(members.values_list("user_id", "role"))


def table_read(conflict_id: int, *, campaign_id: int | None = None) -> TableRead | None:
    """The conflict's table, or None when there is no such conflict (in ``campaign_id``'s
    campaign, when given), with the members' roles: a page's read, its seats read now."""
    where: dict[str, int] = {"pk": conflict_id}
    if campaign_id is not None:
        where["campaign_id"] = campaign_id
    return table_read_from(Conflict.objects.filter(**where), roles=True)


def screens_read(conflict_id: int) -> TableRead | None:
    """The live screens' one read of a version (``conflicts.streams``): ``table_read``, the
    seats as at the version (``seats_at``)."""
    return table_read_from(Conflict.objects.filter(pk=conflict_id), roles=True, seats=seats_at)


def table_read_from(
    rows: QuerySet[Conflict], *, roles: bool = False,
    seats: Callable[[Conflict], tuple[Seat, ...]] | None = None,
) -> TableRead | None:  # fmt: skip
    """The table of the conflict in ``rows``, or None when it holds none. A move reads it
    through the table kit, its row locked in the same statement
    (``tables.moves.locked_read``), so it sees what the move before it committed; ``roles``
    read now (a screen's read) or when first asked (a move's); ``seats``: how the seats are
    found (read now unless given)."""
    conflict = next(
        iter(with_gunfight(rows.select_related("campaign", "session").order_by())), None
    )
    if conflict is None:
        return None
    over = conflict.phase in Conflict.OVER
    lines = Event.objects.filter(conflict_id=conflict.pk).order_by("seq")
    return TableRead(
        conflict=conflict,
        seats=seats(conflict) if seats is not None else seats_of(conflict.pk),
        members=roles_of(conflict.campaign_id) if roles else None,
        timeline=tuple(
            TimelineEntry(seq, version, text, at, first or username or "")
            for seq, version, text, at, first, username in lines.values_list(*TIMELINE_FIELDS)
        ),
        continued_by=tuple(conflict.continued_by.all()) if over else (),
    )
