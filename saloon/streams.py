"""The saloon's screens live: a player's phone (or a watcher's screen) and the shared table
screen, on the one live-table protocol (``dustdevils.live.tables``). Each screen is rendered
through ``saloon_view`` — the same partial the page renders, so no card reaches a stream that
the page would not show. A saloon screen reads its viewer's seat and the timeline itself, so it
is rendered in a worker thread (a table has 3–5 players); the shared read is the game with its
campaign and the members' roles."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from campaigns.models import Membership
from dustdevils.idempotency import FreshKey
from dustdevils.live.tables import LiveTable, Viewer
from saloon.models import Saloon
from saloon.selectors import saloon_view


@dataclass(frozen=True)
class Read:
    saloon: Saloon
    roles: dict[int, str]

    @property
    def version(self) -> int:
        return self.saloon.version


def load_read(saloon_id: int) -> Read | None:
    saloon = Saloon.objects.select_related("campaign").filter(pk=saloon_id).first()
    if saloon is None:
        return None
    members = Membership.objects.filter(campaign_id=saloon.campaign_id)
    return Read(saloon, dict(members.values_list("user_id", "role")))


def panel(viewer: Viewer, read: Read) -> str | None:
    """This viewer's main panel, or None when they are no longer at this campaign's table."""
    saloon = read.saloon
    if viewer.user_id not in read.roles or saloon.campaign.slug != viewer.slug:
        return None
    user = get_user_model()(pk=viewer.user_id)  # only its key is read: the viewer's seat
    context = saloon_view(saloon, user, as_table=viewer.as_table)
    context.update(csrf_token=viewer.csrf_token, notice="", error="", fresh_key=FreshKey())
    template = "saloon/table.html#main" if viewer.as_table else "saloon/detail.html#main"
    return render_to_string(template, context)


def _versions(ids: list[int]) -> list[tuple[int, int]]:
    return list(Saloon.objects.filter(pk__in=ids).values_list("pk", "version"))


SALOONS: LiveTable[Read] = LiveTable(
    kind="saloon",
    admit=membership_for,
    load=load_read,
    panel=panel,
    versions=_versions,
    missing="No such game in this campaign.",
    panel_reads_db=True,
)


@require_GET
async def saloon_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """A player's phone (or a watcher's screen), live."""
    return await SALOONS.open(request, slug, saloon_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """The shared table screen, live (public facts only)."""
    return await SALOONS.open(request, slug, saloon_id, as_table=True)
