"""Live conflict screens over Server-Sent Events (DESIGN.md, "The shape of a table action", 3-4).

The broadcaster (``dustdevils.live.broadcast``) only says "conflict-<id> is now at version v".
Each open stream then re-reads the conflict and renders THIS viewer's main panel through the one
per-viewer choke point, ``selectors.conflict_view`` (R10) — the same partial the detail or table
page renders, so no card can reach a stream that the page would not show.

The protocol (the e2e tests and the load benchmark code against it):

* on (re)connect, always a full snapshot first — ``id: v``, ``event: snapshot``, the panel's
  HTML one ``data:`` line per line (``Last-Event-ID`` is never trusted to skip it);
* for announced versions newer than the last one sent, ``event: update`` with ``id: v`` of the
  newest: a stream that fell behind jumps to it (its screen is current; nothing is lost);
* ``: ping`` every ``LIVE_PING_SECONDS`` (15) while idle;
* the safety net: every ``LIVE_POLL_SECONDS`` (30) one query per process reads the versions of
  every conflict with a screen open there and announces those that moved (``_safety_net``);
  while Redis is down (``live.redis_healthy()``, announced to idle streams by ``live.HEALTH``)
  ``event: status`` / ``data: reconnecting`` once and that poll every ``LIVE_POLL_SECONDS / 6``
  (at least 1 s); ``data: live`` when Redis is back.

An idle stream holds no database connection and costs nothing between its pings. Reads of the
table are shared by all of a process's screens of that table (``SharedReads``: one per version,
in a worker thread that gives its connection back); each screen is then rendered from that read
in the event loop, without a query.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from campaigns.models import Membership
from conflicts.models import Conflict
from conflicts.reads import TableRead, table_read
from conflicts.selectors import conflict_view
from dustdevils.live import broadcast as live
from dustdevils.live.sse import (
    PING,
    PING_SECONDS,
    POLL_SECONDS,
    EventStream,
    let_go,
    let_go_sync,
    log_in_first,
    seconds,
    sse,
)

T = TypeVar("T")
log = logging.getLogger(__name__)


@require_GET
async def conflict_stream(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponseBase:
    """The Dealer's console or the player's view, live."""
    return await _open(request, slug, conflict_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponseBase:
    """The shared table view, live (public facts only, R10)."""
    return await _open(request, slug, conflict_id, as_table=True)


# --- Reading: once per table and version in this process, shared by its screens -------------


@dataclass(frozen=True)
class Viewer:
    """Who is watching which screen: enough to re-render it from a read of the table."""

    user_id: int
    slug: str
    conflict_id: int
    as_table: bool
    # The viewer's CSRF token for the forms of their screen, got once when the stream opens:
    # a panel is rendered from its own context alone (no request, so no context processors
    # at every update — the screens use none of what they add).
    csrf_token: str

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


def _versions_sync(conflict_ids: list[int]) -> list[tuple[int, int]]:
    return list(Conflict.objects.filter(pk__in=conflict_ids).values_list("pk", "version"))


_versions = _db_work(_versions_sync)
_load = _db_work(table_read)


class SharedReads:
    """One read of a table per version in this process, however many of its screens are open
    here: the first stream that needs version v starts the read, the others await the same
    one, and a stream that fell behind jumps straight to the newest version (one render, not
    one per missed version; its screen is current either way). At most ``LIVE_DB_READS``
    reads run at once, so many streams cannot exhaust the database's connections.

    The newest read of each table is kept while a screen of it is open in this process. The
    reads hold every hand's cards; only ``conflict_view`` turns one into a viewer's context
    (R10). One per event loop (its futures belong to that loop)."""

    def __init__(self, limit: int) -> None:
        self._latest: dict[int, TableRead] = {}
        self._reading: dict[int, asyncio.Future[TableRead | None]] = {}
        self._gate = asyncio.Semaphore(limit)

    async def at_least(self, conflict_id: int, version: int) -> TableRead | None:
        """The table at ``version`` or newer (None when the conflict is gone) — or at the
        database's own version when that is lower: an announced version is only a hint (one
        from a shared Redis may be forged), the database says where the table really is.
        A version is announced only after its commit, so a read begun after the announcement
        sees it; one already under way may not, hence a second read then — and never more,
        whatever was announced."""
        for attempt in range(2):
            known = self._latest.get(conflict_id)
            if known is not None and known.version >= version:
                return known
            reading = self._reading.get(conflict_id)
            begun_before = reading is not None
            if reading is None:
                reading = asyncio.ensure_future(self._read(conflict_id))
                self._reading[conflict_id] = reading
            data = await asyncio.shield(reading)
            if data is None:
                return None
            if data.version >= version or attempt or not begun_before:
                return data
            # That read began before ``version`` was committed: read again.
        raise AssertionError("unreachable")

    async def _read(self, conflict_id: int) -> TableRead | None:
        try:
            async with self._gate:
                data: TableRead | None = await _load(conflict_id)
        finally:
            self._reading.pop(conflict_id, None)
        if data is None:
            self._latest.pop(conflict_id, None)
            return None
        known = self._latest.get(conflict_id)
        if known is None or data.version >= known.version:
            self._latest[conflict_id] = data
        open_here = {int(t.removeprefix("conflict-")) for t in live.watched("conflict-")}
        for closed in self._latest.keys() - open_here:  # no screen of it left in this process
            del self._latest[closed]
        return data


_reads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SharedReads] = (
    weakref.WeakKeyDictionary()
)


def shared_reads() -> SharedReads:
    loop = asyncio.get_running_loop()
    reads = _reads.get(loop)
    if reads is None:
        reads = _reads[loop] = SharedReads(int(getattr(settings, "LIVE_DB_READS", 4)))
    return reads


async def _safety_net() -> None:
    """The slow poll under the broadcaster, ONE per process (event loop), not one per screen:
    every ``LIVE_POLL_SECONDS`` (a sixth of it, at least 1 s, while Redis is away) read the
    versions of every conflict with a screen open here, in one query, and announce the ones
    that moved — so an announcement Redis lost still reaches every screen."""
    while True:
        poll = seconds("LIVE_POLL_SECONDS", POLL_SECONDS)
        await asyncio.sleep(poll if live.redis_healthy() else max(1.0, poll / 6))
        ids = [int(t.removeprefix("conflict-")) for t in live.watched("conflict-")]
        if not ids:
            continue
        try:
            versions = await _versions(ids)
        except Exception as error:  # noqa: BLE001 — the database is away: try again later
            log.warning("live: the safety-net poll failed (%s)", error)
            continue
        for conflict_id, version in versions:
            live.deliver(f"conflict-{conflict_id}", version)


_nets: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def ensure_safety_net() -> None:
    loop = asyncio.get_running_loop()
    task = _nets.get(loop)
    if task is None or task.done():
        _nets[loop] = loop.create_task(_safety_net())


def _panel(viewer: Viewer, data: TableRead) -> str | None:
    """This viewer's main panel from a shared read, or None when they are no longer in the
    campaign (or the conflict moved elsewhere). No query: safe inside the event loop."""
    conflict = data.conflict
    role = data.roles.get(viewer.user_id)
    if role is None or conflict.campaign.slug != viewer.slug:
        return None
    membership = Membership(campaign=conflict.campaign, user_id=viewer.user_id, role=role)
    if viewer.as_table:
        context = conflict_view(data, membership, as_table=True)
        template = "conflicts/table.html#main"
    else:
        context = conflict_view(data, membership)
        context.update(notice="", error="")
        template = "conflicts/detail.html#main"
    context["csrf_token"] = viewer.csrf_token
    return render_to_string(template, context)


_panel_in_thread = sync_to_async(_panel, thread_sensitive=False)


async def render_panel(viewer: Viewer, data: TableRead) -> str | None:
    """``_panel`` in the event loop (it is CPU work; a thread would only add a hop), or in a
    worker thread if something in the screen still wanted the database."""
    try:
        return _panel(viewer, data)
    except SynchronousOnlyOperation:
        log.warning("live: a screen of conflict %s queried the database", viewer.conflict_id)
        result: str | None = await _panel_in_thread(viewer, data)
        return result


def _render_sync(viewer: Viewer) -> tuple[int, str]:
    """(version, this viewer's main panel), read now, through the same ``_panel`` as every
    later update. Raises Http404 for non-members and foreign ids."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(pk=viewer.user_id)
    membership_for(user, viewer.slug)  # 404 for outsiders, before anything is read
    data = table_read(viewer.conflict_id)
    panel = None if data is None else _panel(viewer, data)
    if data is None or panel is None:
        raise Http404("No such conflict in this campaign.")
    return data.version, panel


def _first_sync(viewer: Viewer) -> tuple[int, str]:
    try:
        return _render_sync(viewer)
    finally:
        let_go_sync()


# The snapshot is read in the request's own thread (where the session and the user were just
# looked up, so a plain test client sees its test data too); later reads are shared.
_first = sync_to_async(_first_sync)


# --- The stream ------------------------------------------------------------------------------


async def _open(
    request: HttpRequest, slug: str, conflict_id: int, *, as_table: bool
) -> HttpResponseBase:
    user = await request.auser()
    if not user.is_authenticated:
        return log_in_first()
    request.user = user  # known now: nothing later looks it up again in another thread
    viewer = Viewer(user.pk, slug, conflict_id, as_table, get_token(request))
    # Listen BEFORE the snapshot is read: a move committed in between is then announced to
    # this stream too (and skipped if the snapshot already showed it).
    subscription = live.Updates(viewer.table, watch_health=True)
    try:
        version, html = await _first(viewer)  # Http404 for outsiders, before any byte is sent
    except BaseException:
        subscription.close()
        raise
    return EventStream(_events(viewer, subscription, version, html), subscription)


async def _events(
    viewer: Viewer, subscription: live.Updates, version: int, html: str
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    ping_every = seconds("LIVE_PING_SECONDS", PING_SECONDS)
    poll_every = seconds("LIVE_POLL_SECONDS", POLL_SECONDS)
    sent = version
    healthy = True
    reads = shared_reads()
    try:
        await let_go()
        yield sse("snapshot", html, version)
        ensure_safety_net()
        last_ping = loop.time()
        while True:
            if live.redis_healthy() != healthy:
                healthy = not healthy
                yield sse("status", "live" if healthy else "reconnecting")
            # Asleep until the next ping, an announcement (the broadcaster's, or the safety
            # net's), or a flip of Redis's health (live.HEALTH): an idle stream costs nothing.
            # While Redis is away, look at its health again every poll.
            wait = last_ping + ping_every - loop.time()
            if not healthy:
                wait = min(wait, max(1.0, poll_every / 6))
            got = await subscription.next(timeout=max(wait, 0.0))
            if got is not None:
                newest = max(got, subscription.drain())  # coalesce: the newest only
                if newest != live.HEALTH and newest > sent:
                    data = await reads.at_least(viewer.conflict_id, newest)
                    panel = None if data is None else await render_panel(viewer, data)
                    if data is None or panel is None:
                        return  # the conflict or the seat is gone: nothing more to show
                    if data.version > sent:  # the screen only moves forward
                        sent = data.version
                        yield sse("update", panel, sent)
                        last_ping = loop.time()
                continue
            if loop.time() - last_ping >= ping_every:
                last_ping = loop.time()
                yield PING
    finally:
        subscription.close()
