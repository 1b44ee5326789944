"""Saloon Showdown's screens live, on the one live-table protocol (``dustdevils.live.tables``):
each screen is rendered through ``showdown_view``, the same partial the page renders, so no
hidden count reaches a stream that the page would not show."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from campaigns.models import Membership
from dustdevils.live.tables import LiveTable, Viewer
from showdown.models import Showdown
from showdown.selectors import showdown_view


@dataclass(frozen=True)
class Read:
    showdown: Showdown
    roles: dict[int, str]

    @property
    def version(self) -> int:
        return self.showdown.version


def load_read(showdown_id: int) -> Read | None:
    showdown = Showdown.objects.select_related("campaign").filter(pk=showdown_id).first()
    if showdown is None:
        return None
    members = Membership.objects.filter(campaign_id=showdown.campaign_id)
    return Read(showdown, dict(members.values_list("user_id", "role")))


def panel(viewer: Viewer, read: Read) -> str | None:
    """This viewer's main panel, or None when they are no longer at this table."""
    showdown = read.showdown
    if viewer.user_id not in read.roles or showdown.campaign.slug != viewer.slug:
        return None
    user = get_user_model()(pk=viewer.user_id)  # only its key is read: the viewer's seat
    context = showdown_view(showdown, user, as_table=viewer.as_table)
    context.update(csrf_token=viewer.csrf_token, notice="", error="")
    template = "showdown/table.html#main" if viewer.as_table else "showdown/detail.html#main"
    return render_to_string(template, context)


def _versions(ids: list[int]) -> list[tuple[int, int]]:
    return list(Showdown.objects.filter(pk__in=ids).values_list("pk", "version"))


SHOWDOWNS: LiveTable[Read] = LiveTable(
    kind="showdown",
    admit=membership_for,
    load=load_read,
    panel=panel,
    versions=_versions,
    missing="No such game at this table.",
    panel_reads_db=True,
)


@require_GET
async def showdown_stream(request: HttpRequest, slug: str, showdown_id: int) -> HttpResponseBase:
    """A player's phone (or a watcher's screen), live."""
    return await SHOWDOWNS.open(request, slug, showdown_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, showdown_id: int) -> HttpResponseBase:
    """The shared table screen, live (public facts only)."""
    return await SHOWDOWNS.open(request, slug, showdown_id, as_table=True)
