"""Export and import pages: the Dealer's JSON download, importing a file as a new campaign,
and restoring a campaign from its own file. Permissions through ``campaigns.access``."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.access import dealer_membership_for
from campaigns.models import Campaign
from dustdevils.idempotency import key_of
from dustdevils.types import HtmxHttpRequest
from exchange.api import (
    ImportRefused,
    ImportResult,
    campaign_export,
    campaign_file_dump,
    campaign_import,
    campaign_restore,
)
from exchange.forms import CampaignFileForm, RestoreForm
from tables.once import MadeAndGone, made_once


@login_required
@require_GET
def export_json(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "export the campaign")
    response = HttpResponse(
        campaign_file_dump(campaign_export(membership.campaign)),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{membership.campaign.slug}.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def import_new(request: HtmxHttpRequest) -> HttpResponse:
    # Bound on every POST, even an empty one: a form without its file must say so.
    posted = request.method == "POST"
    form = CampaignFileForm(request.POST, request.FILES) if posted else CampaignFileForm()
    if posted and form.is_valid():
        dealer = cast(User, request.user)  # logged in: login_required
        warnings: list[str] = []
        games: list[str] = []

        def make() -> Campaign:
            # Only staff may seat the file's other members; anyone else's import seats them
            # alone (nobody is seated without consent, issue 19 #2).
            result = campaign_import(
                form.cleaned_data["data"], dealer=dealer, seat_members=dealer.is_staff
            )
            warnings.extend(result.warnings)
            games.extend(result.games)
            return result.campaign

        try:  # once per form: the same upload sent again finds the campaign it made
            campaign = made_once(user=dealer, key=key_of(request.POST), make=make)
        except ImportRefused as refused:
            form.refuse(refused)
        except MadeAndGone as error:
            form.add_error(None, str(error))
        else:
            result = ImportResult(campaign, tuple(warnings), tuple(games))
            return _done(request, result, f"Imported “{campaign.name}”: you deal it.")
    return render(request, "exchange/import.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def restore(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "restore the campaign")
    posted = request.method == "POST"
    form = RestoreForm(request.POST, request.FILES) if posted else RestoreForm()
    if posted and form.is_valid():
        data, campaign = form.cleaned_data["data"], membership.campaign
        try:
            result = campaign_restore(
                data,
                campaign=campaign,
                dealer=membership.user,
                seat_members=membership.user.is_staff,
            )
        except ImportRefused as refused:
            form.refuse(refused)
        else:
            return _done(request, result, f"Restored “{result.campaign.name}” from the file.")
    context = {"form": form, "campaign": membership.campaign, "membership": membership}
    return render(request, "exchange/restore.html", context)


def _done(request: HtmxHttpRequest, result: ImportResult, message: str) -> HttpResponse:
    messages.success(request, message)
    for warning in result.warnings:
        messages.warning(request, warning)
    for game in result.games:  # what was done with each game of the file (issue 37)
        messages.info(request, game)
    return redirect(_campaign_url(result.campaign))


def _campaign_url(campaign: Campaign) -> str:
    try:
        return campaign.get_absolute_url()
    except NoReverseMatch:  # the campaign pages are not wired in this build
        return reverse("home")
