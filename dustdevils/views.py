"""Project-wide pages: the home page and the health check."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
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


@never_cache
@require_GET
def healthz(request: HtmxHttpRequest) -> JsonResponse:
    """For load balancers and ``make run``: the process answers and the database does too."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
