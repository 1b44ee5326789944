"""The health check (the home page is the campaigns app's: ``campaigns.views.home``)."""

from __future__ import annotations

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from dustdevils.types import HtmxHttpRequest

# A load balancer gives up on a probe after a few seconds: the answer comes within about 2 s.
# With psycopg's pool (the production default) a connection was waited for up to the
# pool's DATABASE_POOL_TIMEOUT (30 s) while PostgreSQL was down (issue 37).
POOL_WAIT = 0.5  # a pooled connection, if one comes this soon
CONNECT_SECONDS = 2  # else a connection of the probe's own (libpq's connect_timeout: 2 at least)


def database_answers() -> bool:
    """Whether the database answers ``SELECT 1``: through a pooled connection if one comes
    within ``POOL_WAIT`` (the pool tries it on the way out), else through a connection of
    its own, given ``CONNECT_SECONDS`` — so a database that is down is a no at once (its port
    refuses) or within that time, while one just restarted, whose pool is still reconnecting,
    is a yes. Any failure is a no: the probe is answered, never a 500."""
    pool = getattr(connection, "pool", None)  # PostgreSQL with DATABASE_POOL_MAX
    try:
        if pool is None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
            return True
        try:
            with pool.connection(timeout=POOL_WAIT) as conn:
                conn.execute("SELECT 1").fetchone()
            return True
        except Exception:  # noqa: BLE001 — no pooled connection so soon: ask on our own
            params = {**connection.get_connection_params(), "connect_timeout": CONNECT_SECONDS}
            with connection.Database.connect(**params) as conn:  # type: ignore[attr-defined]
                conn.execute("SELECT 1").fetchone()
            return True
    except Exception:  # noqa: BLE001 — unreachable, timed out, refused: all a 503
        return False


@never_cache
@require_GET
def healthz(request: HtmxHttpRequest) -> JsonResponse:
    """For load balancers and ``make run``: the process answers and the database does too —
    503 within ``POOL_WAIT`` + ``CONNECT_SECONDS`` when it does not (issue 37)."""
    if not database_answers():
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
