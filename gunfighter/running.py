"""The gunfights in the "In play now" banner (``campaigns.running``, registered in
``GunfighterConfig.ready``): those not over in which the viewer has a seat, and every one at a
table the viewer hosts. A seated gunfighter is a player (``dealer=False``), so the one-off
lobby takes a guest to a game the host starts for them (``campaigns.running.new_seat``)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from campaigns.running import MAX_RUNNING, RunningTable, Seats
from gunfighter.engine.state import Phase
from gunfighter.models import Gunfight, GunfightSeat

PHASE_LABELS = {
    Phase.CHOOSE.value: "choosing decks",
    Phase.PREPARE.value: "before a showdown",
    Phase.SHOWDOWN.value: "the showdown",
}


FIELDS = (
    "pk", "title", "phase", "seated", "created_at", "campaign_id", "campaign__name",
    "campaign__slug",
)  # fmt: skip


def running(seats: Seats) -> list[RunningTable]:
    rows = (
        Gunfight.objects.filter(campaign_id__in=seats.campaign_ids)
        .exclude(phase__in=Gunfight.OVER)
        .annotate(
            seated=Exists(
                GunfightSeat.objects.filter(gunfight=OuterRef("pk"), user_id=seats.user_id)
            )
        )
        .filter(Q(campaign_id__in=seats.dealing) | Q(seated=True))
        .values(*FIELDS)
        .order_by("-created_at", "-pk")
    )
    return [
        RunningTable(
            kind="gunfighter",
            table_id=row["pk"],
            title=row["title"],
            phase_label=PHASE_LABELS.get(row["phase"], row["phase"]),
            campaign_id=row["campaign_id"],
            campaign_name=row["campaign__name"],
            campaign_slug=row["campaign__slug"],
            url=reverse(
                "gunfighter:detail",
                kwargs={"slug": row["campaign__slug"], "gunfighter_id": row["pk"]},
            ),
            dealer=not row["seated"],
            created_at=row["created_at"],
        )
        for row in rows[:MAX_RUNNING]
    ]
