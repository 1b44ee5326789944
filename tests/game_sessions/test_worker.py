"""The recovery on REAL services: a Celery worker consuming from Redis, PostgreSQL underneath.

* A worker in a thread of this process (``start_worker``) runs the recovery queued when the
  Dealer ends a session; running it again changes nothing (R17, R22).
* Racing on PostgreSQL: two ends at once queue one recovery; two recoveries at once restore
  once.
* A worker killed mid-job: a worker SUBPROCESS pauses at the recovery's test hook (every change
  made, nothing committed) and is killed with SIGKILL. PostgreSQL rolls the transaction back;
  the message was never acked (acks_late), so Redis hands it out again after the visibility
  timeout (3 s in tests/game_sessions/worker_settings.py) and a second worker completes the job,
  exactly once. A second variant kills only the prefork child: the parent rejects the message
  back to the queue at once (reject_on_worker_lost) and a new child completes it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import quote

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from campaigns.game_sessions import session_end, session_start
from campaigns.models import GameSession, JobRun
from campaigns.recovery import session_recover
from campaigns.tasks import recover_session
from characters.models import AttributeChange
from dustdevils.celery import app
from tests.game_sessions.conftest import currents, hurt
from tests.kit import race

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

FULL = {"hand": 4, "eye": 3, "guts": 3, "heart": 3}


def wait_for(check: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds}s for {what}")


def job_runs(session: GameSession) -> int:
    return JobRun.objects.filter(session=session).count()


# This process's own queue: under pytest-xdist every process has its own test database, and a
# worker must never take another process's job.
QUEUE = f"dd-sessions-{os.getpid()}"


@pytest.fixture(scope="module")
def thread_worker() -> Iterator[Any]:
    """A real worker in a thread of this process, consuming QUEUE. Choosing the queue narrows
    the app's own list of queues to consume from; it is put back after, for the next worker."""
    queues = app.amqp.queues
    consume_from = queues._consume_from
    with start_worker(
        app,
        pool="solo",
        concurrency=1,
        perform_ping_check=False,
        shutdown_timeout=10,
        queues=[QUEUE],
    ) as worker:
        yield worker
    queues._consume_from = consume_from


@pytest.fixture
def to_queue() -> Iterator[None]:
    """Recoveries queued on commit go to QUEUE (the real path otherwise: on_commit, delay,
    Redis, a worker)."""
    with mock.patch.object(
        recover_session, "delay", lambda *a: recover_session.apply_async(a, queue=QUEUE)
    ):
        yield


@pytest.fixture
def ended(campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> GameSession:
    """Session 1 ended with Abe hurt (Hand 1, Guts 0: the Road to Hell) and Bess hurt (Eye 1),
    its recovery not yet queued anywhere."""
    session = session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, hand=1, guts=0)
    hurt(pc_b, eye=1)
    with mock.patch.object(recover_session, "delay"):
        assert session_end(session_id=session.pk, actor=dealer).ended
    return session


# --- A worker in a thread ------------------------------------------------------------------------


def test_it_recovers_on_a_real_worker_R17_R22(
    thread_worker: Any, to_queue: None, campaign: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    assert app.conf.task_always_eager is False
    assert connection.vendor == "postgresql"
    session = session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, hand=1, guts=0)
    hurt(pc_b, eye=1)
    session_end(session_id=session.pk, actor=dealer, carry_over_ids=[pc_b.pk])  # commits
    wait_for(lambda: job_runs(session), 20, "the recovery queued on commit")
    assert currents(pc_a) == {**FULL, "guts": 0}  # Guts stays at 0 (R17)
    assert currents(pc_b) == {**FULL, "eye": 1}  # carried over (R22)
    assert AttributeChange.objects.filter(session=session, reason="recovery").count() == 1
    again = recover_session.apply_async((session.pk,), queue=QUEUE, ignore_result=False)
    again = again.get(timeout=20)
    assert again["done_now"] is False
    assert job_runs(session) == 1
    assert currents(pc_a) == {**FULL, "guts": 0}
    assert AttributeChange.objects.filter(session=session, reason="recovery").count() == 1


# --- Racing on PostgreSQL ------------------------------------------------------------------------


