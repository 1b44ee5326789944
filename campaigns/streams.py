"""The campaign page and the session pages, live: ``event: changed`` (the data is only the
version) whenever play changes what they show — a session started or ended, a Devil rating
set, chips granted or spent, a character made or approved, a conflict set up or ended. The page
then fetches its changing sections again with one plain GET (``hx-select-oob``), through the
page's own view and its visibility rules, so the stream never carries anything a member could
not see. Scoped to the campaign's members: 403 ``Log in first.`` for anonymous visitors, 404
for anyone else. Same transport as the other streams (``dustdevils.live.sse``).

What announces: ``announce(campaign_id)`` on commit, called by the services that make those
changes, and a conflict's creation or end (``conflict_saved``, a ``post_save`` receiver, so
the conflict services need not know about the campaign page).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from dustdevils.live import broadcast as live
from dustdevils.live.sse import (
    PING,
    PING_SECONDS,
    EventStream,
    let_go,
    let_go_sync,
    log_in_first,
    seconds,
    sse,
)

OVER = ("done", "folded")  # conflicts.engine.conflict.Phase: the Deal has ended


def table_of(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def announce(campaign_id: int) -> None:
    """On commit: the campaign's pages should look again."""
    live.publish_on_commit(table_of(campaign_id))


def conflict_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """A conflict set up (its Deal starts: the running-conflict link appears) or ended (it
    goes, and the characters' standing changed)."""
    fields = kwargs.get("update_fields")
    ended = instance.phase in OVER and (fields is None or "phase" in fields)
    if created or ended:
        announce(instance.campaign_id)


def _check_sync(user: AbstractBaseUser, slug: str) -> int:
    """The campaign's id; Http404 unless the user sits at it. In the request's own thread,
    which then lets go of its connection."""
    try:
        return membership_for(user, slug).campaign_id  # type: ignore[arg-type]
    finally:
        let_go_sync()


_check = sync_to_async(_check_sync)


@require_GET
async def campaign_stream(request: HttpRequest, slug: str) -> HttpResponseBase:
    user = await request.auser()
    if not user.is_authenticated:
        return log_in_first()
    campaign_id = await _check(user, slug)
    subscription = live.Updates(table_of(campaign_id))
    return EventStream(_events(subscription, _last_seen(request)), subscription)


def _last_seen(request: HttpRequest) -> int | None:
    """The browser's Last-Event-ID on a reconnect: the version its page last heard of."""
    try:
        return int(request.headers.get("Last-Event-ID", ""))
    except ValueError:
        return None


async def _events(subscription: live.Updates, last_seen: int | None) -> AsyncIterator[str]:
    ping_every = seconds("LIVE_PING_SECONDS", PING_SECONDS)
    try:
        await let_go()  # the request thread's session lookup
        yield ": connected\n\n"
        newest = live.latest(subscription.table)
        if last_seen is not None and newest is not None and newest > last_seen:
            yield sse("changed", str(newest), newest)  # missed while reconnecting
        while True:
            version = await subscription.next(timeout=ping_every)
            if version is None:
                yield PING
            else:
                yield sse("changed", str(version), version)
    finally:
        subscription.close()
