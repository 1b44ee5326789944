"""The saloon's screens live over Server-Sent Events, on the broadcaster the conflicts use
(``dustdevils.live``): it says only "saloon-<id> is now at version v"; each stream then renders
ITS viewer's main panel from the database through ``saloon_view`` — the same partial the page
renders, so no card reaches a stream that the page would not show.

On (re)connect a full snapshot first (``event: snapshot``, ``id: v``); then ``event: update``
for newer versions; ``: ping`` while idle, with a read of the version as the safety net under
the broadcaster (an announcement lost is caught within a ping). A stream holds no database
connection while it waits. Anonymous: 403 ``Log in first.``; non-members: 404.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from dustdevils.idempotency import FreshKey
from dustdevils.live import broadcast as live
from dustdevils.live.sse import (
    PING,
    PING_SECONDS,
    EventStream,
    let_go_sync,
    log_in_first,
    seconds,
    sse,
)
from saloon.models import Saloon
from saloon.selectors import saloon_view

T = TypeVar("T")


@require_GET
async def saloon_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """A player's phone (or a watcher's screen), live."""
    return await _open(request, slug, saloon_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """The shared table screen, live (public facts only)."""
    return await _open(request, slug, saloon_id, as_table=True)


def _render_sync(
    user_id: int, slug: str, saloon_id: int, as_table: bool, token: str
) -> tuple[int, str]:
    """(version, this viewer's main panel), read now. Http404 for non-members."""
    try:
        user = get_user_model().objects.get(pk=user_id)
        membership = membership_for(user, slug)
        saloon = get_object_or_404(
            Saloon.objects.select_related("campaign"), pk=saloon_id, campaign=membership.campaign
        )
        context = saloon_view(saloon, user, as_table=as_table)
        context.update(csrf_token=token, notice="", error="", fresh_key=FreshKey())
        template = "saloon/table.html#main" if as_table else "saloon/detail.html#main"
        return saloon.version, render_to_string(template, context)
    finally:
        let_go_sync()


def _version_sync(saloon_id: int) -> int:
    try:
        return int(Saloon.objects.filter(pk=saloon_id).values_list("version", flat=True)[0])
    except IndexError:
        return -1
    finally:
        let_go_sync()


def _closing(function: Callable[..., T]) -> Callable[..., T]:
    """``function``, then this worker thread's connections closed: an idle stream holds none."""

    def run(*args: Any) -> T:
        try:
            return function(*args)
        finally:
            connections.close_all()

    return run


# The snapshot is read in the request's own thread (where the session and the user were just
# looked up); the later reads in worker threads of their own, as the conflicts' streams do.
_render = sync_to_async(_render_sync)
_render_later = sync_to_async(_closing(_render_sync), thread_sensitive=False)
_version = sync_to_async(_closing(_version_sync), thread_sensitive=False)


async def _open(
    request: HttpRequest, slug: str, saloon_id: int, *, as_table: bool
) -> HttpResponseBase:
    user = await request.auser()
    if not user.is_authenticated:
        return log_in_first()
    token = get_token(request)
    # Listen BEFORE the snapshot is read: a move committed in between is announced here too.
    subscription = live.Updates(f"saloon-{saloon_id}", watch_health=True)
    try:
        version, html = await _render(user.pk, slug, saloon_id, as_table, token)
    except BaseException:
        subscription.close()
        raise
    return EventStream(
        _events(subscription, (user.pk, slug, saloon_id, as_table, token), version, html),
        subscription,
    )


async def _events(
    subscription: live.Updates,
    viewer: tuple[int, str, int, bool, str],
    version: int,
    html: str,
) -> AsyncIterator[str]:
    sent = version
    saloon_id = viewer[2]
    try:
        yield sse("snapshot", html, version)
        while True:
            got = await subscription.next(timeout=seconds("LIVE_PING_SECONDS", PING_SECONDS))
            if got is None:
                yield PING
                newest = await _version(saloon_id)  # the safety net under the broadcaster
                if newest < 0:
                    return  # the game is gone
            else:
                newest = max(got, subscription.drain())
            if newest <= sent:
                continue
            try:
                version, html = await _render_later(*viewer)
            except Http404:
                return  # no longer at this campaign's table: nothing more to show
            if version > sent:
                sent = version
                yield sse("update", html, version)
    finally:
        subscription.close()
