"""The campaign page and the session pages, live: ``event: changed`` (the data is only the
version) whenever play changes what they show — a session started or ended, a Devil rating
set, chips granted or spent, a character made or approved, a conflict set up or ended. The page
then fetches its changing sections again with one plain GET (``hx-select-oob``), through the
page's own view and its visibility rules, so the stream never carries anything a member could
not see. Scoped to the campaign's members: 403 ``Log in first.`` for anonymous visitors, 404
for anyone else. Same transport as the other streams (``dustdevils.live.sse.changed_events``),
with the tables' safety net while Redis is away.

What announces: ``announce(campaign_id)`` on commit, called by the services that make those
changes, and a table's set-up or end in any game (``tables.running.table_saved``, a
``post_save`` receiver, so the games' services need not know about the campaign page).

The "In play now" banner of every page has its own stream, per person (``running_stream``):
``event: changed`` whenever a table of one of their campaigns is set up or ends
(``announce_running``); the banner then fetches itself again (``campaigns:running``). Only a
version travels, and only to the person it is for: the stream is their own.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from campaigns.models import Membership
from dustdevils.live import broadcast as live
from dustdevils.live.sse import EventStream, changed_events, let_go_sync, log_in_first


def table_of(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def announce(campaign_id: int) -> None:
    """On commit: the campaign's pages should look again."""
    live.publish_on_commit(table_of(campaign_id))


def running_of(user_id: int) -> str:
    """The channel of one person's "In play now" banner, on every page they have open."""
    return f"running-{user_id}"


def announce_running(campaign_id: int) -> None:
    """On commit: the banner of every member of the campaign should look again (a table was
    set up or ended there; each banner reads what its own viewer is part of)."""
    for user_id in Membership.objects.filter(campaign_id=campaign_id).values_list(
        "user_id", flat=True
    ):
        live.publish_on_commit(running_of(user_id))


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
    subscription = live.Updates(table_of(campaign_id), watch_health=True)
    return EventStream(changed_events(subscription, _last_seen(request)), subscription)


@require_GET
async def running_stream(request: HttpRequest) -> HttpResponseBase:
    """The viewer's own banner stream: 403 ``Log in first.`` for anonymous visitors; nobody
    can listen to another's."""
    user = await request.auser()
    if not user.is_authenticated:
        return log_in_first()
    subscription = live.Updates(running_of(user.pk), watch_health=True)
    return EventStream(changed_events(subscription, _last_seen(request)), subscription)


def _last_seen(request: HttpRequest) -> int | None:
    """The browser's Last-Event-ID on a reconnect: the version its page last heard of; on the
    first connect, the banner's ``?since=`` (when its page was rendered), so a table set up
    between the page and its stream is not missed."""
    try:
        return int(request.headers.get("Last-Event-ID") or request.GET.get("since", ""))
    except ValueError:
        return None
