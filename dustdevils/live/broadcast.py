"""Live updates: "table T is now at version v", and nothing else — no card ever travels here.

Each open screen re-renders its own fragments from the database when its table moves, through
the one per-viewer view (R10). Two broadcasters, one interface:

* in-process (the embedded default): ``publish`` hands the version straight to this process's
  waiting streams;
* Redis (``REDIS_URL``): ``publish`` sends it on a Redis channel; each process runs ONE
  subscriber that fans the versions out to its own streams, so a move made on one uvicorn
  process reaches a player whose stream is on another.

``updates(table)`` is what a stream awaits. If Redis goes away the subscriber keeps retrying
(``redis_healthy()`` says so, and the streams fall back to their slow poll) and resumes when
Redis returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

Listener = Callable[[str, int], None]

_lock = threading.Lock()
_listeners: set[Listener] = set()
_latest: dict[str, int] = {}
_queues: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = {}
_subscriber: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
_redis_state = {"healthy": True}
# Put into the queue of a subscription made with ``watch_health`` when Redis's health flips,
# so an idle stream can sleep until its next ping instead of looking every second.
HEALTH = -1
_health_watchers: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]] = set()


def _set_healthy(healthy: bool) -> None:
    if _redis_state["healthy"] == healthy:
        return
    _redis_state["healthy"] = healthy
    with _lock:
        watchers = list(_health_watchers)
    for loop, queue in watchers:
        with contextlib.suppress(RuntimeError):  # that stream's loop has closed
            loop.call_soon_threadsafe(queue.put_nowait, HEALTH)


def channel_prefix() -> str:
    """The Redis channels of THIS deployment: ``<LIVE_NAMESPACE>:table:`` (the namespace is the
    cache's key prefix unless set apart), so two deployments sharing a Redis never hear each
    other's tables (issue 19 #3)."""
    return f"{settings.LIVE_NAMESPACE}:table:"


def publish(table: str, version: int) -> None:
    """Announce that ``table`` is now at ``version``. Called on commit of a move
    (``transaction.on_commit``): a stream that hears of it reads the committed version."""
    if settings.BROADCASTER != "redis" or not _send_to_redis(table, version):
        deliver(table, version)


def _send_to_redis(table: str, version: int) -> bool:
    """Publish on Redis (every process's subscriber, this one's too, delivers it); False when
    Redis is away — the caller then delivers to this process, and the others' slow poll
    catches up."""
    try:
        _sync_redis().publish(channel_prefix() + table, str(version))
        return True
    except Exception as error:  # noqa: BLE001 — an outage must not fail the move
        log.warning("live: Redis publish failed (%s); streams fall back to polling", error)
        _set_healthy(False)
        return False


def publish_on_commit(table: str) -> None:
    """Announce on commit that ``table`` changed, for things without a version column (a
    character's chips and attributes): the version is the commit's clock in microseconds,
    which only grows."""
    from django.db import transaction

    transaction.on_commit(lambda: publish(table, time.time_ns() // 1000))


def deliver(table: str, version: int, *, hint: bool = False) -> None:
    """Hand a version to this process's listeners and waiting streams.

    A version this process knows to be real (its own move's, or one the safety net read from
    the database) is remembered, and an older one is then not handed on. A ``hint`` (what Redis
    carried: anyone who can publish there could have sent it) is handed on but never
    remembered, so a forged version "far ahead" cannot make this process drop the real ones:
    every stream re-reads the table from the database and moves only to what it finds there.
    """
    with _lock:
        if version <= _latest.get(table, -1):
            return
        if not hint:
            _latest[table] = version
        listeners = list(_listeners)
        waiting = list(_queues.get(table, ()))
    for listener in listeners:
        listener(table, version)
    for loop, queue in waiting:
        with contextlib.suppress(RuntimeError):  # that stream's loop has closed
            loop.call_soon_threadsafe(queue.put_nowait, version)


def watched(prefix: str) -> list[str]:
    """The tables starting with ``prefix`` that have a subscription in this process."""
    with _lock:
        return [table for table in _queues if table.startswith(prefix)]


def forget() -> None:
    """Forget the versions delivered so far (tests: a flushed test database reuses ids)."""
    with _lock:
        _latest.clear()


def latest(table: str) -> int | None:
    with _lock:
        return _latest.get(table)


def subscribe(listener: Listener) -> Callable[[], None]:
    """Call ``listener(table, version)`` on every delivery; returns the unsubscribe function."""
    with _lock:
        _listeners.add(listener)

    def unsubscribe() -> None:
        with _lock:
            _listeners.discard(listener)

    return unsubscribe


def redis_healthy() -> bool:
    return settings.BROADCASTER != "redis" or _redis_state["healthy"]


class Updates:
    """One stream's subscription to ``table``: registered at once (so nothing announced after
    it is made can be missed), read with ``next(timeout)``, ended with ``close()``. Must be made
    inside the stream's running event loop."""

    def __init__(self, table: str, *, watch_health: bool = False) -> None:
        self.table = table
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._entry = (self._loop, self._queue)
        with _lock:
            _queues.setdefault(table, set()).add(self._entry)
            if watch_health:
                _health_watchers.add(self._entry)
        self._started = False

    def _start(self) -> None:
        # The Redis subscriber starts with the first read, not here: a response that is never
        # read (a test client's) must not leave a task behind in a short-lived event loop.
        if not self._started:
            self._started = True
            if settings.BROADCASTER == "redis":
                _ensure_subscriber(self._loop)

    async def wait(self) -> int:
        """The next announced version, however long it takes."""
        self._start()
        return await self._queue.get()

    async def next(self, timeout: float) -> int | None:
        """The next announced version (or ``HEALTH``, if watching), or None if ``timeout``
        seconds pass without one."""
        self._start()
        try:
            async with asyncio.timeout(timeout):  # no task per wait, unlike wait_for
                return await self._queue.get()
        except TimeoutError:
            return None

    def drain(self) -> int:
        """The newest version already waiting (-1 if none), emptying the queue: a stream that
        fell behind renders only the newest."""
        newest = -1
        while not self._queue.empty():
            newest = max(newest, self._queue.get_nowait())
        return newest

    def close(self) -> None:
        with _lock:
            _health_watchers.discard(self._entry)
            waiting = _queues.get(self.table)
            if waiting is not None:
                waiting.discard(self._entry)
                if not waiting:
                    del _queues[self.table]

    def __enter__(self) -> Updates:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


async def updates(table: str) -> AsyncIterator[int]:
    """The versions ``table`` moves to, as they are announced, for as long as you listen."""
    with Updates(table) as subscription:
        while True:
            yield await subscription.wait()


def _ensure_subscriber(loop: asyncio.AbstractEventLoop) -> None:
    task = _subscriber.get(loop)
    if task is None or task.done():
        _subscriber[loop] = loop.create_task(_redis_subscriber())


async def _redis_subscriber() -> None:
    """One per process (per event loop): Redis channel → this process's streams. Retries with
    backoff while Redis is away."""
    import redis.asyncio as aioredis

    delay = 0.5
    while True:
        client: Any = None
        try:
            client = aioredis.from_url(settings.REDIS_URL)
            pubsub = client.pubsub()
            await pubsub.psubscribe(_glob_escape(channel_prefix()) + "*")
            _set_healthy(True)
            delay = 0.5
            async for message in pubsub.listen():
                if message.get("type") == "pmessage":
                    heard(message["channel"], message["data"])
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 — keep trying until Redis is back
            if _redis_state["healthy"]:
                log.warning("live: Redis subscriber lost (%s); retrying", error)
            _set_healthy(False)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
        finally:
            if client is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.aclose(), 2)


def heard(channel: bytes, data: bytes) -> None:
    """One message from Redis: a hint that a table moved. Junk (not a version number, another
    deployment's channel) is dropped quietly — it must not break the subscriber."""
    prefix = channel_prefix().encode()
    if not channel.startswith(prefix):
        return
    try:
        table, version = channel[len(prefix) :].decode(), int(data)
    except (UnicodeDecodeError, ValueError):
        return
    if version >= 0 and table:
        deliver(table, version, hint=True)


def _glob_escape(text: str) -> str:
    """``text`` matched literally in a Redis PSUBSCRIBE pattern."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)


_sync_client: dict[str, Any] = {}


def _sync_redis() -> Any:
    import redis

    client = _sync_client.get(settings.REDIS_URL)
    if client is None:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1
        )
        _sync_client[settings.REDIS_URL] = client
    return client
