"""The health check (the home page is the campaigns app's: ``campaigns.views.home``)."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as TooLong

from django.db import DatabaseError, connection, connections
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from dustdevils.types import HtmxHttpRequest

# A load balancer gives up on a probe after a few seconds: the answer comes within this many,
# the database's or "unreachable". Getting a connection can take far longer while the database
# is away (the pool waits DATABASE_POOL_TIMEOUT for one; a host that drops packets, until the
# kernel gives up), so the question is asked in a thread of its own.
HEALTH_SECONDS = 1.5

_asking = threading.Lock()
_question: list[Future[bool]] = []  # the one in flight, if any


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return True
    except DatabaseError:
        return False
    finally:
        connections.close_all()  # this thread's connection, back to the pool


def _ask(future: Future[bool]) -> None:
    try:
        future.set_result(_database_answers())
    except BaseException as error:  # noqa: BLE001 — whatever it was, the probe hears of it
        future.set_exception(error)


def database_answers(within: float = HEALTH_SECONDS) -> bool:
    """Whether the database answers ``SELECT 1`` within ``within`` seconds. At most one question
    is in flight per process: probes that come while one hangs wait on the same one, so a
    database that is away costs one stuck thread (a daemon), never one per probe."""
    with _asking:
        if not _question or _question[0].done():
            future: Future[bool] = Future()
            threading.Thread(target=_ask, args=(future,), name="healthz", daemon=True).start()
            _question[:] = [future]
        question = _question[0]
    try:
        return question.result(timeout=within)
    except TooLong:
        return False


@never_cache
@require_GET
def healthz(request: HtmxHttpRequest) -> JsonResponse:
    """For load balancers and ``make run``: the process answers and the database does too —
    503 within ``HEALTH_SECONDS`` when it does not."""
    if not database_answers():
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
