"""Moves racing each other on real PostgreSQL: the conflict row is locked for every move, a
stale Dealer's form changes nothing (docs/architecture.md, "The shape of a table action"). Two
hands moving at once and a double tap are the kit's promises, held for every game in
tests/tables/test_contract.py (the conflict's: tests/conflicts/contract.py)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from campaigns.models import Membership
from conflicts.engine import conflict as engine
from conflicts.models import Conflict, Event
from conflicts.services import ConflictError, HandSpec, conflict_create, conflict_move
from tests.kit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(campaign: Any, dealer: Any, pc_a: Any, pc_b: Any) -> Conflict:
    return conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Showdown on Main Street",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )


def test_it_lets_one_of_many_moves_on_the_same_version_through(
    table: Conflict, campaign: Any, dealer: Any, pc_a: Any, pc_b: Any
) -> None:
    seat = Membership.objects.get(user=dealer, campaign=campaign)
    pids = [f"c{pc_a.pk}", f"c{pc_b.pk}"] * 3
    results = race(
        6,
        lambda i: conflict_move(
            conflict_id=table.pk,
            membership=seat,
            move=engine.Approve(pids[i], ("hand", "eye")),
            version=0,
            key=f"k{i}",
        ),
    )
    stale = [r for r in results if isinstance(r, ConflictError)]
    assert len(stale) == 5
    table.refresh_from_db()
    assert table.version == 1


def test_a_move_that_waited_for_the_lock_reads_what_the_holder_committed(
    table: Conflict, campaign: Any, player_a: Any, player_b: Any, pc_a: Any, pc_b: Any
) -> None:
    """A move that waits for the conflict's lock gets the row as the holder left it, and reads
    the lines after it holds the lock: it numbers its lines on from the holder's, and its
    answer shows them."""
    from django.db import transaction

    from conflicts.reads import table_read

    seat_a = Membership.objects.get(user=player_a, campaign=campaign)
    seat_b = Membership.objects.get(user=player_b, campaign=campaign)
    holding = threading.Event()
    results: dict[str, object] = {}

    def holder() -> None:
        try:
            with transaction.atomic():
                conflict_move(
                    conflict_id=table.pk, membership=seat_a,
                    move=engine.Propose(f"c{pc_a.pk}", ("hand", "eye")), version=None,
                )  # fmt: skip
                holding.set()
                wait_until_a_statement_waits_for_a_lock()
            results["holder"] = "committed"
        finally:
            connection.close()

    def waiter() -> None:
        try:
            holding.wait(10)
            results["waiter"] = conflict_move(
                conflict_id=table.pk, membership=seat_b,
                move=engine.Propose(f"c{pc_b.pk}", ("guts", "heart")), version=None,
            )  # fmt: skip
        except Exception as error:  # noqa: BLE001 — reported by the assertions below
            results["waiter"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=holder), threading.Thread(target=waiter)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    moved = results["waiter"]
    assert isinstance(moved, Conflict), moved
    assert moved.version == 2
    seqs = list(Event.objects.filter(conflict=table).order_by("seq").values_list("seq", flat=True))
    assert seqs == [1, 2, 3]
    # The waiter's answer shows the holder's line too.
    read = table_read(moved.pk)
    assert read is not None
    texts = [line.text for line in read.timeline]
    assert texts[1:] == ["Abe Slade proposes hand + eye.", "Bess Doyle proposes guts + heart."]


def wait_until_a_statement_waits_for_a_lock(timeout: float = 10.0) -> None:
    """Until another session of this database is waiting for a lock (the waiter's statement
    has begun, in its snapshot, and is blocked on the conflict's row)."""
    import time

    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # inside a transaction: kept
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
    raise AssertionError("the other move never waited for the lock")


def test_a_moves_answer_reads_the_members_after_its_commit_R10(
    table: Conflict, campaign: Any, player_a: Any, player_b: Any, pc_a: Any
) -> None:
    """A seat given up while the move was being made is not shown the table as it had it: the
    answer's read, after the commit, has the members as they are now."""
    from conflicts.reads import table_read

    seat_a = Membership.objects.get(user=player_a, campaign=campaign)

    def leave_during_the_move() -> None:
        def leave() -> None:
            try:
                Membership.objects.filter(user=player_b, campaign=campaign).delete()
            finally:
                connection.close()

        thread = threading.Thread(target=leave)  # its own connection: committed at once
        thread.start()
        thread.join(timeout=10)

    def move(seats: Any) -> engine.Move:
        leave_during_the_move()
        return engine.Propose(f"c{pc_a.pk}", ("hand", "eye"))

    moved = conflict_move(conflict_id=table.pk, membership=seat_a, move=move, version=None)
    read = table_read(moved.pk)
    assert read is not None
    roles = read.roles
    assert player_a.pk in roles
    assert player_b.pk not in roles


def test_the_new_conflict_form_applies_once_under_twenty_identical_requests(
    campaign: Any, dealer: Any, pc_a: Any, pc_b: Any
) -> None:
    """Issue 19 #8: a double (or twentyfold) click on "Set up" sends the form's idempotency
    key each time; one conflict is set up, and every request is sent to it."""
    from django.test import Client

    assert connection.vendor == "postgresql"
    url = f"/c/{campaign.slug}/conflicts/new/"
    form = {
        "key": "5f0c1e2d3a4b5c6d7e8f9a0b",
        "title": "Gunfight at the corral", "stakes": 1, "stud": 5,
        f"take_{pc_a.pk}": "on", f"side_{pc_a.pk}": "players",
        f"take_{pc_b.pk}": "on", f"side_{pc_b.pk}": "players",
    }  # fmt: skip
    clients = []
    for _ in range(20):
        client = Client()
        client.force_login(dealer)
        clients.append(client)

    results = race(20, lambda i: clients[i].post(url, form))

    conflict = Conflict.objects.get(campaign=campaign)  # exactly one
    assert Event.objects.filter(conflict=conflict).count() == 1
    assert [getattr(r, "status_code", r) for r in results] == [302] * 20
    assert {r["Location"] for r in results} == {conflict.get_absolute_url()}  # type: ignore[index]
    # Another form (another key) sets up another conflict.
    other = clients[0].post(url, form | {"key": "another-form-another-key"})
    assert other.status_code == 302
    assert Conflict.objects.filter(campaign=campaign).count() == 2
