"""Reads for bringing people into a fight: the conflict that turns into a gunfight (issue 17)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import Campaign
from dustdevils.parsing import an_id

if TYPE_CHECKING:
    from conflicts.models import Conflict


def conflict_to_fight(conflict_id: str, campaign: Campaign) -> Conflict | None:
    """``?conflict=<id>`` on "Start a fight" (kept in the form's action): the conflict that turns
    into this gunfight, with its seats; 404 for a conflict of another campaign. The mirror of
    the conflict wizard's ``?fight=<id>`` (R32)."""
    from conflicts.models import Conflict

    if not conflict_id:
        return None
    pk = an_id(conflict_id)
    if pk is None:
        raise Http404("No such conflict in this campaign.")
    return get_object_or_404(
        Conflict.objects.select_related("campaign").prefetch_related("seats"),
        pk=pk,
        campaign=campaign,
    )
