"""Writes to conflicts: set-up, and every table move (DESIGN.md, "The shape of a table action").

``conflict_move`` is the one way a move reaches a conflict: in one transaction it locks the row,
recognises a repeated submit (idempotency key) and a stale form (version), checks who may make
the move, applies it with the engine, writes the chips to the ledger, saves the new state with
``version + 1``, appends the timeline and, on commit, tells the live layer the table moved.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import (
    F,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
    prefetch_related_objects,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, Greatest
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from campaigns.models import Campaign, DevilRating, GameSession, Membership
from characters.models import AttributeChange, Character, Knack
from characters.rules import ATTRIBUTES
from characters.services import CharacterError, characters_leave_play_now, chips_change
from conflicts.combat.services import fight_note
from conflicts.engine import conflict as engine
from conflicts.engine.cards import new_salt, system_rng
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.models import Conflict, Event, Fight, MoveKey, Seat
from conflicts.timelines import TimelineEntry, lines_from_json, timelines
from dustdevils.rows import ModelColumns, fetch_one

DEALER_MOVES = (
    engine.Approve, engine.AwardExtraCard, engine.Deal, engine.AwardRedraw, engine.DealerFold,
    engine.Call, engine.Reveal, engine.CloseBids, engine.OverrideDifficulty, engine.Finish,
    engine.ApproveKnack,
)  # fmt: skip


class ConflictError(ValueError):
    """A move the table refuses, in plain words; nothing was changed."""


class StaleMove(ConflictError):
    """The form was made for an older version of the table."""


@dataclass(frozen=True)
class HandSpec:
    """A hand to seat: a character (PC or important NPC), or a Dealer's stud hand."""

    character: Character | None = None
    stud_size: int = 0
    stud_name: str = "The Dealer's stud"
    side: str | None = None
    goal: str = ""


def pid_of(character: Character) -> str:
    return f"c{character.pk}"


def _devil_rating(character: Character, session: GameSession | None) -> int:
    """R21: the Devil rating its player set for the session, when one is set; otherwise the
    character's standing rating."""
    if session is not None:
        rating = (
            DevilRating.objects.filter(session=session, character=character)
            .values_list("rating", flat=True)
            .first()
        )
        if rating is not None:
            return int(rating)
    return character.devil_rating or 0


def _participant(
    spec: HandSpec, index: int, session: GameSession | None = None
) -> tuple[engine.Participant, Character | None]:
    character = spec.character
    if character is None:
        pid = "stud" if index == 0 else f"stud{index + 1}"
        side = spec.side or "dealer"
        return (
            engine.Participant(
                pid, spec.stud_name, engine.Kind.STUD, side=side, stud_size=spec.stud_size
            ),
            None,
        )
    if character.out_of_play:
        raise ConflictError(f"{character.name} has left play.")
    kind = engine.Kind.PC if character.is_pc else engine.Kind.NPC
    if kind == engine.Kind.NPC and not character.is_important:
        raise ConflictError(
            f"{character.name} has no Devil: minor characters go in the Dealer's stud hand (R12)."
        )
    side = spec.side or ("players" if kind == engine.Kind.PC else "dealer")
    return (
        engine.Participant(
            pid_of(character),
            character.name,
            kind,
            side=side,
            currents={a: character.current(a) for a in ATTRIBUTES},
            devil_rating=_devil_rating(character, session),
        ),
        character,
    )


