"""The home page: a visitor's welcome, a logged-in person's tables."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.forms import CampaignForm
from campaigns.selectors import home_tables
from dustdevils.types import HtmxHttpRequest


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page; for a logged-in person also their tables (campaigns, then one-off
    tables), a new-campaign form and the way to start a one-off saloon table."""
    if not request.user.is_authenticated:
        return render(request, "home.html")
    context = {**home_tables(request.user), "form": CampaignForm()}
    return render(request, "home.html", context)
