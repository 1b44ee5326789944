"""Celery jobs for campaigns. Thin: the work is in ``campaigns.game_sessions`` and
``campaigns.recovery`` (which defines ``recover_session`` next to its work).

Embedded default: tasks run eagerly, in the request that queued them. With REDIS_URL a worker
(``celery -A dustdevils worker``) runs them, and ONE beat (``celery -A dustdevils beat``) sends
the periodic sweep (settings.CELERY_BEAT_SCHEDULE).

The jobs take ids, never objects (a worker loads fresh rows), and are safe to run twice.
``recover_session`` acks late and is rejected back to the queue if its worker dies, so a job
cut off half-way (its transaction rolled back) runs again in full; database hiccups are
retried with backoff.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from campaigns import game_sessions
from campaigns.recovery import recover_session

__all__ = ["ping", "recover_session", "sweep_stale_sessions"]


@shared_task
def ping() -> str:
    """Answer "pong": proves a worker picks up tasks and returns results (used by tests)."""
    return "pong"


@shared_task(
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=3,
    acks_late=True,
)
def sweep_stale_sessions() -> dict[str, Any]:
    """Periodic (Celery beat): end sessions left open, mark abandoned conflicts, queue lost
    recoveries again."""
    return game_sessions.stale_sweep().as_dict()
