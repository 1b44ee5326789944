"""Who sits at the table: invitations (Dealer only), following an invitation link, members,
removing a player and handing the Dealer role on."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import selectors, services
from campaigns.access import dealer_membership_for, membership_for
from campaigns.forms import InviteForm
from campaigns.models import Invite, Membership
from campaigns.services import CampaignError
from campaigns.views.shared import AuthedRequest, go
from dustdevils.types import HtmxHttpRequest
from tables.once import invite_once

# --- Invitations (Dealer only) --------------------------------------------------------------------


def _invites_page(membership: Membership, **extra: Any) -> dict[str, Any]:
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "invites": selectors.invites_of(membership.campaign),
        "form": InviteForm(),
        **extra,
    }


@login_required
@require_GET
def invites(request: AuthedRequest, slug: str) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "see the invitations")
    return render(request, "campaigns/invites.html", _invites_page(membership))


@never_cache
@login_required
@require_POST
def invite_create(request: AuthedRequest, slug: str) -> HttpResponse:
    """Not post/redirect/get, on purpose: the link is shown in this response only. Only its
    hash is stored, so there is nothing to show again after a redirect."""
    membership = dealer_membership_for(request.user, slug, "invite people")
    form = InviteForm(request.POST)
    valid = form.is_valid()
    label, key = (form.cleaned_data["label"], form.cleaned_data["key"]) if valid else ("", "")
    token = invite_once(campaign=membership.campaign, actor=request.user, label=label, key=key)
    link = request.build_absolute_uri(reverse("campaigns:join", args=[token]))
    template = "campaigns/invites.html#invites" if request.htmx else "campaigns/invites.html"
    return render(request, template, _invites_page(membership, new_link=link, new_label=label))


@login_required
@require_POST
def invite_revoke(request: AuthedRequest, slug: str, invite_id: int) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "withdraw invitations")
    invite = get_object_or_404(Invite, pk=invite_id, campaign=membership.campaign)
    try:
        services.invite_revoke(invite=invite)
    except CampaignError as error:
        messages.error(request, str(error))
    if request.htmx:
        return render(request, "campaigns/invites.html#invites", _invites_page(membership))
    return redirect("campaigns:invites", slug=slug)


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """An invitation link. Anyone may open it; only a logged-in person can take the seat."""
    if request.method == "POST" and request.user.is_authenticated:
        try:
            seat = services.invite_accept(token=token, user=request.user)
        except CampaignError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, f"You have a seat at {seat.campaign.name}.")
            return go(request, seat.campaign.get_absolute_url())
    elif request.method == "POST":
        return redirect_to_login(request.path)
    page = selectors.join_page(services.invite_lookup(token), request.user)
    return render(request, "campaigns/join.html", page, status=page["status_code"])


# --- Who sits at the table ------------------------------------------------------------------------


@login_required
@require_GET
def members(request: AuthedRequest, slug: str) -> HttpResponse:
    membership = membership_for(request.user, slug)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "members": selectors.members_of(membership.campaign),
    }
    return render(request, "campaigns/members.html", context)


def _seat_action(
    request: AuthedRequest, slug: str, member_id: int, *, what: str, confirm: str
) -> tuple[Membership, Membership, HttpResponse | None]:
    """The Dealer's seat, the target seat and, for a GET, the confirmation page."""
    membership = dealer_membership_for(request.user, slug, what)
    target = get_object_or_404(
        Membership.objects.select_related("user"), pk=member_id, campaign=membership.campaign
    )
    page = None
    if request.method == "GET":
        context = {"campaign": membership.campaign, "membership": membership, "target": target}
        page = render(request, confirm, context)
    return membership, target, page


@login_required
@require_http_methods(["GET", "POST"])
def member_remove(request: AuthedRequest, slug: str, member_id: int) -> HttpResponse:
    _, target, confirm = _seat_action(
        request, slug, member_id, what="remove players", confirm="campaigns/member_remove.html"
    )
    if confirm:
        return confirm
    try:
        services.member_remove(membership=target)
    except CampaignError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{selectors.display_name(target.user)} has left the table.")
    return go(request, reverse("campaigns:members", args=[slug]))


@login_required
@require_http_methods(["GET", "POST"])
def dealer_hand_over(request: AuthedRequest, slug: str, member_id: int) -> HttpResponse:
    membership, target, confirm = _seat_action(
        request, slug, member_id, what="hand on the Dealer role", confirm="campaigns/hand_over.html"
    )
    if confirm:
        return confirm
    try:
        services.dealer_hand_over(campaign=membership.campaign, to_membership=target)
    except CampaignError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{selectors.display_name(target.user)} is the Dealer now.")
    return go(request, reverse("campaigns:members", args=[slug]))