def conflict_create(
    *,
    campaign: Campaign,
    actor: User,
    title: str,
    hands: Sequence[HandSpec],
    stakes: int = 0,
    session: GameSession | None = None,
    recovery: tuple[Character, int] | None = None,
    previous: Conflict | None = None,
    winner_bonus_pids: Sequence[str] = (),
    fight: Fight | None = None,
    fight_round: int | None = None,
) -> Conflict:
    """Set up a conflict (the Dealer's first step). Characters must belong to the campaign."""
    title = " ".join(title.split())
    if not title:
        raise ConflictError("Give the conflict a title, e.g. “The posse at the canyon”.")
    participants: list[engine.Participant] = []
    seats: list[tuple[str, Character | None, str]] = []
    studs = 0
    for spec in hands:
        if spec.character is not None and spec.character.campaign_id != campaign.pk:
            raise ConflictError("Every character must belong to this campaign.")
        participant, character = _participant(spec, studs if spec.character is None else 0, session)
        if character is None:
            studs += 1
        if participant.pid in winner_bonus_pids:
            participant = engine.Participant(
                **{**participant.__dict__, "winner_bonus": 1}  # R11 house rule
            )
        participants.append(participant)
        seats.append((participant.pid, character, spec.goal))
    recovery_key = (pid_of(recovery[0]), recovery[1]) if recovery else None
    try:
        state = engine.new_conflict(participants, stakes=stakes, recovery=recovery_key)
    except engine.IllegalMove as error:
        raise ConflictError(str(error)) from error
    with transaction.atomic():
        conflict = Conflict.objects.create(
            campaign=campaign,
            session=session,
            title=title,
            state=state_to_data(state),
            phase=state.phase.value,
            previous=previous,
            created_by=actor,
            fight=fight,
            fight_round=fight_round if fight is not None else None,
        )
        if fight is not None:  # R32: the conflict settles an action of that round
            if fight.campaign_id != campaign.pk:
                raise ConflictError("That fight belongs to another campaign.")
            fight_note(
                fight_id=fight.pk, actor=actor,
                text=f"Settled by a conflict (R32): “{title}”.",
            )  # fmt: skip
        Seat.objects.bulk_create(
            Seat(conflict=conflict, pid=pid, character=character, goal=goal[:300])
            for pid, character, goal in seats
        )
        Event.objects.create(
            conflict=conflict,
            seq=1,
            version=0,
            actor=actor,
            text=f"The Dealer sets up “{title}”"
            + (f", Stakes {stakes} chip{'s' if stakes != 1 else ''}." if stakes else "."),
        )
    return conflict


def _seats_prefetch() -> Prefetch[Any]:
    return Prefetch(
        "seats",
        queryset=Seat.objects.select_related("character__player").prefetch_related(
            "character__knacks"
        ),
    )


def with_seats_stamp(conflicts: QuerySet[Conflict]) -> QuerySet[Conflict]:
    """On PostgreSQL, each conflict with ``seats_stamp``: the row versions (``xmin``) of its
    seats, their characters, their players and their knacks, in one string. Any write to any
    of those rows — a sheet saved, chips granted by ``.update()``, a knack added or removed,
    the admin, a raw statement, an older app process during a rolling deploy — gives a new
    stamp, so ``read_seats_for_screens`` can keep the seats it read per process and know for
    certain when they are still current. Elsewhere (SQLite, the embedded default) no stamp:
    the seats are read every time."""
    if connection.vendor != "postgresql":
        return conflicts
    return conflicts.annotate(seats_stamp=RawSQL(_seats_stamp_sql(), ()))


# --- The hot reads, on PostgreSQL, as plain SQL --------------------------------------------------
# A busy table is read at every move: under its lock by the move, and by every other process for
# its screens. The ORM compiled that query afresh each time (select_related, five sub-selects:
# about 0.25 ms of a 0.6 ms read). Here the SQL is made once per process from the models'
# own fields, and the rows become model instances as the ORM would make them (its converters
# applied: the state's JSON is decoded by JSONField). tests/conflicts/test_table_reads.py
# checks that both give the same.


@dataclass(frozen=True)
class _RowShape:
    """The SQL of a read and how to turn its row into instances."""

    sql: str
    models: tuple[ModelColumns[Any], ...]  # the conflict, (its campaign,) its session
    extras: tuple[str, ...]  # the annotations after the models' columns


