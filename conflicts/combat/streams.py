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
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
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


def _render(viewer: Viewer) -> tuple[int, str] | None:
    """(version, this viewer's main panel) read now; None when the viewer left the campaign
    or the fight is gone. Raises nothing for those: the stream just ends."""
    user = get_user_model().objects.filter(pk=viewer.user_id).first()
    if user is None:
        return None
    try:
        membership = membership_for(user, viewer.slug)
    except Http404:
        return None
    fight = load_fight(viewer.fight_id, membership.campaign)
    if fight is None:
        return None
    context = fight_view(fight, membership, as_table=viewer.as_table)
    context.update(notice="", error="", csrf_token=viewer.csrf_token)
    template = (
        "conflicts/combat/table.html#main"
        if viewer.as_table
        else "conflicts/combat/detail.html#main"
    )
    return fight.version, render_to_string(template, context)


def _first_sync(viewer: Viewer) -> tuple[int, str]:
    try:
        got = _render(viewer)
        if got is None:
            raise Http404("No such fight in this campaign.")
        return got
    finally:
        let_go_sync()


def _closing(viewer: Viewer) -> tuple[int, str] | None:
    try:
        return _render(viewer)
    finally:
        connections.close_all()


def _version_sync(fight_id: int) -> int | None:
    try:
        return Fight.objects.filter(pk=fight_id).values_list("version", flat=True).first()
    finally:
        connections.close_all()


_first = sync_to_async(_first_sync)  # the request's own thread: a test client sees its data
_read = sync_to_async(_closing, thread_sensitive=False)
_version = sync_to_async(_version_sync, thread_sensitive=False)


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
                read = await _read(viewer)
                if read is None:
                    return  # the fight or the seat is gone: nothing more to show
                if read[0] > sent:
                    sent = read[0]
                    yield sse("update", read[1], sent)
                    last_ping = loop.time()
                continue
            if loop.time() - last_ping >= ping_every:
                last_ping = loop.time()
                yield PING
    finally:
        subscription.close()
