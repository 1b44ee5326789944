"""Live table screens over Server-Sent Events: ONE protocol for every kind of table — a conflict
(``conflicts.streams``) and every declared game, a fight's and a saloon game's too
(``tables.site.live_table``). docs/architecture.md, "The shape of a table action", steps 3–4.

The broadcaster (``dustdevils.live.broadcast``) only says "<kind>-<id> is now at version v". A
kind of table (``LiveTable``) says how to read one of its tables (``load``, the same read its
pages use) and how to turn a read into ONE viewer's main panel (``panel``, through that game's
per-viewer choke point: ``conflict_view`` R10, ``fight_view`` R30, ``saloon_screen``), so no card
can reach a stream that the page would not show.

The protocol (the e2e tests and the load benchmark code against it):

* on (re)connect, always a full snapshot first — ``id: v``, ``event: snapshot``, the panel's
  HTML one ``data:`` line per line (``Last-Event-ID`` is never trusted to skip it);
* for announced versions newer than the last one sent, ``event: update`` with ``id: v`` of the
  newest: a stream that fell behind jumps to it (its screen is current; nothing is lost);
* ``: ping`` every ``LIVE_PING_SECONDS`` (15) while idle;
* the safety net: every ``LIVE_POLL_SECONDS`` (30) one query per process and kind reads the
  versions of every table with a screen open there and announces those that moved; while Redis
  is down (``live.redis_healthy()``, announced to idle streams by ``live.HEALTH``) ``event:
  status`` / ``data: reconnecting`` once and that poll every ``LIVE_POLL_SECONDS / 6`` (at least
  1 s); ``data: live`` when Redis is back.

Anonymous visitors get 403 ``Log in first.``; non-members and foreign ids 404, before any byte.
An idle stream holds no database connection and costs nothing between its pings. Reads are
shared by all of a process's screens of a table (``SharedReads``: one per version, in a worker
thread that gives its connection back, at most ``LIVE_DB_READS`` at once); each screen is then
rendered from that read in the event loop, without a query.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.utils import translation

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

log = logging.getLogger(__name__)
T = TypeVar("T")


class Read(Protocol):
    """What a kind of table's ``load`` returns: anything with the version it was read at."""

    @property
    def version(self) -> int: ...


R = TypeVar("R", bound=Read)


@dataclass(frozen=True)
class Viewer:
    """Who is watching which screen: enough to re-render it from a read of the table."""

    user_id: int
    slug: str
    table_id: int
    as_table: bool
    # The viewer's CSRF token for the forms of their screen, got once when the stream opens:
    # a panel is rendered from its own context alone (no request, so no context processors
    # at every update — the screens use none of what they add).
    csrf_token: str
    # The language the viewer reads (the request's when the stream opened: their choice, else
    # their browser's): every panel of theirs is rendered in it, whoever else is watching.
    language: str = ""

    def speaking(self) -> translation.override:
        """The viewer's language, active while one of their panels is rendered."""
        return translation.override(self.language or settings.LANGUAGE_CODE)


def open_here(kind: str) -> set[int]:
    """The ids of the tables of ``kind`` with a screen open in this process."""
    return {int(t.removeprefix(f"{kind}-")) for t in live.watched(f"{kind}-")}