@lru_cache(maxsize=4)
def _conflict_row(*, campaign: bool, locked: bool) -> _RowShape:
    q = connection.ops.quote_name
    table = q(Conflict._meta.db_table)
    models: list[ModelColumns[Any]] = [ModelColumns.of(Conflict, table)]
    joins = []
    conflict = models[0]
    if campaign:
        models.append(ModelColumns.of(Campaign, q(Campaign._meta.db_table)))
        joins.append(
            f"INNER JOIN {models[-1].alias} ON {models[-1].col('id')} = {conflict.col('campaign')}"
        )
    models.append(ModelColumns.of(GameSession, q(GameSession._meta.db_table)))
    joins.append(
        f"LEFT OUTER JOIN {models[-1].alias} ON {models[-1].col('id')} = {conflict.col('session')}"
    )
    event = q(Event._meta.db_table)
    extras = {
        "seats_stamp": _seats_stamp_sql(),
        "roles_json": _roles_json_sql(),
        "events_json": _events_json_sql(),
    }
    if locked:
        extras["last_seq"] = (
            f"SELECT coalesce(max(e2.seq), 0) FROM {event} e2 WHERE e2.conflict_id = {table}.id"
        )
        extras["snapshot_version"] = f"SELECT v.version FROM {table} v WHERE v.id = {table}.id"
    columns = [m.sql for m in models] + [f"({sql})" for sql in extras.values()]
    sql = (
        f"SELECT {', '.join(columns)} FROM {table} {' '.join(joins)} "
        f"WHERE {table}.id = %s AND {table}.campaign_id = coalesce(%s, {table}.campaign_id)"
        + (f" FOR UPDATE OF {table}" if locked else "")
    )
    return _RowShape(sql, tuple(models), tuple(extras))


def read_conflict_row(
    conflict_id: int, *, campaign_id: int | None = None, campaign: bool, locked: bool = False
) -> Conflict | None:
    """PostgreSQL only: the conflict with its session (and its campaign when ``campaign``) and,
    from the same statement, what its screens read besides: ``seats_stamp``, ``roles_json``
    (the campaign's members and their roles) and ``events_json`` (the timeline lines after
    ``events_after``, the last one this process has: events are only ever appended), both as
    JSON text for ``selectors.table_data``; with ``locked``, its row locked, ``last_seq`` and
    ``snapshot_version`` too. None when there is no such conflict (in that campaign)."""
    if locked and not connection.in_atomic_block:  # as select_for_update() refuses it
        raise TransactionManagementError("A locked read must be inside a transaction.")
    shape = _conflict_row(campaign=campaign, locked=locked)
    events_after = timelines.last_seq(conflict_id)
    row = fetch_one(shape.sql, [events_after, conflict_id, campaign_id])
    if row is None:
        return None
    instances: list[Any] = []
    start = 0
    for columns in shape.models:
        instances.append(columns.instance(row, start))
        start += len(columns.names)
    conflict: Conflict = instances[0]
    # As select_related leaves them: the related objects cached, the ids as read.
    if campaign:
        Conflict._meta.get_field("campaign").set_cached_value(conflict, instances[1])
    Conflict._meta.get_field("session").set_cached_value(conflict, instances[-1])
    conflict.__dict__.update(zip(shape.extras, row[start:], strict=True))
    conflict.__dict__["events_after"] = events_after
    return conflict


@lru_cache(maxsize=1)
def _roles_json_sql() -> str:
    q = connection.ops.quote_name
    membership, conflict = q(Membership._meta.db_table), q(Conflict._meta.db_table)
    return (
        "SELECT coalesce(json_agg(json_build_array(m.user_id, m.role))::text, '[]') "
        f"FROM {membership} m WHERE m.campaign_id = {conflict}.campaign_id"
    )


