"""The saloon games in the "In play now" banner (``campaigns.running``, registered in
``SaloonConfig.ready``): those not over (``Saloon.OVER``) in which the viewer has a seat, and
every one at a table the viewer hosts (the Dealer's chair of the campaign or one-off table)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from campaigns.running import MAX_RUNNING, RunningTable, Seats
from saloon.engine.state import Phase
from saloon.models import Saloon, SaloonSeat

# The phases still being played, as the banner names them.
PHASE_LABELS = {
    Phase.ARCHETYPES.value: "picking archetypes",
    Phase.DISCARD.value: "discarding pairs",
    Phase.SWAP.value: "the Doomed's swap",
    Phase.PLAY.value: "in play",
    Phase.DUEL.value: "the duel",
}


def running(seats: Seats) -> list[RunningTable]:
    rows = (
        Saloon.objects.filter(campaign_id__in=seats.campaign_ids)
        .exclude(phase__in=Saloon.OVER)
        .annotate(
            seated=Exists(SaloonSeat.objects.filter(saloon=OuterRef("pk"), user_id=seats.user_id))
        )
        .filter(Q(campaign_id__in=seats.dealing) | Q(seated=True))
        .values(
            "pk",
            "title",
            "phase",
            "seated",
            "created_at",
            "campaign_id",
            "campaign__name",
            "campaign__slug",
        )
        .order_by("-created_at", "-pk")
    )
    return [
        RunningTable(
            kind="saloon",
            table_id=row["pk"],
            title=row["title"],
            phase_label=PHASE_LABELS.get(row["phase"], row["phase"]),
            campaign_id=row["campaign_id"],
            campaign_name=row["campaign__name"],
            campaign_slug=row["campaign__slug"],
            url=reverse(
                "saloon:detail", kwargs={"slug": row["campaign__slug"], "saloon_id": row["pk"]}
            ),
            dealer=not row["seated"],  # the host watching, not a player at it
            created_at=row["created_at"],
        )
        for row in rows[:MAX_RUNNING]
    ]
