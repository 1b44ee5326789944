"""Issue 38: the live screens take a version's seats from the move that made it (it read them
under the lock a moment before and changed no character), through the shared cache, instead of
reading the seats, their characters and knacks again; a move that changes a character, and a
page, read them afresh."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import Character
from conflicts.models import Conflict
from conflicts.reads import screens_read, seats_of, table_read
from conflicts.services import pid_of
from dustdevils import memo
from tests.conflicts.test_views import Table

SEAT_TABLES = ("conflicts_seat", "characters_knack", "characters_character")


def _seat_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if any(t in q["sql"] for t in SEAT_TABLES)]


def _shown(seats: Any) -> list[tuple[Any, ...]]:
    return [
        (s.pid, s.character_id, s.character and s.character.chips,
         s.character and [(k.name, k.rating) for k in s.character.knacks.all()])
        for s in seats
    ]  # fmt: skip


def test_the_screens_take_the_seats_from_the_move_that_made_the_version(
    table: Table,
    player_a: User,
    pc_a: Any,
    posse: Conflict,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the move commits
        table.ok(player_a, "propose", pid=pid_of(pc_a), attributes=["hand", "eye"])
    memo.clear_all()  # another process: only the shared cache holds them
    with CaptureQueriesContext(connection) as queries:
        read = screens_read(posse.pk)
        assert read is not None
        shown = _shown(read.seats)  # their characters and knacks came with them
    assert read.version == 1
    assert _seat_queries(queries) == []
    assert shown == _shown(seats_of(posse.pk))
    assert read.seats[0].character is not None
    assert "password" not in read.seats[0].character.player.__dict__  # never in the cache


def test_a_move_hands_on_the_seats_it_read_fresh_and_a_page_reads_them_now(
    table: Table,
    player_a: User,
    pc_a: Any,
    posse: Conflict,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table.ok(player_a, "propose", pid=pid_of(pc_a), attributes=["hand", "eye"])
    assert screens_read(posse.pk) is not None  # the screens at version 1
    Character.objects.filter(pk=pc_a.pk).update(chips=7)  # spent on the sheet meanwhile
    page = table_read(posse.pk)
    assert page is not None
    assert next(s for s in page.seats if s.pid == pid_of(pc_a)).character.chips == 7
    with django_capture_on_commit_callbacks(execute=True):
        table.ok(player_a, "propose", pid=pid_of(pc_a), attributes=["guts", "heart"])
    read = screens_read(posse.pk)
    assert read is not None
    assert read.version == 2
    assert next(s for s in read.seats if s.pid == pid_of(pc_a)).character.chips == 7


def test_a_version_no_move_handed_seats_on_is_read_and_shared(posse: Conflict) -> None:
    with CaptureQueriesContext(connection) as first:
        assert screens_read(posse.pk) is not None  # version 0: made by no move
    assert _seat_queries(first) != []
    memo.clear_all()
    with CaptureQueriesContext(connection) as again:
        assert screens_read(posse.pk) is not None
    assert _seat_queries(again) == []
