"""The saloon's screens live: a player's phone (or a watcher's screen) and the shared table
screen, on the one live-table protocol (``dustdevils.live.tables``). Each screen is rendered
through ``saloon_view`` — the same partial the page renders, so no card reaches a stream that
the page would not show. The shared read (``reads.saloon_read``: the game, the members' roles,
the seats and the timeline) is read once per version; each screen is rendered from it, with no
query."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from dustdevils.idempotency import FreshKey
from dustdevils.live.tables import LiveTable, Viewer
from saloon.models import Saloon
from saloon.reads import SaloonRead, saloon_read
from saloon.selectors import saloon_view


def panel(viewer: Viewer, read: SaloonRead) -> str | None:
    """This viewer's main panel from the shared read (no query), or None when they are no
    longer at this campaign's table."""
    saloon = read.saloon
    if viewer.user_id not in read.roles or saloon.campaign.slug != viewer.slug:
        return None
    user = get_user_model()(pk=viewer.user_id)  # only its key is read: the viewer's seat
    context = saloon_view(saloon, user, as_table=viewer.as_table, read=read)
    context.update(csrf_token=viewer.csrf_token, notice="", error="", fresh_key=FreshKey())
    template = "saloon/table.html#main" if viewer.as_table else "saloon/detail.html#main"
    return render_to_string(template, context)


def _versions(ids: list[int]) -> list[tuple[int, int]]:
    return list(Saloon.objects.filter(pk__in=ids).values_list("pk", "version"))


SALOONS: LiveTable[SaloonRead] = LiveTable(
    kind="saloon",
    admit=membership_for,
    load=saloon_read,
    panel=panel,
    versions=_versions,
    missing="No such game in this campaign.",
)


@require_GET
async def saloon_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """A player's phone (or a watcher's screen), live."""
    return await SALOONS.open(request, slug, saloon_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """The shared table screen, live (public facts only)."""
    return await SALOONS.open(request, slug, saloon_id, as_table=True)
