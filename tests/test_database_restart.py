"""Issue 28 #5: a database restart is invisible to the players.

When PostgreSQL restarts (or terminates the app's connections) every connection idle in
psycopg's pool is dead. Unless the pool tries each one as it hands it out, every dead one fails
one request (a 503 from /healthz, a 500 from anything else). With the settings' pool —
``CONN_HEALTH_CHECKS``, which Django turns into psycopg_pool's ``check`` — a dead connection is
replaced on the way out and no request notices.

The test process runs without a pool (``dustdevils/settings_test.py``); this test turns the
pool of the real settings on for itself, and closes it again at the end.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import close_old_connections, connection, connections
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from dustdevils.env import parse_database_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

POOLED = 4  # connections in the pool when PostgreSQL drops them


@pytest.fixture
def pooled() -> Iterator[None]:
    """The test database's connections through psycopg's pool, configured as in production."""
    configured = parse_database_url(os.environ["DATABASE_URL"])
    pool = dict(configured["OPTIONS"]["pool"], max_size=POOLED + 2)
    settings_dict = connection.settings_dict  # shared by every thread's connection
    saved = settings_dict["CONN_HEALTH_CHECKS"]
    connections.close_all()
    settings_dict["OPTIONS"]["pool"] = pool
    settings_dict["CONN_HEALTH_CHECKS"] = configured["CONN_HEALTH_CHECKS"]
    try:
        yield
    finally:
        connections.close_all()
        # pytest-django drops the test database: no pooled connection may stay open.
        connection.close_pool()  # type: ignore[attr-defined]  # not in django-stubs 5.2
        settings_dict["OPTIONS"].pop("pool", None)
        settings_dict["CONN_HEALTH_CHECKS"] = saved


def fill_the_pool() -> None:
    """``POOLED`` requests' worth of connections at once (one per thread), back in the pool."""
    together = threading.Barrier(POOLED)

    def query() -> None:
        try:
            User.objects.count()
            together.wait(timeout=10)  # all held at once: the pool opens POOLED of them
        finally:
            connections.close_all()  # back to the pool, as at a request's end

    threads = [threading.Thread(target=query) for _ in range(POOLED)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    close_old_connections()


def terminate_the_other_backends() -> int:
    """What a PostgreSQL restart does to the app's connections, from a connection of its own."""
    db = connection.settings_dict
    with psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        autocommit=True,
    ) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return sum(1 for (terminated,) in rows if terminated)


def as_served(client: Client, method: str, path: str, **data: str) -> int:
    """One request as a server runs it: connections are released before and after (the test
    client leaves that out), so each request takes one from the pool."""
    close_old_connections()
    try:
        response = client.get(path) if method == "get" else client.post(path, data)
    finally:
        close_old_connections()
    return response.status_code


def test_it_survives_postgresql_dropping_every_pooled_connection(
    pooled: None, dealer: User
) -> None:
    client = Client(raise_request_exception=False)  # a failure is a 500 here, as in production
    client.force_login(dealer)
    assert as_served(client, "get", reverse("healthz")) == 200
    fill_the_pool()

    assert terminate_the_other_backends() >= POOLED

    statuses = [as_served(client, "get", reverse("healthz")) for _ in range(POOLED + 1)]
    statuses += [
        as_served(client, "post", reverse("campaigns:create"), name=f"After the restart {i}")
        for i in range(3)
    ]
    statuses.append(as_served(client, "get", reverse("home")))
    assert [s for s in statuses if s >= 500] == [], statuses
    assert Campaign.objects.filter(name__startswith="After the restart").count() == 3
