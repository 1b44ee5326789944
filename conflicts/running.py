"""The conflicts in the "In play now" banner (``tables.running``, registered in
``ConflictsConfig.ready``): those not over (``Conflict.OVER``) and not left abandoned, in which
the viewer plays a hand (their character's) or deals (the Dealer of the campaign)."""

from __future__ import annotations

from django.db.models import F, Q
from django.urls import reverse

from conflicts.models import Conflict
from tables.running import MAX_RUNNING, RunningTable, Seats

# The engine's phases still being played, as the banner names them.
PHASE_LABELS: dict[str, str] = {
    Conflict.Phase.SIZING: "sizing the Deal",
    Conflict.Phase.DRAW: "the Draw",
    Conflict.Phase.LAYING: "the Call",
    Conflict.Phase.RESOLUTION: "the result",
}


def running(seats: Seats) -> list[RunningTable]:
    rows = (
        Conflict.objects.filter(campaign_id__in=seats.campaign_ids)
        .exclude(phase__in=Conflict.OVER)
        # Not one the sweep marked abandoned, unless a move since has taken it up again.
        .filter(Q(abandoned_at__isnull=True) | Q(abandoned_at__lt=F("last_move_at")))
        .filter(Q(campaign_id__in=seats.dealing) | Q(seats__character__player_id=seats.user_id))
        .values(
            "pk",
            "title",
            "phase",
            "created_at",
            "campaign_id",
            "campaign__name",
            "campaign__slug",
        )
        .distinct()
        .order_by("-created_at", "-pk")
    )
    return [
        RunningTable(
            kind="conflict",
            table_id=row["pk"],
            title=row["title"],
            phase_label=PHASE_LABELS.get(row["phase"], row["phase"]),
            campaign_id=row["campaign_id"],
            campaign_name=row["campaign__name"],
            campaign_slug=row["campaign__slug"],
            url=reverse(
                "conflicts:detail",
                kwargs={"slug": row["campaign__slug"], "conflict_id": row["pk"]},
            ),
            dealer=row["campaign_id"] in seats.dealing,
            created_at=row["created_at"],
        )
        for row in rows[:MAX_RUNNING]
    ]
