"""Live fight screens over Server-Sent Events, with the conflicts' protocol
(``dustdevils.live.conflict_streams``): the broadcaster only says "fight-<id> is now at version
v"; each open stream re-reads the fight and renders THIS viewer's main panel through the one
per-viewer choke point, ``selectors.fight_view`` (R30) — the same partial the page renders, so
no card can reach a stream that the page would not show.

* on (re)connect a full snapshot first (``id: v``, ``event: snapshot``);
* ``event: update`` with ``id: v`` for announced versions newer than the last one sent;
* ``: ping`` every ``LIVE_PING_SECONDS`` while idle; every ``LIVE_POLL_SECONDS`` the stream
  looks at the fight's version itself (one small query), in case an announcement was lost.

Anonymous visitors get 403 ``Log in first.``, non-members and foreign ids 404, before any byte.

A move makes every open screen of the fight re-render: the streams in one process share ONE
read of the fight per version (``SharedReads``, in a worker thread that gives its connection
back: the fight with its seats and this round's timeline, and the campaign's members), and each
screen is rendered from it through ``fight_view`` without a query of its own.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from campaigns.models import Membership
from conflicts.combat.models import Fight
from conflicts.combat.selectors import fight_view, load_fight
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


@require_GET
async def fight_stream(request: HttpRequest, slug: str, fight_id: int) -> HttpResponseBase:
    """The Dealer's console or the player's phone, live."""
    return await _open(request, slug, fight_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, fight_id: int) -> HttpResponseBase:
    """The shared table view, live (public facts only, R30)."""
    return await _open(request, slug, fight_id, as_table=True)


@dataclass(frozen=True)
class Viewer:
    user_id: int
    slug: str
    fight_id: int
    as_table: bool
    csrf_token: str

    @property
    def table(self) -> str:
        return f"fight-{self.fight_id}"


@dataclass(frozen=True)
class Read:
    """The fight as its screens show it (``load_fight``), and the campaign's members' roles."""

    fight: Fight
    roles: dict[int, str]

    @property
    def version(self) -> int:
        return self.fight.version


def load_read(fight_id: int) -> Read | None:
    fight = load_fight(fight_id)
    if fight is None:
        return None
    members = Membership.objects.filter(campaign_id=fight.campaign_id)
    return Read(fight, dict(members.values_list("user_id", "role")))


def panel(viewer: Viewer, read: Read) -> str | None:
    """This viewer's main panel from a shared read (no query), or None when they are no longer
    in the campaign (or the fight is in another one)."""
    fight = read.fight
    role = read.roles.get(viewer.user_id)
    if role is None or fight.campaign.slug != viewer.slug:
        return None
    membership = Membership(campaign=fight.campaign, user_id=viewer.user_id, role=role)
    context = fight_view(fight, membership, as_table=viewer.as_table)
    context.update(notice="", error="", csrf_token=viewer.csrf_token)
    template = "conflicts/combat/" + ("table.html#main" if viewer.as_table else "detail.html#main")
    return render_to_string(template, context)


def _first_sync(viewer: Viewer) -> tuple[int, str]:
    """The snapshot, read in the request's own thread: 404 for outsiders and foreign ids."""
    try:
        user = get_user_model().objects.get(pk=viewer.user_id)
        membership_for(user, viewer.slug)  # 404 for outsiders, before anything is read
        read = load_read(viewer.fight_id)
        html = None if read is None else panel(viewer, read)
        if read is None or html is None:
            raise Http404("No such fight in this campaign.")
        return read.version, html
    finally:
        let_go_sync()


def _closing(function: Callable[..., T]) -> Callable[..., Any]:
    """``function`` in a worker thread that closes its connections afterwards."""

    def run(*args: Any) -> T:
        try:
            return function(*args)
        finally:
            connections.close_all()

    return sync_to_async(run, thread_sensitive=False)


def _version_sync(fight_id: int) -> int | None:
    return Fight.objects.filter(pk=fight_id).values_list("version", flat=True).first()


_first = sync_to_async(_first_sync)  # the request's own thread: a test client sees its data
_load = _closing(load_read)
_version = _closing(_version_sync)
_panel = sync_to_async(panel, thread_sensitive=False)  # CPU only: no query


class SharedReads:
    """One read of a fight per version in this process, however many of its screens are open
    here: the first stream that needs version v starts the read, the others await it; a stream
    that fell behind jumps to the newest. Only ``fight_view`` turns a read into a viewer's
    screen (R30). One per event loop (its futures belong to that loop)."""

    def __init__(self) -> None:
        self._latest: dict[int, Read] = {}
        self._reading: dict[int, asyncio.Future[Read | None]] = {}

    async def at_least(self, fight_id: int, version: int) -> Read | None:
        """The fight at ``version`` or newer (None when it is gone). A read begun before that
        version was committed may miss it: then one more read, never more."""
        for attempt in range(2):
            known = self._latest.get(fight_id)
            if known is not None and known.version >= version:
                return known
            reading = self._reading.get(fight_id)
            if reading is None:
                reading = asyncio.ensure_future(self._read(fight_id))
                self._reading[fight_id] = reading
            read = await asyncio.shield(reading)
            if read is None or read.version >= version or attempt:
                return read
        raise AssertionError("unreachable")

    async def _read(self, fight_id: int) -> Read | None:
        try:
            read: Read | None = await _load(fight_id)
        finally:
            self._reading.pop(fight_id, None)
        if read is None:
            self._latest.pop(fight_id, None)
            return None
        known = self._latest.get(fight_id)
        if known is None or read.version >= known.version:
            self._latest[fight_id] = read
        open_here = {int(t.removeprefix("fight-")) for t in live.watched("fight-")}
        for closed in self._latest.keys() - open_here:  # no screen of it left in this process
            del self._latest[closed]
        return read


_reads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SharedReads] = (
    weakref.WeakKeyDictionary()
)


def shared_reads() -> SharedReads:
    loop = asyncio.get_running_loop()
    reads = _reads.get(loop)
    if reads is None:
        reads = _reads[loop] = SharedReads()
    return reads


async def _open(
    request: HttpRequest, slug: str, fight_id: int, *, as_table: bool
) -> HttpResponseBase:
    user = await request.auser()
    if not user.is_authenticated:
        return log_in_first()
    request.user = user
    viewer = Viewer(user.pk, slug, fight_id, as_table, get_token(request))
    # Listen BEFORE the snapshot is read: a move committed in between is announced here too.
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
    reads = shared_reads()
    try:
        await let_go()
        yield sse("snapshot", html, version)
        last_ping = last_poll = loop.time()
        while True:
            now = loop.time()
            wait = min(last_ping + ping_every, last_poll + poll_every) - now
            got = await subscription.next(timeout=max(wait, 0.0))
            newest = -1
            if got is not None:
                newest = max(got, subscription.drain())
            elif loop.time() - last_poll >= poll_every:
                last_poll = loop.time()
                newest = await _version(viewer.fight_id) or -1
            if newest != live.HEALTH and newest > sent:
                read = await reads.at_least(viewer.fight_id, newest)
                update = None if read is None else await _panel(viewer, read)
                if read is None or update is None:
                    return  # the fight or the seat is gone: nothing more to show
                if read.version > sent:  # the screen only moves forward
                    sent = read.version
                    yield sse("update", update, sent)
                    last_ping = loop.time()
                continue
            if loop.time() - last_ping >= ping_every:
                last_ping = loop.time()
                yield PING
    finally:
        subscription.close()
