"""One-off tables (issue 20): a table for people outside any campaign, opened from the home
page — a campaign of kind one-off with its host in the Dealer's chair. The others come in by
invitation links (``invite``) and become its members, so its games are scoped by membership
exactly as a campaign's are. A game whose lobby is a one-off table's page says so
(``Game.one_off``): the site gives it ``<kind>/new/`` (``oneoff_new``) and, at a table,
``invite/`` (``invite``), which renders the ``invite`` partial of its list page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from campaigns.access import membership_for
from campaigns.models import Campaign
from campaigns.services import CampaignError, campaign_create
from dustdevils.idempotency import key_field, key_of
from tables.forms import problem_of
from tables.game import Game, display_name
from tables.once import invite_once, made_once
from tables.pages import list_context, page


class OneOffForm(forms.Form):
    """A one-off table: its name (optional) and the form's idempotency key."""

    name = forms.CharField(max_length=120, required=False, label="Name the table")
    key = key_field()


def oneoff_create(game: Game, *, host: User, name: str = "") -> Campaign:
    """A one-off table whose lobby is ``game``'s, ``host`` in the Dealer's chair; named
    ``name`` (white space folded), else as the game names one (``Game.one_off_name``)."""
    name = " ".join(name.split())[:120] or game.one_off_name.format(host=display_name(host))
    return campaign_create(dealer=host, name=name, kind=Campaign.Kind.ONE_OFF)


@page(login_required, require_POST)
def oneoff_new(game: Game, request: Any) -> HttpResponse:
    """Start a one-off table; its lobby next, to invite the others. Once per form: the same
    form sent again finds the table the first made."""
    form = OneOffForm(request.POST)
    if not form.is_valid():
        messages.error(request, problem_of(form))
        return redirect("home")
    host, name = request.user, form.cleaned_data["name"]
    try:
        table = made_once(
            user=host, key=form.cleaned_data["key"],
            make=lambda: oneoff_create(game, host=host, name=name),
        )  # fmt: skip
    except CampaignError as error:  # its key's table is gone, or too many opened at once
        messages.error(request, str(error))
        return redirect("home")
    messages.success(request, f"{table.name} is open. Invite the others with links.")
    return redirect(table)


@page(never_cache, login_required, require_POST)  # never_cache: the new link is here only
def invite(game: Game, request: Any, slug: str) -> HttpResponse:
    """The host of a one-off table makes a single-use invitation link, shown here only once
    (only its hash is stored), as a campaign's invitations are. Once per form."""
    membership = membership_for(request.user, slug)
    if not membership.campaign.is_one_off:
        raise PermissionDenied("A campaign's Dealer invites players on its Invitations page.")
    if not membership.is_dealer:
        raise PermissionDenied("Only the host of this table makes invitation links.")
    token = invite_once(
        campaign=membership.campaign, actor=membership.user, label=game.invite_label,
        key=key_of(request.POST),
    )  # fmt: skip
    context = list_context(game, membership)
    context["new_link"] = request.build_absolute_uri(reverse("campaigns:join", args=[token]))
    return render(request, game.template("list") + ("#invite" if request.htmx else ""), context)