@lru_cache(maxsize=1)
def _events_json_sql() -> str:
    """The lines as ``selectors.timeline`` makes them: the actor's first name, else their
    username, else "" (no actor: the app itself)."""
    q = connection.ops.quote_name
    event, user, conflict = (
        q(Event._meta.db_table), q(User._meta.db_table), q(Conflict._meta.db_table)
    )  # fmt: skip
    return (
        "SELECT coalesce(json_agg(json_build_array(e.seq, e.version, e.text, e.created_at, "
        "coalesce(nullif(u.first_name, ''), u.username, '')) ORDER BY e.seq)::text, '[]') "
        f"FROM {event} e LEFT JOIN {user} u ON u.id = e.actor_id "
        f"WHERE e.conflict_id = {conflict}.id AND e.seq > %s"
    )


@lru_cache(maxsize=1)
def _seats_stamp_sql() -> str:
    q = connection.ops.quote_name
    seat, character, user, knack, conflict = (
        q(Seat._meta.db_table), q(Character._meta.db_table), q(User._meta.db_table),
        q(Knack._meta.db_table), q(Conflict._meta.db_table),
    )  # fmt: skip
    return (
        "SELECT coalesce(string_agg(s.id::text || '.' || s.xmin::text || '.' "
        "|| coalesce(c.xmin::text, '') || '.' || coalesce(u.xmin::text, '') || '.' || "
        f"coalesce((SELECT string_agg(k.id::text || '.' || k.xmin::text, ',' ORDER BY k.id) "
        f"FROM {knack} k WHERE k.character_id = c.id), ''), ';' ORDER BY s.id), '') "
        f"FROM {seat} s LEFT JOIN {character} c ON c.id = s.character_id "
        f"LEFT JOIN {user} u ON u.id = c.player_id WHERE s.conflict_id = {conflict}.id"
    )


class _SeatReads:
    """The seats (with characters, players, knacks) this process last read per conflict,
    under the stamp they were read at. A table's every move reads them twice (the move and
    its answer, and every other process's live screens); they change rarely. The objects
    are shared: nothing may change them (``_apply_results`` reads its own)."""

    KEEP = 1024

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reads: OrderedDict[int, tuple[str, list[Seat]]] = OrderedDict()

    def get(self, conflict_id: int, stamp: str) -> list[Seat] | None:
        with self._lock:
            known = self._reads.get(conflict_id)
            if known is None or known[0] != stamp:
                return None
            self._reads.move_to_end(conflict_id)
            return known[1]

    def put(self, conflict_id: int, stamp: str, seats: list[Seat]) -> None:
        with self._lock:
            self._reads[conflict_id] = (stamp, seats)
            self._reads.move_to_end(conflict_id)
            while len(self._reads) > self.KEEP:
                self._reads.popitem(last=False)

    def clear(self) -> None:
        """Forget every read (tests: a flushed test database hands out ids again)."""
        with self._lock:
            self._reads.clear()


seat_reads = _SeatReads()


def read_seats_for_screens(conflict: Conflict) -> None:
    """Make ``conflict.seats.all()`` the seats with what every screen shows of them: the
    character, its player and its knacks. Read once per instance (a second call finds them
    read); with a ``seats_stamp`` (``with_seats_stamp``) the ones this process read at that
    stamp are used again without a query."""
    if "seats" in getattr(conflict, "_prefetched_objects_cache", {}):
        return
    stamp: str | None = conflict.__dict__.get("seats_stamp")
    seats = seat_reads.get(conflict.pk, stamp) if stamp else None
    if seats is None:
        prefetch_related_objects([conflict], _seats_prefetch())
        if stamp:
            seat_reads.put(conflict.pk, stamp, list(conflict.seats.all()))
        return
    # As prefetch_related_objects leaves them: the related manager's queryset, already read.
    read = conflict.seats.all()
    read._result_cache = list(seats)
    read._prefetch_done = True  # type: ignore[attr-defined]
    conflict._prefetched_objects_cache = {  # type: ignore[attr-defined]
        **getattr(conflict, "_prefetched_objects_cache", {}),
        "seats": read,
    }


