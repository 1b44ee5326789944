"""How a table is read for its screens: the timeline lines a process already has are not read
again (``conflicts.timelines``), and on PostgreSQL the members and the new lines come in the
conflict's own query — with exactly what separate queries would have given."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Membership
from conflicts import selectors
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.selectors import load_table
from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of
from conflicts.timelines import TimelineEntry, Timelines, timelines

WHEN = datetime(1872, 7, 4, 12, 0, tzinfo=UTC)


def line(seq: int) -> TimelineEntry:
    return TimelineEntry(seq, seq - 1, f"Line {seq}.", WHEN, "")


def lines(*seqs: int) -> tuple[TimelineEntry, ...]:
    return tuple(line(s) for s in seqs)


# --- The lines kept per process (no database) ---------------------------------------------------


def test_a_read_of_the_new_lines_goes_after_the_ones_known() -> None:
    kept = Timelines()
    assert kept.last_seq(7) == 0
    assert kept.merge(7, 0, lines(1, 2)) == lines(1, 2)
    assert kept.last_seq(7) == 2
    assert kept.merge(7, 2, lines(3)) == lines(1, 2, 3)
    assert kept.merge(7, 3, ()) == lines(1, 2, 3)  # nothing new
    assert kept.last_seq(7) == 3


def test_an_older_read_gives_its_own_view_and_leaves_the_newer_lines_kept() -> None:
    """Two reads of the same table at once: the one that began earlier returns what it saw,
    and does not shorten what the later one kept."""
    kept = Timelines()
    kept.merge(7, 0, lines(1, 2, 3, 4))
    assert kept.merge(7, 2, lines(3)) == lines(1, 2, 3)
    assert kept.last_seq(7) == 4


def test_lines_forgotten_since_the_read_began_ask_for_a_read_of_them_all() -> None:
    kept = Timelines()
    kept.merge(7, 0, lines(1, 2))
    kept.clear()
    assert kept.merge(7, 2, lines(3)) is None
    assert kept.merge(7, 0, lines(1, 2, 3)) == lines(1, 2, 3)


def test_it_keeps_the_most_recent_conflicts_only() -> None:
    kept = Timelines()
    kept.KEEP = 2
    for conflict_id in (1, 2, 3):
        kept.merge(conflict_id, 0, lines(1))
    assert kept.last_seq(1) == 0
    assert kept.last_seq(2) == kept.last_seq(3) == 1


# --- Reads of a real table ----------------------------------------------------------------------


@pytest.fixture
def posse(campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Conflict:
    return conflict_create(
        campaign=campaign, actor=dealer, title="The posse at the canyon",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip


def propose(conflict: Conflict, user: User, pc: Any, attributes: tuple[str, str]) -> Conflict:
    seat = Membership.objects.select_related("campaign", "user").get(
        campaign=conflict.campaign, user=user
    )
    return conflict_move(
        conflict_id=conflict.pk, membership=seat,
        move=engine.Propose(pid_of(pc), attributes), version=None,
    )  # fmt: skip


def read_afresh(conflict_id: int) -> selectors.TableData:
    """The table as a process that has read nothing of it yet sees it."""
    timelines.clear()
    data = load_table(conflict_id)
    assert data is not None
    return data


@pytest.mark.django_db(transaction=True)  # reads outside a transaction: their lines are kept
def test_a_process_that_missed_some_moves_reads_the_lines_it_lacks(
    posse: Conflict, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    """Each read brings only the lines after the last one this process has; the timeline is
    always whole and in order, as a read of every line gives it."""
    first = load_table(posse.pk)
    assert first is not None
    assert [e.seq for e in first.events] == [1]
    known = timelines._lines[posse.pk]
    propose(posse, player_a, pc_a, ("hand", "eye"))
    propose(posse, player_b, pc_b, ("guts", "heart"))
    timelines._lines[posse.pk] = known  # as another process, which saw neither move
    with CaptureQueriesContext(connection) as queries:
        later = load_table(posse.pk)
    assert later is not None
    # The lines after the one known, and no more, were asked for.
    assert [q["sql"] for q in queries.captured_queries if "seq" in q["sql"]]
    assert all(
        " > 1" in q["sql"] or "> 1)" in q["sql"]
        for q in queries.captured_queries
        if '"conflicts_event"' in q["sql"] and "seq" in q["sql"]
    )
    assert [e.seq for e in later.events] == [1, 2, 3]
    assert later.events[2].text == "Bess Doyle proposes guts + heart."
    assert later.events == read_afresh(posse.pk).events
    assert later.roles == read_afresh(posse.pk).roles


@pytest.mark.django_db(transaction=True)
def test_a_moves_own_answer_has_its_lines_without_reading_them_back(
    posse: Conflict, player_a: User, pc_a: Any, django_capture_on_commit_callbacks: Any
) -> None:
    load_table(posse.pk)  # this process knows the set-up line
    with django_capture_on_commit_callbacks(execute=True):
        moved = propose(posse, player_a, pc_a, ("hand", "eye"))
    with CaptureQueriesContext(connection) as queries:
        events = selectors.timeline(moved)
    assert queries.captured_queries == []
    assert events == read_afresh(posse.pk).events
    assert events[-1].actor_name == player_a.first_name
    # …and this process keeps them once committed: the next read asks for nothing older.
    assert timelines.last_seq(posse.pk) == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_table_read_is_one_statement(
    posse: Conflict, player_a: User, pc_a: Any, dealer: User
) -> None:
    load_table(posse.pk)  # the seats, read once and kept under their stamp
    propose(posse, player_a, pc_a, ("hand", "eye"))
    with CaptureQueriesContext(connection) as queries:
        data = load_table(posse.pk)
    assert len(queries.captured_queries) == 1
    assert data is not None
    assert [e.text for e in data.events][-1] == "Abe Slade proposes hand + eye."
    assert data.roles == {
        m.user_id: m.role for m in Membership.objects.filter(campaign=posse.campaign)
    }
    assert data.roles[dealer.pk] == Membership.Role.DEALER
    # What the folded query gave equals what separate queries give.
    plain = Conflict.objects.select_related("campaign", "session").get(pk=posse.pk)
    timelines.clear()
    assert selectors.timeline(plain) == data.events
    assert selectors._roles(plain) == data.roles


def _fields(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def assert_same_extras(raw: Conflict, after: int) -> None:
    """What the plain-SQL read folds into its statement equals what the ORM reads apart: the
    seats' stamp, the members' roles, the timeline lines after ``after``."""
    from conflicts.services import with_seats_stamp
    from conflicts.timelines import entries, lines_from_json

    stamped = with_seats_stamp(Conflict.objects.all()).get(pk=raw.pk)
    assert raw.__dict__["seats_stamp"] == stamped.__dict__["seats_stamp"]
    plain = Conflict.objects.get(pk=raw.pk)
    assert selectors._roles(raw) == selectors._roles(plain)
    rows = (
        plain.events.filter(seq__gt=after)
        .order_by("seq")
        .values_list("seq", "version", "text", "created_at", "actor__first_name", "actor__username")
    )
    assert lines_from_json(raw.__dict__["events_json"]) == entries(rows)
    assert raw.__dict__["events_after"] == after


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("in_a_session", [False, True])
def test_the_plain_sql_read_gives_what_the_orm_gives(
    posse: Conflict, player_a: User, pc_a: Any, in_a_session: bool
) -> None:
    """services.read_conflict_row makes its SQL once from the models' fields: the conflict,
    its campaign and its session (or none) come out as the ORM's read makes them, the JSON
    state decoded, with the same annotations."""
    from datetime import date

    from campaigns.models import GameSession
    from conflicts.services import read_conflict_row

    if in_a_session:
        posse.session = GameSession.objects.create(
            campaign=posse.campaign, number=3, date=date(1872, 7, 4), notes="At the canyon"
        )
        posse.save(update_fields=["session"])
    propose(posse, player_a, pc_a, ("hand", "eye"))
    after = timelines.last_seq(posse.pk)
    orm = Conflict.objects.select_related("campaign", "session").get(pk=posse.pk)
    raw = read_conflict_row(posse.pk, campaign=True)
    assert raw is not None
    assert _fields(raw) == _fields(orm)
    assert isinstance(raw.state, dict)
    assert _fields(raw.campaign) == _fields(orm.campaign)
    if in_a_session:
        assert _fields(raw.session) == _fields(orm.session)
    else:
        assert raw.session is None
    assert_same_extras(raw, after)
    # Scoped by campaign: another campaign's id finds nothing.
    assert read_conflict_row(posse.pk, campaign_id=posse.campaign_id + 999, campaign=True) is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # outside a transaction, as a request is
def test_the_locked_plain_sql_read_gives_what_the_orm_gives(
    posse: Conflict, player_a: User, pc_a: Any
) -> None:
    """The move's locked read: the same as the ORM's select_for_update read, with the number of
    the last line and the version as the statement's snapshot saw it; refused outside a
    transaction, as select_for_update() is."""
    from django.db import transaction
    from django.db.transaction import TransactionManagementError

    from conflicts.services import _last_seq, read_conflict_row

    propose(posse, player_a, pc_a, ("hand", "eye"))
    with pytest.raises(TransactionManagementError):
        read_conflict_row(posse.pk, campaign_id=posse.campaign_id, campaign=False, locked=True)
    with transaction.atomic():
        raw = read_conflict_row(
            posse.pk, campaign_id=posse.campaign_id, campaign=False, locked=True
        )
        orm = (
            Conflict.objects.select_for_update(of=("self",))
            .select_related("session")
            .annotate(last_seq=_last_seq())
            .get(pk=posse.pk)
        )
    assert raw is not None
    assert _fields(raw) == _fields(orm)
    assert raw._state.db == orm._state.db
    assert raw._state.adding is orm._state.adding is False
    assert raw.__dict__["last_seq"] == orm.__dict__["last_seq"] == 2
    assert raw.__dict__["snapshot_version"] == raw.version == 1
    assert_same_extras(raw, timelines.last_seq(posse.pk))


@pytest.mark.django_db
def test_the_members_read_apart_are_the_orm_s(posse: Conflict, outsider: User) -> None:
    """After a move the answer reads the members again, with SQL made once (both databases)."""
    plain = Conflict.objects.get(pk=posse.pk)
    expected = dict(
        Membership.objects.filter(campaign_id=posse.campaign_id).values_list("user_id", "role")
    )
    assert selectors._roles(plain) == expected
    assert outsider.pk not in expected
    assert len(expected) == 3
