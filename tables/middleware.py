"""A table whose saved state cannot be read answers 409 with a page in plain words (issue 28):
never a server error, whichever of its pages or moves meets it."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from tables.errors import UNREADABLE, Unreadable

logger = logging.getLogger(__name__)


class UnreadableTables:
    """Django middleware: ``tables.errors.Unreadable`` from a view becomes a 409 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Unreadable):
            return None
        logger.warning("Unreadable table state at %s: %s", request.path, exception)
        page = render_to_string("409.html", {"message": UNREADABLE}, request=request)
        return HttpResponse(page, status=409)
