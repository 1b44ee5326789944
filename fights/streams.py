"""Live fight screens: the Dealer's console, a player's phone and the shared table view, on the
one live-table protocol (``dustdevils.live.tables``). The shared read is ``load_read`` (the
fight with its seats and this round's timeline, and the campaign's members); each screen is
rendered from it through the per-viewer choke point ``fight_view`` (R30) — the same partial
the page renders, so no card can reach a stream that the page would not show."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from campaigns.models import Membership
from dustdevils.live.tables import LiveTable, Viewer
from fights.models import Fight
from fights.reads import load_fight
from fights.selectors import fight_view


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
    template = "fights/" + ("table.html#main" if viewer.as_table else "detail.html#main")
    return render_to_string(template, context)


def _versions(ids: list[int]) -> list[tuple[int, int]]:
    return list(Fight.objects.filter(pk__in=ids).values_list("pk", "version"))


FIGHTS: LiveTable[Read] = LiveTable(
    kind="fight",
    admit=membership_for,
    load=load_read,
    panel=panel,
    versions=_versions,
    missing="No such fight in this campaign.",
)


@require_GET
async def fight_stream(request: HttpRequest, slug: str, fight_id: int) -> HttpResponseBase:
    """The Dealer's console or the player's phone, live."""
    return await FIGHTS.open(request, slug, fight_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, fight_id: int) -> HttpResponseBase:
    """The shared table view, live (public facts only, R30)."""
    return await FIGHTS.open(request, slug, fight_id, as_table=True)
