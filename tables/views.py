"""The one way a table's move view answers (every game's ``act`` ends here).

htmx: the viewer's main panel as the table is now, with the message — what the move did, or
why it was refused — swapped in place of the old one; without JavaScript: post/redirect/get,
the message flashed. A game supplies how to render its panel (``screen``) and its page's URL.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

Screen = Callable[[str, str], HttpResponse]  # (notice, error) -> the main panel


def answer(
    request: HttpRequest, *, screen: Screen, url: str, panel: str, notice: str = "",
    error: str = "",
) -> HttpResponse:  # fmt: skip
    """The answer to a move (see the module docstring). ``panel``: the main panel's id."""
    if getattr(request, "htmx", False):
        response = screen(notice, error)
        # After your own move, show the panel's top: the message, then what comes next (a
        # refresh from the stream keeps the scroll where it is).
        response["HX-Reswap"] = f"outerHTML show:#{panel}:top"
        return response
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return redirect(url)