def test_it_ends_once_when_two_tabs_end_at_once(campaign: Any, dealer: User, pc_a: Any) -> None:
    session = session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, hand=1)
    with mock.patch.object(recover_session, "delay") as delay:
        results: list[Any] = race(2, lambda _: session_end(session_id=session.pk, actor=dealer))
    assert sorted(r.ended for r in results) == [False, True]
    assert delay.call_count == 1


def test_it_recovers_once_when_two_jobs_run_at_once(ended: GameSession, pc_a: Any) -> None:
    results: list[Any] = race(2, lambda _: session_recover(session_id=ended.pk))
    assert sorted(r.done_now for r in results) == [False, True]
    assert job_runs(ended) == 1
    assert currents(pc_a)["hand"] == 4
    assert AttributeChange.objects.filter(character=pc_a, reason="recovery").count() == 1


# --- A worker killed mid-job ---------------------------------------------------------------------


def _database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """``celery -A dustdevils worker`` in a subprocess, on its own queue, against the test
    database, its log in a file."""

    def __init__(self, tmp: Path, queue: str, name: str, *, pool: str, hold: Path | None) -> None:
        self.log = tmp / f"{name}.log"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.game_sessions.worker_settings",
            "DATABASE_URL": _database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "DD_RECOVERY_HOLD": str(hold or ""),
            "DD_VISIBILITY_TIMEOUT": "3",
        }
        command = [
            sys.executable, "-m", "celery", "-A", "dustdevils", "worker",
            f"--pool={pool}", "--concurrency=1", "-Q", queue, "-n", f"{name}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def children(self) -> list[int]:
        out = subprocess.run(
            ["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True, check=False
        ).stdout
        return [int(pid) for pid in out.split()]

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: no chance to ack, reject or roll back by itself
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[list[Worker]]:
    started: list[Worker] = []
    yield started
    for worker in started:
        worker.stop()


def _print_logs(workers: list[Worker]) -> None:
    for worker in workers:
        print(f"--- {worker.log.name} ---\n{worker.text()}")


@pytest.mark.parametrize("pool", ["solo", "prefork"])
def test_it_completes_a_recovery_whose_worker_was_killed(
    pool: str,
    ended: GameSession,
    pc_a: Any,
    pc_b: Any,
    tmp_path: Path,
    workers: list[Worker],
) -> None:
    queue = f"dd-kill-test-{uuid.uuid4().hex[:8]}"
    hold = tmp_path / "hold"
    reached = Path(f"{hold}.reached")
    hold.write_text("hold")
    first = Worker(tmp_path, queue, "first", pool=pool, hold=hold)
    workers.append(first)
    try:
        recover_session.apply_async((ended.pk,), queue=queue)
        wait_for(reached.exists, 60, "the job to reach the hold, changes made, not committed")
        # Nothing is committed yet: another connection sees the session as it ended.
        assert job_runs(ended) == 0
        assert currents(pc_a)["hand"] == 1
        if pool == "solo":
            # The whole worker dies: the message stays unacked in Redis until the visibility
            # timeout, then a second worker gets it.
            first.kill()
            hold.unlink()
            time.sleep(3.5)
            assert job_runs(ended) == 0  # PostgreSQL rolled the killed job back
            workers.append(Worker(tmp_path, queue, "second", pool=pool, hold=None))
        else:
            # Only the pool's child dies: the parent rejects the message back to the queue at
            # once (reject_on_worker_lost), and its next child runs it again.
            (child,) = first.children()
            hold.unlink()
            os.kill(child, signal.SIGKILL)
        wait_for(lambda: job_runs(ended), 60, "the redelivered job to complete")
        time.sleep(1)  # room for a wrong second run to show up
    except BaseException:
        _print_logs(workers)
        raise
    assert job_runs(ended) == 1
    assert currents(pc_a) == {**FULL, "guts": 0}
    assert currents(pc_b) == FULL
    changes = AttributeChange.objects.filter(session=ended, reason="recovery")
    assert sorted(changes.values_list("character__name", "attribute", "before", "after")) == [
        ("Abe Slade", "hand", 1, 4),
        ("Bess Doyle", "eye", 1, 3),
    ]
    logs = "".join(w.text() for w in workers)
    assert logs.count("succeeded") == 1, logs
    if pool == "prefork":
        assert "WorkerLostError" in logs, logs
