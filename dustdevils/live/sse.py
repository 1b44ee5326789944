"""What every live stream shares: the Server-Sent Events format, the response that carries it,
and letting go of the database between events.

A stream is an async view returning ``EventStream``: it subscribes to its table with
``broadcast.Updates`` before it reads anything (so nothing announced after that is missed),
answers 403 ``Log in first.`` to anonymous visitors and 404 to non-members before the first
byte, and holds no database connection while it waits.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.http import HttpResponseForbidden, StreamingHttpResponse

from dustdevils.live import broadcast as live
from dustdevils.live.broadcast import Updates

PING_SECONDS = 15.0
POLL_SECONDS = 30.0


def seconds(name: str, default: float) -> float:
    """A timing setting of the streams (``LIVE_PING_SECONDS``, ``LIVE_POLL_SECONDS``)."""
    return float(getattr(settings, name, default))


def sse(event: str, data: str, version: int | None = None) -> str:
    """One Server-Sent Event; multi-line data goes one ``data:`` line per line."""
    head = f"id: {version}\n" if version is not None else ""
    # One replace instead of a line-by-line join: a 17 KiB panel has hundreds of lines, and
    # every screen of a busy table gets one per move. Same output as joining splitlines().
    text = data.replace("\r\n", "\n").replace("\r", "\n")
    if text.endswith("\n"):
        text = text[:-1]
    lines = "data: " + text.replace("\n", "\ndata: ") + "\n"
    stamp = f": sent {time.time():.6f}\n" if settings.LIVE_SENT_AT else ""
    return f"{head}event: {event}\n{stamp}{lines}\n"


PING = ": ping\n\n"


def log_in_first() -> HttpResponseForbidden:
    """A stream's answer to an anonymous visitor (a stream cannot redirect to the login)."""
    return HttpResponseForbidden("Log in first.", content_type="text/plain; charset=utf-8")


class EventStream(StreamingHttpResponse):
    """A ``text/event-stream`` response, never buffered by a proxy. ``subscription`` is closed
    with the response, also when its body is never read (a client gone before the first
    byte): the server closes every response once it is done with it (``close()``)."""

    def __init__(self, events: AsyncIterator[str], subscription: Updates) -> None:
        super().__init__(events, content_type="text/event-stream")
        # no-store, not no-cache: a stream carries what only its viewer may see, so no cache
        # (a proxy's, the browser's disk) may keep a copy of it, not even to revalidate.
        self["Cache-Control"] = "no-store"
        self["X-Accel-Buffering"] = "no"
        self.subscription = subscription

    def close(self) -> None:
        self.subscription.close()
        super().close()


def let_go_sync() -> None:
    """Close this thread's connections, unless one is inside a transaction (a test's)."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


# The request's own thread looked up the session and the user: a stream lets go of its
# connection before it starts waiting (Django would only close it when the stream ends).
let_go = sync_to_async(let_go_sync)


async def changed_events(subscription: Updates, last_seen: int | None = None) -> AsyncIterator[str]:
    """The events of a page that only hears "look again" (the character sheet, the campaign and
    session pages, the "In play now" banner): ``event: changed`` with the version announced
    (the page then GETs its changing sections through its own view), ``: ping`` while idle.
    ``last_seen``: the version the page knew (Last-Event-ID, or ``?since=``); a newer one this
    process knows of is sent at once.

    The safety net, as the tables have it (``dustdevils.live.tables``; issue 37, B7): while
    Redis is away (``live.redis_healthy()``; a subscription made with ``watch_health`` hears
    it flip) an announcement made in another process never arrives, so the stream says
    ``event: status`` / ``reconnecting`` and sends ``changed`` every ``LIVE_POLL_SECONDS / 6``
    (at least 1 s): the page looks again by itself; ``live`` when Redis is back."""
    loop = asyncio.get_running_loop()
    ping_every = seconds("LIVE_PING_SECONDS", PING_SECONDS)
    poll_every = max(1.0, seconds("LIVE_POLL_SECONDS", POLL_SECONDS) / 6)
    healthy = True
    try:
        await let_go()  # the request thread's session lookup
        yield ": connected\n\n"
        newest = live.latest(subscription.table)
        if last_seen is not None and newest is not None and newest > last_seen:
            yield sse("changed", str(newest), newest)  # missed while reconnecting
        last_sent = loop.time()
        while True:
            if live.redis_healthy() != healthy:
                healthy = not healthy
                yield sse("status", "live" if healthy else "reconnecting")
            wait = ping_every if healthy else poll_every
            version = await subscription.next(timeout=max(0.0, last_sent + wait - loop.time()))
            if version == live.HEALTH:
                continue
            last_sent = loop.time()
            if version is not None:
                yield sse("changed", str(version), version)
            elif healthy:
                yield PING
            else:  # the poll: the page asks its own view again
                now = time.time_ns() // 1000
                yield sse("changed", str(now), now)
    finally:
        subscription.close()
