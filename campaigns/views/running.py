"""The "In play now" ribbon on its own (``tables.running``): what a page's ribbon fetches
when its stream says a table was set up or ended, and on its slow safety-net poll."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dustdevils.types import HtmxHttpRequest
from tables import running


@require_GET
def running_banner(request: HtmxHttpRequest) -> HttpResponse:
    """The viewer's ribbon, as the page it is on shows it (``here``: the table that page is;
    ``shown``: the campaign whose page lists its tables itself). Nothing to swap for someone
    logged out (204): the ribbon they have stays, no login page lands in it."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    here, shown = request.GET.get("here", "")[:40], request.GET.get("shown", "")[:60]
    banner = running.banner(request.user, here=here, shown=shown)
    return render(request, "campaigns/_running.html", {"banner": banner})
