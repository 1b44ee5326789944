"""Issue 37 (S6): what a request's session costs with each session engine, in one sitting.

* ``django.contrib.sessions.backends.cached_db`` — before: the cache keyed by the cookie value;
* ``dustdevils.sessions`` — after: the same, keyed by an HMAC of it;
* ``django.contrib.sessions.backends.db`` — the plain database engine, for comparison.

Each round logs one person in per engine and sends ``BENCH_REQUESTS`` (200) GETs of a small
logged-in page (the "In play now" banner, ``/running/``: a session read, the user, one query of
its own) through the whole middleware stack, engines interleaved round by round (``BENCH_ROUNDS``,
5). Printed per engine: SQL statements per request, and the median over rounds of the mean
wall time per request. PostgreSQL when DATABASE_URL names one (a fresh database beside it,
dropped afterwards), and Redis as the cache when REDIS_URL is set — the production shape.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

from tests.benchmarks.bench_cost import _drop, _setup

ENGINES = (
    "django.contrib.sessions.backends.cached_db",
    "dustdevils.sessions",
    "django.contrib.sessions.backends.db",
)


def _client(engine: str, user: Any) -> Any:
    from django.conf import settings
    from django.test import Client

    settings.SESSION_ENGINE = engine
    client = Client()
    client.force_login(user)
    assert client.get("/running/").status_code == 200  # warm: the session is in the cache
    return client


def _round(engine: str, user: Any, requests: int) -> tuple[float, float]:
    """(seconds per request, statements per request) for ``requests`` GETs."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = _client(engine, user)
    with CaptureQueriesContext(connection) as queries:
        began = time.perf_counter()
        for _ in range(requests):
            client.get("/running/")
        took = time.perf_counter() - began
    return took / requests, len(queries) / requests


def main() -> int:
    monitor, name, tmp = _setup()
    try:
        from django.conf import settings
        from django.contrib.auth.models import User

        user = User.objects.create_user("bench", password="x" * 20)
        requests = int(os.environ.get("BENCH_REQUESTS", "200"))
        rounds = int(os.environ.get("BENCH_ROUNDS", "5"))
        times: dict[str, list[float]] = {engine: [] for engine in ENGINES}
        statements: dict[str, float] = {}
        for _ in range(rounds):
            for engine in ENGINES:
                seconds, count = _round(engine, user, requests)
                times[engine].append(seconds)
                statements[engine] = count
        print(
            f"database {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}, cache "
            f"{settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, {rounds} rounds x "
            f"{requests} GET /running/, load average {os.getloadavg()[0]:.2f} at the end"
        )
        for engine in ENGINES:
            ms = statistics.median(times[engine]) * 1000
            print(f"  {engine:45} {statements[engine]:.2f} statements  {ms:.2f} ms a request")
    finally:
        if monitor is not None:
            monitor.close()
        _drop(name)
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
