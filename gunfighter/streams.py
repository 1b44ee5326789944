"""The Gunfighter's screens live, on the one live-table protocol (``dustdevils.live.tables``):
each phone's main panel rendered through ``gunfight_view``, the same partial the page renders.
The panel reads its viewer's seat and the timeline, so it is rendered in a worker thread."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from campaigns.access import membership_for
from campaigns.models import Membership
from dustdevils.live.tables import LiveTable, Viewer
from gunfighter.models import Gunfight
from gunfighter.selectors import gunfight_view
from tables.streams import stream_view, versions_of


@dataclass(frozen=True)
class Read:
    gunfight: Gunfight
    members: frozenset[int]

    @property
    def version(self) -> int:
        return self.gunfight.version


def load_read(gunfight_id: int) -> Read | None:
    gunfight = Gunfight.objects.select_related("campaign").filter(pk=gunfight_id).first()
    if gunfight is None:
        return None
    members = Membership.objects.filter(campaign_id=gunfight.campaign_id)
    return Read(gunfight, frozenset(members.values_list("user_id", flat=True)))


def panel(viewer: Viewer, read: Read) -> str | None:
    """This viewer's main panel, or None when they are no longer at this table."""
    gunfight = read.gunfight
    if viewer.user_id not in read.members or gunfight.campaign.slug != viewer.slug:
        return None
    user = get_user_model()(pk=viewer.user_id)  # only its key is read: the viewer's seat
    context = gunfight_view(gunfight, user)
    context.update(csrf_token=viewer.csrf_token, notice="", error="")
    return render_to_string("gunfighter/detail.html#main", context)


GUNFIGHTS: LiveTable[Read] = LiveTable(
    kind="gunfighter",
    admit=membership_for,
    load=load_read,
    panel=panel,
    versions=versions_of(Gunfight),
    missing="No such gunfight at this table.",
    panel_reads_db=True,
)

# A gunfighter's phone (or a watcher's screen), live.
gunfight_stream = stream_view(GUNFIGHTS)
