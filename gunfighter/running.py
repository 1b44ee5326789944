"""The gunfights in the "In play now" banner (``campaigns.running``, registered in
``GunfighterConfig.ready``): those not over in which the viewer has a seat, and every one at a
table the viewer hosts. A seated gunfighter is a player (``dealer=False``), so the one-off
lobby takes a guest to a game the host starts for them (``campaigns.running.new_seat``)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from campaigns.running import MAX_RUNNING, ROW, RunningTable, Seats, running_row
from gunfighter.engine.state import Phase
from gunfighter.models import Gunfight, GunfightSeat

PHASE_LABELS = {
    Phase.CHOOSE.value: "choosing decks",
    Phase.PREPARE.value: "before a showdown",
    Phase.SHOWDOWN.value: "the showdown",
}


def running(seats: Seats) -> list[RunningTable]:
    mine = GunfightSeat.objects.filter(gunfight=OuterRef("pk"), user_id=seats.user_id)
    rows = (
        Gunfight.objects.filter(campaign_id__in=seats.campaign_ids)
        .exclude(phase__in=Gunfight.OVER)
        .annotate(seated=Exists(mine))
        .filter(Q(campaign_id__in=seats.dealing) | Q(seated=True))
        .values(*ROW, "seated")
        .order_by("-created_at", "-pk")
    )[:MAX_RUNNING]
    # The host watching is not a player at it: ``dealer`` only when not seated.
    return [
        running_row(
            "gunfighter",
            row,
            url_name="gunfighter:detail",
            labels=PHASE_LABELS,
            dealer=not row["seated"],
        )
        for row in rows
    ]