def in_worker(function: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``function`` in a worker thread that closes its connections afterwards, so an idle
    stream never keeps one open."""

    def closing(*args: Any) -> T:
        try:
            return function(*args)
        finally:
            connections.close_all()

    return sync_to_async(closing, thread_sensitive=False)


@dataclass(frozen=True, eq=False)  # eq=False: hashed by identity, a key of the per-loop state
class LiveTable(Generic[R]):
    """A kind of table, as its live streams need it.

    * ``kind``: the broadcaster's channel is ``<kind>-<id>``;
    * ``load(id)``: the table as its screens show it, or None when it is gone (sync; run in a
      worker thread, shared by the process's screens of that table);
    * ``panel(viewer, read)``: this viewer's main panel, or None when they may no longer see it
      (not a member any more, or the table is in another campaign). No query unless
      ``panel_reads_db``;
    * ``versions(ids)``: (id, version) of those tables, for the safety net's one query;
    * ``admit(user, slug)``: raises Http404 unless the user sits in that campaign (the apps'
      one membership rule, ``campaigns.access.membership_for``: the protocol imports no app);
    * ``after(read)``: optional, what may follow a read once its screens have gone out (sync;
      in a worker thread, never awaited by a screen): a conflict remembers the odds the shared
      cache already knows (issue 38: extras never on a move's path).
    """

    kind: str
    load: Callable[[int], R | None]
    panel: Callable[[Viewer, R], str | None]
    versions: Callable[[list[int]], Iterable[tuple[int, int]]]
    admit: Callable[[Any, str], object]
    missing: Any = "No such table in this campaign."  # (may be translated when shown)
    after: Callable[[R], None] | None = None
    # A kind whose screens query the database per viewer is rendered in a worker thread. Every
    # game's screens are rendered from the shared read alone (issue 29: the saloon's too).
    panel_reads_db: bool = False
    load_in_worker: Callable[[int], Awaitable[R | None]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "load_in_worker", in_worker(self.load))

    def channel(self, table_id: int) -> str:
        return f"{self.kind}-{table_id}"

    def open_here(self) -> set[int]:
        return open_here(self.kind)

    async def open(
        self, request: HttpRequest, slug: str, table_id: int, *, as_table: bool
    ) -> HttpResponseBase:
        """The stream view's body: 403 for anonymous, 404 for outsiders, then the events."""
        user = await request.auser()
        if not user.is_authenticated:
            return log_in_first()
        request.user = user  # known now: nothing later looks it up again in another thread
        language = getattr(request, "LANGUAGE_CODE", "")  # LocaleMiddleware's, or the choice
        viewer = Viewer(user.pk, slug, table_id, as_table, get_token(request), language)
        # Listen BEFORE the snapshot is read: a move committed in between is then announced
        # to this stream too (and skipped if the snapshot already showed it).
        subscription = live.Updates(self.channel(table_id), watch_health=True)
        try:
            version, html = await _first(self, viewer)  # Http404 before any byte is sent
        except BaseException:
            subscription.close()
            raise
        return EventStream(_events(self, viewer, subscription, version, html), subscription)

    def first_sync(self, viewer: Viewer) -> tuple[int, str]:
        """(version, this viewer's main panel), read now, through the same ``panel`` as every
        later update. Raises Http404 for non-members and foreign ids."""
        try:
            user = get_user_model().objects.get(pk=viewer.user_id)
            self.admit(user, viewer.slug)  # 404 for outsiders, before anything is read
            data = self.load(viewer.table_id)
            with viewer.speaking():
                html = None if data is None else self.panel(viewer, data)
            if data is None or html is None:
                raise Http404(self.missing)
            return data.version, html
        finally:
            let_go_sync()

    async def render(self, viewer: Viewer, data: R) -> str | None:
        """``panel`` in the event loop (it is CPU work; a thread would only add a hop), or in
        a worker thread if the screen reads the database."""
        if not self.panel_reads_db:
            try:
                with viewer.speaking():
                    return self.panel(viewer, data)
            except SynchronousOnlyOperation:
                log.warning(
                    "live: a screen of %s-%s queried the database", self.kind, viewer.table_id
                )
        result: str | None = await in_worker(self.speaking_panel)(viewer, data)
        return result

    def speaking_panel(self, viewer: Viewer, data: R) -> str | None:
        """``panel`` in the viewer's language (in a worker thread: its own activation)."""
        with viewer.speaking():
            return self.panel(viewer, data)


# The snapshot is read in the request's own thread (where the session and the user were just
# looked up, so a plain test client sees its test data too); later reads are shared.
_first = sync_to_async(LiveTable.first_sync)


# --- Reading: once per table and version in this process, shared by its screens -------------


class SharedReads(Generic[R]):
    """One read of a table per version in this process, however many of its screens are open
    here: the first stream that needs version v starts the read, the others await the same
    one, and a stream that fell behind jumps straight to the newest version (one render, not
    one per missed version; its screen is current either way). At most ``limit`` reads run at
    once, so many streams cannot exhaust the database's connections.

    The newest read of each table is kept while a screen of it is open in this process. The
    reads may hold every hand's cards; only the kind's ``panel`` turns one into a viewer's
    screen. One per event loop and kind (its futures belong to that loop)."""

    def __init__(
        self, kind: str, load: Callable[[int], Awaitable[R | None]], limit: int,
        after: Callable[[R], Awaitable[None]] | None = None,
    ) -> None:  # fmt: skip
        self._kind = kind
        self._load = load
        self._after = after
        self._afters: set[asyncio.Task[None]] = set()
        self._latest: dict[int, R] = {}
        self._reading: dict[int, asyncio.Future[R | None]] = {}
        self._gate = asyncio.Semaphore(limit)

    async def at_least(self, table_id: int, version: int) -> R | None:
        """The table at ``version`` or newer (None when it is gone) — or at the database's own
        version when that is lower: an announced version is only a hint (one from a shared
        Redis may be forged), the database says where the table really is. A version is
        announced only after its commit, so a read begun after the announcement sees it; one
        already under way may not, hence a second read then — and never more."""
        for attempt in range(2):
            known = self._latest.get(table_id)
            if known is not None and known.version >= version:
                return known
            reading = self._reading.get(table_id)
            begun_before = reading is not None
            if reading is None:
                reading = asyncio.ensure_future(self._read(table_id))
                self._reading[table_id] = reading
            data = await asyncio.shield(reading)
            if data is None:
                return None
            if data.version >= version or attempt or not begun_before:
                return data
            # That read began before ``version`` was committed: read again.
        raise AssertionError("unreachable")

    async def _read(self, table_id: int) -> R | None:
        try:
            async with self._gate:
                data = await self._load(table_id)
        finally:
            self._reading.pop(table_id, None)
        if data is None:
            self._latest.pop(table_id, None)
            return None
        known = self._latest.get(table_id)
        if known is None or data.version >= known.version:
            self._latest[table_id] = data
        for closed in self._latest.keys() - open_here(self._kind):  # no screen of it open here
            del self._latest[closed]
        if self._after is not None:
            task = asyncio.ensure_future(self._then(self._after, data))
            self._afters.add(task)  # kept until done (the loop holds tasks weakly)
            task.add_done_callback(self._afters.discard)
        return data

    @staticmethod
    async def _then(after: Callable[[R], Awaitable[None]], data: R) -> None:
        """``after(data)`` once the screens waiting on this read have rendered (they are woken
        in the loop's next turns); a failure is logged, never a screen's."""
        for _ in range(3):
            await asyncio.sleep(0)
        try:
            await after(data)
        except Exception:  # noqa: BLE001 — an extra: the screens are already out
            log.warning("live: what follows a read of %s failed", type(data).__name__)


# Per event loop: each kind's shared reads and safety net.
_reads: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[LiveTable[Any], SharedReads[Any]]
] = weakref.WeakKeyDictionary()
_nets: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[LiveTable[Any], asyncio.Task[None]]
] = weakref.WeakKeyDictionary()


def shared_reads(table: LiveTable[R]) -> SharedReads[R]:
    per_kind = _reads.setdefault(asyncio.get_running_loop(), {})
    reads = per_kind.get(table)
    if reads is None:
        limit = int(getattr(settings, "LIVE_DB_READS", 4))
        after = in_worker(table.after) if table.after is not None else None
        reads = per_kind[table] = SharedReads(table.kind, table.load_in_worker, limit, after)
    return reads


async def _safety_net(table: LiveTable[Any]) -> None:
    """The slow poll under the broadcaster, ONE per process and kind, not one per screen: every
    ``LIVE_POLL_SECONDS`` (a sixth of it, at least 1 s, while Redis is away) read the versions
    of every table of this kind with a screen open here, in one query, and announce the ones
    that moved — so an announcement Redis lost still reaches every screen. Its sleep ends early
    when Redis's health flips (``live.HEALTH``): when Redis goes down the fast poll starts at
    once, not after the rest of a slow poll's sleep (issue 28)."""
    versions = in_worker(lambda ids: list(table.versions(ids)))
    health = live.Updates(f"{table.kind}:safety-net", watch_health=True)  # no move is sent here
    try:
        while True:
            poll = seconds("LIVE_POLL_SECONDS", POLL_SECONDS)
            await health.next(timeout=poll if live.redis_healthy() else max(1.0, poll / 6))
            health.drain()
            ids = sorted(table.open_here())
            if not ids:
                continue
            try:
                moved = await versions(ids)
            except Exception as error:  # noqa: BLE001 — the database is away: try again later
                log.warning("live: the safety-net poll of %s failed (%s)", table.kind, error)
                continue
            for table_id, version in moved:
                live.deliver(table.channel(table_id), version)
    finally:
        health.close()


def ensure_safety_net(table: LiveTable[Any]) -> None:
    loop = asyncio.get_running_loop()
    per_kind = _nets.setdefault(loop, {})
    task = per_kind.get(table)
    if task is None or task.done():
        per_kind[table] = loop.create_task(_safety_net(table))


# --- The stream ------------------------------------------------------------------------------


async def _events(
    table: LiveTable[R], viewer: Viewer, subscription: live.Updates, version: int, html: str
) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    ping_every = seconds("LIVE_PING_SECONDS", PING_SECONDS)
    poll_every = seconds("LIVE_POLL_SECONDS", POLL_SECONDS)
    sent = version
    healthy = True
    reads = shared_reads(table)
    try:
        await let_go()
        yield sse("snapshot", html, version)
        ensure_safety_net(table)
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
                    data = await reads.at_least(viewer.table_id, newest)
                    panel = None if data is None else await table.render(viewer, data)
                    if data is None or panel is None:
                        return  # the table or the seat is gone: nothing more to show
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