def controlled_pids(conflict: Conflict, membership: Membership) -> set[str]:
    """The hands this member plays: a player their own characters; the Dealer every NPC and
    stud hand."""
    return controlled_pids_among(conflict.seats.select_related("character"), membership)


def controlled_pids_among(seats: Iterable[Seat], membership: Membership) -> set[str]:
    """``controlled_pids`` over seats already read (with their characters)."""
    out = set()
    for seat in seats:
        character = seat.character
        if (membership.is_dealer and (character is None or not character.is_pc)) or (
            character is not None and character.is_pc and character.player_id == membership.user_id
        ):
            out.add(seat.pid)
    return out


def _check_may(move: engine.Move, seats: Iterable[Seat], membership: Membership) -> None:
    if isinstance(move, DEALER_MOVES):
        if not membership.is_dealer:
            raise ConflictError("Only the Dealer can do that.")
        return
    pid = getattr(move, "pid", None)
    if pid is None or pid not in controlled_pids_among(seats, membership):
        raise ConflictError("That is not your hand to play.")


def conflict_move(
    *,
    conflict_id: int,
    membership: Membership,
    move: engine.Move | Callable[[Mapping[str, Seat]], engine.Move],
    version: int | None,
    key: str = "",
    rng: random.Random | None = None,
) -> Conflict:
    """Apply one move (see the module docstring). Raises ``ConflictError`` with a plain message
    (and changes nothing) when the move is refused; returns the conflict unchanged for a
    repeated submit. ``move`` may be a function of the seats (a form's ``move``), called with
    the seats read here."""
    with transaction.atomic():
        conflict = _locked(conflict_id, membership)
        if key and not _claim(conflict, key):
            return conflict  # a double click: the first submit already did it
        if version is not None and version != conflict.version:
            raise StaleMove("The table has moved on since that page was loaded; here it is now.")
        # Read as the screens read them (table_data): the answer to this move uses them
        # again, unless the move changes a character (below).
        read_seats_for_screens(conflict)
        seats = {s.pid: s for s in conflict.seats.all()}
        if callable(move):  # a form's move, made with the seats as they are now
            move = move(seats)
        _check_may(move, seats.values(), membership)
        move = _with_current_values(move, seats.values(), conflict.session)
        state = state_from_data(conflict.state)
        try:
            outcome = engine.apply(state, move, rng or system_rng())
        except engine.IllegalMove as error:
            raise ConflictError(str(error)) from error
        for chip in outcome.chips:
            seat = seats[chip.pid]
            assert seat.character is not None
            try:
                chips_change(
                    character_id=seat.character.pk,
                    amount=chip.amount,
                    reason=chip.reason,
                    actor=membership.user,
                    note=conflict.title,
                    session=conflict.session,
                    conflict=conflict,
                )
            except CharacterError as error:  # not enough chips: the whole move is refused
                raise ConflictError(str(error)) from error
        events = list(outcome.events)
        if outcome.state.phase == engine.Phase.DONE and state.phase != engine.Phase.DONE:
            events += _apply_results(outcome.state, seats, conflict)
        if outcome.chips or outcome.state.phase == engine.Phase.DONE:
            # Characters changed: the answer reads them again (inside this transaction, so
            # not from, nor into, the process's seats read at the stamp).
            conflict.refresh_from_db(fields=["seats"])
            conflict.seats_stamp = None  # type: ignore[attr-defined]
        conflict.state = state_to_data(outcome.state)
        conflict.phase = outcome.state.phase.value
        conflict.version += 1
        conflict.save(update_fields=["state", "phase", "version", "last_move_at"])
        _append_events(conflict, events, membership.user)
        # The members as the locked read saw them, before the move: the answer (and this
        # process's screens, which it is offered to) reads them again after the commit, so a
        # seat given up meanwhile is not shown the table as it had it (R10).
        conflict.__dict__.pop("roles_json", None)
        if conflict.session_id:
            GameSession.objects.filter(pk=conflict.session_id).update(
                last_activity_at=conflict.last_move_at
            )
        _publish_on_commit(conflict)
    return conflict


