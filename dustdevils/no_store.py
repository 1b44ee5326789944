"""``Cache-Control: no-store`` on every response to a logged-in person, in one place (issue 28
#7; MIDDLEWARE, right after AuthenticationMiddleware).

A page seen logged in may hold what only that person may see — a private hand, the Dealer's
notes and NPCs, an invitation link, a chip ledger — so no cache may keep it: not a shared proxy,
not the browser's disk after logging out, not its back-forward cache. A response whose view
already said how to cache it (never_cache, an export's or a live stream's ``no-store``) is
left as it is; so is everything an anonymous visitor gets (the welcome and
login pages; static files never reach this middleware: whitenoise answers them first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import add_never_cache_headers
from django.utils.decorators import sync_and_async_middleware
from django.utils.functional import SimpleLazyObject, empty


def _no_store(response: HttpResponseBase) -> HttpResponseBase:
    # max-age=0, no-cache, no-store, must-revalidate, private, and Expires: as never_cache.
    add_never_cache_headers(response)
    return response


def _looked_up(user: Any) -> bool:
    """Whether ``request.user`` is known without a query: set by login()/logout(), or the
    lazy lookup already done by the view."""
    return not isinstance(user, SimpleLazyObject) or getattr(user, "_wrapped", empty) is not empty


@sync_and_async_middleware
def no_store_when_logged_in(get_response: Callable[[HttpRequest], Any]) -> Callable[..., Any]:
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            response: HttpResponseBase = await get_response(request)
            if response.has_header("Cache-Control"):
                return response
            user = request.user
            if not _looked_up(user):  # an async view (auser() has its own cache) or none
                user = await request.auser()
            return _no_store(response) if user.is_authenticated else response

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase = get_response(request)
        if response.has_header("Cache-Control") or not request.user.is_authenticated:
            return response
        return _no_store(response)

    return sync_middleware
