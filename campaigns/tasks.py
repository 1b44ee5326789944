"""Celery jobs for campaigns."""

from __future__ import annotations

from celery import shared_task


@shared_task
def ping() -> str:
    """Answer "pong": proves a worker picks up tasks and returns results (used by tests)."""
    return "pong"
