"""The session engine: Django's database sessions, read with SQL made once per process.

Every logged-in request reads its session first. ``Session.objects.get(...)`` compiled that
query at every request (~0.5 ms of CPU with the decoding, the database's answer ~0.1 ms); here
the same row is read with SQL written once from the model (dustdevils.rows). Saving, expiry,
``clearsessions`` and the async reads (``aload``: the live streams, once per stream) are
Django's own. ``SESSION_ENGINE = "dustdevils.sessions"``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

from dustdevils.accounts import backends
from dustdevils.rows import ModelColumns, fetch_one


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self) -> Any:
        """As Django's: the session if it has not expired; otherwise None and no key."""
        sql, columns = _session_read()
        # The clock as the ORM would send it (on SQLite a naive UTC string, as stored).
        now = Session._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
        row = fetch_one(sql, [self.session_key, now])
        session = None if row is None else columns.instance(row)
        if session is None:
            self._session_key = None
        return session

    def decode(self, session_data: bytes | str) -> dict[str, Any]:
        """Django's, and a login made before ``ModelBackendReadOnce`` replaced ModelBackend
        reads as one made with it (its subclass: the same checks), so nobody is logged out."""
        data: dict[str, Any] = super().decode(session_data)
        if data.get(BACKEND_SESSION_KEY) == backends.REPLACED:
            data[BACKEND_SESSION_KEY] = backends.BACKEND
        return data


@cache
def _session_read() -> tuple[str, ModelColumns[Session]]:
    columns = ModelColumns.of(Session, "s")
    sql = (
        f"SELECT {columns.sql} FROM {columns.table} "
        f"WHERE {columns.col('session_key')} = %s AND {columns.col('expire_date')} > %s"
    )
    return sql, columns
