"""Saloon Showdown in the "In play now" banner (``campaigns.running``): the games not over in
which the viewer has a seat, and every one at a table the viewer hosts (``dealer=True`` when
they only watch, so the lobby takes a seated guest to their seat: ``new_seat``)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from campaigns.running import MAX_RUNNING, RunningTable, Seats
from showdown.engine.state import Phase
from showdown.models import Showdown, ShowdownSeat

PHASE_LABELS = {
    Phase.PLAY.value: "in play",
    Phase.THREAT.value: "a threat",
    Phase.BLUFF.value: "a bluff called",
    Phase.FIGHT.value: "a duel",
    Phase.EVENT.value: "an event",
}


def running(seats: Seats) -> list[RunningTable]:
    rows = (
        Showdown.objects.filter(campaign_id__in=seats.campaign_ids)
        .exclude(phase__in=Showdown.OVER)
        .annotate(
            seated=Exists(
                ShowdownSeat.objects.filter(showdown=OuterRef("pk"), user_id=seats.user_id)
            )
        )
        .filter(Q(campaign_id__in=seats.dealing) | Q(seated=True))
        .values(
            "pk", "title", "phase", "seated", "created_at", "campaign_id", "campaign__name",
            "campaign__slug",
        )
        .order_by("-created_at", "-pk")
    )  # fmt: skip
    return [
        RunningTable(
            kind="showdown",
            table_id=row["pk"],
            title=row["title"],
            phase_label=PHASE_LABELS.get(row["phase"], row["phase"]),
            campaign_id=row["campaign_id"],
            campaign_name=row["campaign__name"],
            campaign_slug=row["campaign__slug"],
            url=reverse(
                "showdown:detail",
                kwargs={"slug": row["campaign__slug"], "showdown_id": row["pk"]},
            ),
            dealer=not row["seated"],
            created_at=row["created_at"],
        )
        for row in rows[:MAX_RUNNING]
    ]
