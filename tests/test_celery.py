"""Celery: eager in the embedded default, a real worker on Redis when REDIS_URL is set."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.result import AsyncResult, EagerResult

from campaigns.tasks import ping
from dustdevils.celery import app


def test_it_registers_the_project_tasks() -> None:
    app.loader.import_default_modules()
    assert "campaigns.tasks.ping" in app.tasks


def test_it_runs_tasks_inline_when_eager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    result = ping.delay()
    assert isinstance(result, EagerResult)
    assert result.get(timeout=1) == "pong"


@pytest.fixture(scope="session")
def celery_worker() -> Iterator[Any]:
    """A real worker, in a thread of this process, consuming from the Redis broker."""
    with start_worker(
        app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=10
    ) as worker:
        yield worker


@pytest.mark.redis
def test_it_runs_ping_on_a_real_worker(celery_worker: Any) -> None:
    assert app.conf.task_always_eager is False
    result = ping.delay()
    assert isinstance(result, AsyncResult)
    assert not isinstance(result, EagerResult)
    assert result.get(timeout=10) == "pong"
    assert result.successful()
