"""Running sessions: the Dealer starts the next session and ends it (R21, R22). The session
page itself is ``table.session_detail``. Every action is a POST answered with a redirect
(htmx follows it as a full page load): PRG, and it works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import game_sessions
from campaigns.access import dealer_membership_for
from campaigns.forms import SessionEndForm
from campaigns.models import GameSession
from campaigns.services import CampaignError
from campaigns.views.shared import AuthedRequest, as_int, go


@login_required
@require_POST
def session_start(request: AuthedRequest, slug: str) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "start sessions")
    number = as_int(request.POST.get("number", "")) or None
    try:
        session = game_sessions.session_start(
            campaign=membership.campaign, actor=request.user, number=number
        )
    except CampaignError as error:
        messages.error(request, str(error))
        return go(request, membership.campaign.get_absolute_url() + "#sessions")
    messages.success(request, f"Session {session.number} is being played.")
    return go(request, reverse("campaigns:session", args=[slug, session.number]))


@login_required
@require_POST
def session_end(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "end sessions")
    session = get_object_or_404(GameSession, campaign=membership.campaign, number=number)
    form = SessionEndForm(request.POST, campaign=membership.campaign)
    try:
        if not form.is_valid():
            raise CampaignError("Damage can carry over only for characters in play here.")
        result = game_sessions.session_end(
            session_id=session.pk,
            actor=request.user,
            carry_over=form.cleaned_data["carry_over"],
            carry_over_ids=[c.pk for c in form.cleaned_data["carry_over_for"]],
            in_play=form.cleaned_data["in_play"],
        )
    except CampaignError as error:
        messages.error(request, str(error))
    else:
        (messages.success if result.ended else messages.info)(request, result.message)
    return go(request, reverse("campaigns:session", args=[slug, number]))
