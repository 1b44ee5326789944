"""Reads for bringing people into a fight: a newcomer to a fight under way (the Dealer's "Someone
joins the fight" form), and the conflict that turns into a gunfight (issue 17)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import Campaign
from characters.models import Character
from characters.selectors import in_play
from conflicts.combat.models import Fight, FightSeat

if TYPE_CHECKING:
    from conflicts.models import Conflict


def join_choices(fight: Fight, seats: Iterable[FightSeat]) -> list[Character]:
    """The campaign's characters in play (R17) not already in the fight: PCs first, by name.
    One query; only the Dealer's console asks."""
    seated = {s.character_id for s in seats if s.character_id is not None}
    return sorted(
        (c for c in in_play(fight.campaign) if c.pk not in seated),
        key=lambda c: (not c.is_pc, c.name),
    )


def conflict_to_fight(conflict_id: str, campaign: Campaign) -> Conflict | None:
    """``?conflict=<id>`` on "Start a fight" (kept in the form's action): the conflict that turns
    into this gunfight, with its seats; 404 for a conflict of another campaign. The mirror of
    the conflict wizard's ``?fight=<id>`` (R32)."""
    from conflicts.models import Conflict

    if not conflict_id:
        return None
    if not conflict_id.isdigit():
        raise Http404("No such conflict in this campaign.")
    return get_object_or_404(
        Conflict.objects.select_related("campaign").prefetch_related("seats"),
        pk=int(conflict_id),
        campaign=campaign,
    )
