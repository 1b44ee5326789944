"""The health check (the home page is the campaigns app's: ``campaigns.views.home``)."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from dustdevils.types import HtmxHttpRequest


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
