"""Live conflict screens over Server-Sent Events (DESIGN.md, "The shape of a table action", 3-4).

The broadcaster (``campaigns.live``) only says "conflict-<id> is now at version v". Each open
stream then re-reads the conflict and renders THIS viewer's main panel through the one per-viewer
choke point, ``selectors.conflict_view`` (R10) — the same partial the detail or table page
renders, so no card can reach a stream that the page would not show.

The protocol (the e2e tests and the load benchmark code against it):

* on (re)connect, always a full snapshot first — ``id: v``, ``event: snapshot``, the panel's
  HTML one ``data:`` line per line (``Last-Event-ID`` is never trusted to skip it);
* for every announced version newer than the last one sent, ``event: update`` with ``id: v``;
* ``: ping`` every ``LIVE_PING_SECONDS`` (15) while idle;
* the safety net: no announcement for ``LIVE_POLL_SECONDS`` (30) → the version is re-read from
  the database and an update sent if it moved; while Redis is down (``live.redis_healthy()``)
  ``event: status`` / ``data: reconnecting`` once and that poll every ``LIVE_POLL_SECONDS / 6``
  (at least 1 s); ``data: live`` when Redis is back.

An idle stream holds no database connection: every read runs in a worker thread that closes its
connection before it returns.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.http import (
    Http404,
    HttpRequest,
    HttpResponseForbidden,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns import live
from campaigns.access import membership_for
from conflicts.models import Conflict
from conflicts.selectors import conflict_view

T = TypeVar("T")

PING_SECONDS = 15.0
POLL_SECONDS = 30.0
TICK_SECONDS = 1.0  # how often an idle stream looks at the broadcaster's health (no DB)


@require_GET
async def conflict_stream(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponseBase:
    """The Dealer's console or the player's view, live."""
    return await _open(request, slug, conflict_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponseBase:
    """The shared table view, live (public facts only, R10)."""
    return await _open(request, slug, conflict_id, as_table=True)


# --- Reading (in a worker thread that lets go of its connection) -----------------------------


@dataclass(frozen=True)
class Viewer:
    """Who is watching which screen: enough to re-render it from the database."""

    user_id: int
    slug: str
    conflict_id: int
    as_table: bool
    request: HttpRequest  # for the template's CSRF token and ``request`` context

    @property
    def table(self) -> str:
        return f"conflict-{self.conflict_id}"


def _db_work(function: Callable[..., T]) -> Callable[..., Any]:
    """Run ``function`` in a worker thread and close that thread's connections afterwards, so
    an idle stream never keeps one open."""

    def closing(*args: Any, **kwargs: Any) -> T:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return sync_to_async(closing, thread_sensitive=False)


def _render_sync(viewer: Viewer) -> tuple[int, str]:
    """(version, this viewer's main panel). Raises Http404 for non-members and foreign ids."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=viewer.user_id)
    membership = membership_for(user, viewer.slug)
    conflict = get_object_or_404(
        Conflict.objects.select_related("campaign", "session"),
        pk=viewer.conflict_id,
        campaign=membership.campaign,
    )
    if viewer.as_table:
        context = conflict_view(conflict, membership, as_table=True)
        template = "conflicts/table.html#main"
    else:
        context = conflict_view(conflict, membership)
        context.update(notice="", error="")
        template = "conflicts/detail.html#main"
    return conflict.version, render_to_string(template, context, request=viewer.request)


def _version_sync(conflict_id: int) -> int | None:
    return Conflict.objects.filter(pk=conflict_id).values_list("version", flat=True).first()


_render = _db_work(_render_sync)
_version = _db_work(_version_sync)


def let_go_sync() -> None:
    """Close this thread's connections, unless one is inside a transaction (a test's)."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def _first_sync(viewer: Viewer) -> tuple[int, str]:
    try:
        return _render_sync(viewer)
    finally:
        let_go_sync()


# The snapshot is read in the request's own thread (where the session and the user were just
# looked up, so a plain test client sees its test data too); later reads go to worker threads.
_first = sync_to_async(_first_sync)
let_go = sync_to_async(let_go_sync)


# --- The stream ------------------------------------------------------------------------------


async def _open(
    request: HttpRequest, slug: str, conflict_id: int, *, as_table: bool
) -> HttpResponseBase:
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponseForbidden("Log in first.", content_type="text/plain; charset=utf-8")
    request.user = user  # the templates read it; don't look it up again in another thread
    viewer = Viewer(user.pk, slug, conflict_id, as_table, request)
    # Listen BEFORE the snapshot is read: a move committed in between is then announced to
    # this stream too (and skipped if the snapshot already showed it).
    subscription = live.Updates(viewer.table)
    try:
        version, html = await _first(viewer)  # Http404 for outsiders, before any byte is sent
    except BaseException:
        subscription.close()
        raise
    response = StreamingHttpResponse(
        _events(viewer, subscription, version, html), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    # Also when the body is never iterated (a client gone before the first byte).
    response._resource_closers.append(subscription.close)  # type: ignore[attr-defined]
    return response


def sse(event: str, data: str, version: int | None = None) -> str:
    """One Server-Sent Event; multi-line data goes one ``data:`` line per line."""
    head = f"id: {version}\n" if version is not None else ""
    lines = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"{head}event: {event}\n{lines}\n"


def _seconds(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


async def _events(
    viewer: Viewer, subscription: live.Updates, version: int, html: str
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    ping_every = _seconds("LIVE_PING_SECONDS", PING_SECONDS)
    poll_every = _seconds("LIVE_POLL_SECONDS", POLL_SECONDS)
    sent = version
    healthy = True
    try:
        # The request's own thread looked up the session and the user: let go of its
        # connection now (Django would only close it when the stream ends).
        await let_go()
        yield sse("snapshot", html, version)
        last_ping = last_heard = loop.time()
        while True:
            if live.redis_healthy() != healthy:
                healthy = not healthy
                yield sse("status", "live" if healthy else "reconnecting")
            poll = poll_every if healthy else max(1.0, poll_every / 6)
            now = loop.time()
            wait = min(TICK_SECONDS, last_ping + ping_every - now, last_heard + poll - now)
            announced = await subscription.next(timeout=max(wait, 0.0))
            now = loop.time()
            if announced is None and now - last_heard >= poll:
                last_heard = now  # the safety net: a missed announcement heals itself
                current = await _version(viewer.conflict_id)
                announced = current if current is not None and current > sent else None
            if announced is not None:
                last_heard = now
                if announced > sent:
                    sent = announced
                    try:
                        _, html = await _render(viewer)
                    except Http404:
                        return  # the conflict or the seat is gone: nothing more to show
                    yield sse("update", html, announced)
                    last_ping = loop.time()
                continue
            if now - last_ping >= ping_every:
                last_ping = now
                yield ": ping\n\n"
    finally:
        subscription.close()