def _locked(conflict_id: int, membership: Membership) -> Conflict:
    """The conflict, its row locked until the move commits, read as the screens read it
    (``table_data``: the answer to the move uses it again) with the number of its last line.

    On PostgreSQL one statement, unless it had to wait for the lock: PostgreSQL then returns
    the row as the move that held the lock left it, but the sub-selects beside it (the last
    line, the timeline, the seats' stamp, the members) as they were when the statement began
    — ``snapshot_version`` tells, and they are read again, under the lock, in a second one.
    SQLite has no row locks (one writer at a time): the ORM reads it, the rest apart."""

    def read() -> Conflict | None:
        if connection.vendor == "postgresql":
            return read_conflict_row(
                conflict_id, campaign_id=membership.campaign_id, campaign=False, locked=True
            )
        return (
            Conflict.objects.select_for_update(of=("self",))
            .select_related("session")
            .annotate(last_seq=_last_seq())
            .filter(pk=conflict_id, campaign_id=membership.campaign_id)
            .first()
        )

    conflict = read()
    waited = (
        conflict is not None
        and "snapshot_version" in conflict.__dict__
        and (conflict.__dict__["snapshot_version"] != conflict.version)
    )
    if waited:
        conflict = read()  # a new statement sees every commit, under the lock held since
    if conflict is None:
        raise Conflict.DoesNotExist("No such conflict in this campaign.")
    conflict.campaign = membership.campaign  # the same row, read with the membership
    return conflict


