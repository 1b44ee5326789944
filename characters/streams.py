"""The character sheet, live: ``event: changed`` (the data is only the version) whenever the
character's chips or attributes change (``broadcast.publish_on_commit("character-<id>")`` in
``characters.services.chips_change`` and the conflict results). The sheet then fetches its
own sections again with a plain GET, through the sheet view and its visibility rules, so the
stream never carries anything a member could not see. Same transport as the conflict streams
(``dustdevils.live.sse.changed_events``): pings while idle, no database connection held, and
while Redis is away a "changed" every few seconds (the tables' safety net).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from characters.selectors import character_for, may_see_all
from dustdevils.live import broadcast as live
from dustdevils.live.sse import EventStream, changed_events, let_go_sync, log_in_first


def _check_sync(user: AbstractBaseUser, slug: str, character_id: int) -> None:
    """Http404 unless the user sits at the campaign and the character is in it; 403 for a
    sheet whose changes the member may not follow (a player and an NPC: as its chips page).
    In the request's own thread, which then lets go of its connection."""
    try:
        membership = membership_for(user, slug)  # type: ignore[arg-type]
        character = character_for(membership, character_id)
        if not may_see_all(character, membership):
            raise PermissionDenied("Only the Dealer follows a non-player character's sheet.")
    finally:
        let_go_sync()


_check = sync_to_async(_check_sync)


@require_GET
async def character_stream(request: HttpRequest, slug: str, character_id: int) -> HttpResponseBase:
    user = await request.auser()
    if not user.is_authenticated:
        return log_in_first()
    subscription = live.Updates(f"character-{character_id}", watch_health=True)
    try:
        await _check(user, slug, character_id)
    except BaseException:
        subscription.close()
        raise
    return EventStream(changed_events(subscription), subscription)
