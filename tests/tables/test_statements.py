"""Issue 38: a conflict move costs at most 10 statements from BEGIN to COMMIT — the row locked
in the read's own first statement (``Table.read_rows``), the members' roles not read for a
move (only the live screens ask for them) — counted as the bench counts them, so it cannot
creep back."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conflicts.services import pid_of
from tests.conflicts.test_views import Table

MOST = 10


def _transaction(sql: list[str]) -> list[str]:
    """The statements from the move's BEGIN to its COMMIT (both counted)."""
    first = next(n for n, q in enumerate(sql) if q.upper().startswith("BEGIN"))
    last = max(n for n, q in enumerate(sql) if q.upper().startswith("COMMIT"))
    return sql[first : last + 1]


@pytest.mark.django_db(transaction=True)  # a request's own transaction: BEGIN … COMMIT
def test_a_conflict_move_costs_at_most_ten_statements(
    table: Table, player_a: User, pc_a: Any
) -> None:
    table.page(player_a)
    client = table.as_user(player_a)
    url, version = table.move_url("propose"), table.version
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            url, {"version": version, "key": "k-1", "pid": pid_of(pc_a),
                  "attributes": ["hand", "eye"]}, HTTP_HX_REQUEST="true",
        )  # fmt: skip
    assert response.status_code == 200
    assert b"proposes hand + eye." in response.content  # the answer, from the move's read
    moved = _transaction([q["sql"] for q in queries.captured_queries])
    assert len(moved) <= MOST, "\n".join(q[:120] for q in moved)
    assert not any("campaigns_membership" in q for q in moved)  # the roles: the screens' only
    if connection.vendor == "postgresql":  # the lock is still taken, in the read's statement
        assert 'FOR UPDATE OF "conflicts_conflict"' in moved[1]
    assert table.version == version + 1


def test_the_count_finds_a_statement_too_many() -> None:
    """What the count reads: a transaction of 11 statements is one too many."""
    sql = ["SELECT 1", "BEGIN", *(["SELECT 2"] * 9), "COMMIT", "SELECT 3"]
    assert len(_transaction(sql)) == MOST + 1