def _last_seq() -> Coalesce:
    """The number of the conflict's last timeline line (read under its row lock: the next
    move's lines go on from it)."""
    last = Event.objects.filter(conflict=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    return Coalesce(Subquery(last), 0)


def _append_events(conflict: Conflict, texts: Sequence[str], actor: User) -> None:
    """The move's lines, numbered on from the last. The answer to the move gets the whole
    timeline without reading it back, and once the lines are committed (not before: a
    refused move rolls them back) this process keeps them (``conflicts.timelines``)."""
    last: int = conflict.last_seq  # type: ignore[attr-defined]
    events = Event.objects.bulk_create(
        Event(conflict=conflict, seq=last + i, version=conflict.version, actor=actor, text=text)
        for i, text in enumerate(texts, start=1)
    )
    written = tuple(
        TimelineEntry(e.seq, e.version, e.text, e.created_at, actor.first_name or actor.username)
        for e in events
    )
    # The lines before the move, as read under the lock (PostgreSQL): no longer the whole
    # timeline once the move is made, so the answer must not take them for it.
    read = conflict.__dict__.pop("events_json", None)
    after: int = conflict.__dict__.get("events_after", last)
    lines_read = lines_from_json(read) if read is not None else ()
    before = timelines.merge(conflict.pk, after, lines_read, keep=False)
    if before is not None and (before[-1].seq if before else 0) == last:
        conflict.timeline_lines = before + written  # type: ignore[attr-defined]
    # Otherwise (this process no longer knew the older lines) the answer reads them.
    conflict_id = conflict.pk

    def keep() -> None:
        if read is not None:
            timelines.merge(conflict_id, after, lines_read)
        timelines.merge(conflict_id, last, written)

    transaction.on_commit(keep)


def _claim(conflict: Conflict, key: str) -> bool:
    """Store the move's idempotency key, in one statement; False when it is already there (a
    double click whose first submit committed). Inside the move's transaction: a move that is
    then refused rolls the key back with everything else, so the same form can be sent again."""
    q = connection.ops.quote_name
    table, conflict_id, key_, created_at = (
        q(MoveKey._meta.db_table), q("conflict_id"), q("key"), q("created_at")
    )  # fmt: skip
    with connection.cursor() as cursor:  # PostgreSQL and SQLite ≥ 3.35 both speak this
        cursor.execute(
            f"INSERT INTO {table} ({conflict_id}, {key_}, {created_at}) VALUES (%s, %s, %s) "
            f"ON CONFLICT ({conflict_id}, {key_}) DO NOTHING RETURNING {q('id')}",
            [conflict.pk, key[:64], timezone.now()],
        )
        return cursor.fetchone() is not None


def _with_current_values(
    move: engine.Move, seats: Iterable[Seat], session: GameSession | None
) -> engine.Move:
    """R19a: a hand is sized and dealt from its character's values as they are now (Difficulty
    taken in another conflict meanwhile, a recovery, an improvement all count), and a Deal gets
    its secret salt (R10)."""
    if isinstance(move, engine.Deal):
        return replace(move, salt=move.salt or new_salt(), current=_current_values(seats, session))
    if isinstance(move, engine.Approve):
        return replace(move, current=_current_values(seats, session).get(move.pid))
    return move


def _current_values(
    seats: Iterable[Seat], session: GameSession | None
) -> dict[str, engine.Current]:
    """The seats' characters' current values and session Devil ratings (R21), read now."""
    pids = {seat.character_id: seat.pid for seat in seats if seat.character_id is not None}
    fields = [f"{a}_current" for a in ATTRIBUTES]
    rows = Character.objects.filter(pk__in=pids).values("pk", "devil_rating", *fields)
    session_ratings: dict[int, int] = {}
    if session is not None:
        session_ratings = dict(
            DevilRating.objects.filter(session=session, character_id__in=pids).values_list(
                "character_id", "rating"
            )
        )
    return {
        pids[row["pk"]]: engine.Current(
            attributes={a: int(row[f"{a}_current"]) for a in ATTRIBUTES},
            devil_rating=int(session_ratings.get(row["pk"], row["devil_rating"] or 0)),
        )
        for row in rows
    }


def _apply_results(
    state: engine.ConflictState, seats: Mapping[str, Seat], conflict: Conflict | None = None
) -> list[str]:
    """The conflict is over: Difficulty taken (R9), a won recovery (R22) — both go into the
    characters' history (AttributeChange) — and a last stand's character leaves play (R17)."""
    leaving = [seats[pid].character for pid in engine.leaving_play(state)]
    characters_leave_play_now(character_ids=[c.pk for c in leaving if c is not None])
    lines: list[str] = []
    for pid, losses in engine.attribute_losses(state).items():
        character = seats[pid].character
        if character is None or not losses:
            continue
        before = _currents(character.pk)  # locked: the history's "before" is exact
        for a, n in losses.items():  # R19a: values changed since the points were placed
            if n > before[a]:
                lost = n - before[a]
                lines.append(
                    f"{character.name}: {lost} point{'s' if lost != 1 else ''} of Difficulty on "
                    f"{a.title()} could not be placed: {a.title()} is already {before[a]} (R9)."
                )
        Character.objects.filter(pk=character.pk).update(
            **{f"{a}_current": Greatest(F(f"{a}_current") - n, 0) for a, n in losses.items()}
        )
        _record(character, before, AttributeChange.Reason.DIFFICULTY, conflict)
    if engine.recovery_won(state) and state.recovery is not None:
        pid, points = state.recovery
        character = seats[pid].character
        if character is not None:
            before = _currents(character.pk)
            character = Character.objects.get(pk=character.pk)  # our own: the seat's is shared
            # The points go back where the most Difficulty was taken; an attribute at 0 does
            # not recover (R17, R22).
            for _ in range(points):
                hurt = [
                    a for a in ATTRIBUTES
                    if 0 < character.current(a) < character.rating(a)
                ]  # fmt: skip
                if not hurt:
                    break
                worst = max(hurt, key=lambda a: character.rating(a) - character.current(a))
                setattr(character, f"{worst}_current", character.current(worst) + 1)
            character.save(update_fields=[f"{a}_current" for a in ATTRIBUTES])
            _record(character, before, AttributeChange.Reason.RESTORE, conflict)
    return lines


def _currents(character_id: int) -> dict[str, int]:
    row = Character.objects.select_for_update().values(*(f"{a}_current" for a in ATTRIBUTES))
    values = row.get(pk=character_id)
    return {a: int(values[f"{a}_current"]) for a in ATTRIBUTES}


def _record(
    character: Character, before: Mapping[str, int], reason: str, conflict: Conflict | None
) -> None:
    """One history row per attribute that changed (characters.AttributeChange)."""
    after = _currents(character.pk)
    from dustdevils.live import broadcast as live

    live.publish_on_commit(f"character-{character.pk}")  # open sheets refresh
    AttributeChange.objects.bulk_create(
        AttributeChange(
            character_id=character.pk,
            session_id=conflict.session_id if conflict else None,
            conflict=conflict,
            attribute=a,
            before=before[a],
            after=after[a],
            reason=reason,
        )
        for a in ATTRIBUTES
        if before[a] != after[a]
    )


def _publish_on_commit(conflict: Conflict) -> None:
    from dustdevils.live import broadcast as live

    table, version = f"conflict-{conflict.pk}", conflict.version
    transaction.on_commit(lambda: live.publish(table, version))


def conflict_deal_again(*, conflict_id: int, membership: Membership) -> Conflict:
    """R20: "Deal again" — a new conflict linked to the last, the same hands on the same sides
    with the same goals, a fresh deck; R11's winner bonus if the campaign switched it on. Once
    per conflict: a second click finds the continuation already made and returns it."""
    if not membership.is_dealer:
        raise ConflictError("Only the Dealer can deal again.")
    with transaction.atomic():
        previous = (
            Conflict.objects.select_for_update(of=("self",))
            .select_related("campaign", "session")
            .get(pk=conflict_id, campaign_id=membership.campaign_id)
        )
        existing = previous.continued_by.order_by("created_at").first()
        if existing is not None:
            return existing
        state = state_from_data(previous.state)
        if state.phase != engine.Phase.DONE:
            raise ConflictError("Only a finished conflict can be dealt again.")
        seats = {s.pid: s for s in previous.seats.select_related("character")}
        hands = [
            HandSpec(
                character=seats[p.pid].character,
                stud_size=p.stud_size,
                stud_name=p.name,
                side=p.side,
                goal=seats[p.pid].goal,
            )
            for p in state.participants
            if p.kind == engine.Kind.STUD or not seats[p.pid].character.out_of_play  # type: ignore[union-attr]
        ]
        # R11's house rule: the winner of the last hand gets a card — a player's or an NPC's
        # hand, never the Dealer's stud (a stud's size is the Dealer's call, R12).
        winner = state.participant(state.winner) if state.winner else None
        bonus = (
            [winner.pid]
            if previous.campaign.winner_bonus and winner and winner.kind != engine.Kind.STUD
            else []
        )
        # R17: whoever's last stand that was has left play; the table is told, not surprised.
        gone = [
            s.character.name for s in seats.values()
            if s.character is not None and s.character.out_of_play
        ]  # fmt: skip
        fresh = conflict_create(
            campaign=previous.campaign,
            actor=membership.user,
            title=previous.title,
            hands=hands,
            stakes=state.stakes,
            session=previous.session,
            previous=previous,
            winner_bonus_pids=bonus,
        )
        for seq, name in enumerate(gone, start=2):
            Event.objects.create(
                conflict=fresh, seq=seq, version=0, actor=membership.user,
                text=f"{name} has left play (R17) and is not dealt in.",
            )  # fmt: skip
        return fresh
