"""The fights in the "In play now" banner (``tables.running``, registered in
``FightsConfig.ready``): those not over (``Fight.OVER``) in which the viewer's character
fights, or that the viewer runs (the Dealer of the campaign)."""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse

from fights.engine.action_deck import Phase
from fights.models import Fight
from tables.running import MAX_RUNNING, RunningTable, Seats

# The phases still being played, as the banner names them.
PHASE_LABELS = {Phase.QUICKNESS.value: "Quickness rolls", Phase.COUNTDOWN.value: "the countdown"}


def running(seats: Seats) -> list[RunningTable]:
    rows = (
        Fight.objects.filter(campaign_id__in=seats.campaign_ids)
        .exclude(phase__in=Fight.OVER)
        .filter(Q(campaign_id__in=seats.dealing) | Q(seats__character__player_id=seats.user_id))
        .values(
            "pk",
            "title",
            "phase",
            "round",
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
            kind="fight",
            table_id=row["pk"],
            title=row["title"],
            phase_label=f"round {row['round']}, {PHASE_LABELS.get(row['phase'], row['phase'])}",
            campaign_id=row["campaign_id"],
            campaign_name=row["campaign__name"],
            campaign_slug=row["campaign__slug"],
            url=reverse(
                "fights:detail", kwargs={"slug": row["campaign__slug"], "fight_id": row["pk"]}
            ),
            dealer=row["campaign_id"] in seats.dealing,
            created_at=row["created_at"],
        )
        for row in rows[:MAX_RUNNING]
    ]
