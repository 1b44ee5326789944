"""The one way a table's move view answers (every game's ``act`` ends here).

htmx: the viewer's main panel as the table is now, with the message — what the move did, or
why it was refused — morphed into the old one (idiomorph: only what changed is patched, so the
scroll, the focus and what the player ticked or typed in other forms stay), and the event
``move-answered`` (``{"panel": id, "refused": bool}``) for the browser's table kit
(``static/js/moves.js``): a refused move keeps the player's choices and shows its reason next to
the form; a move that went through keeps the mover's hand, result or next control on the
screen. Without JavaScript: post/redirect/get, the message flashed. A game supplies how to
render its panel (``screen``) and its page's URL.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_htmx.http import trigger_client_event

Screen = Callable[[str, str], HttpResponse]  # (notice, error) -> the main panel


def answer(
    request: HttpRequest, *, screen: Screen, url: str, panel: str, notice: str = "",
    error: str = "",
) -> HttpResponse:  # fmt: skip
    """The answer to a move (see the module docstring). ``panel``: the main panel's id."""
    if getattr(request, "htmx", False):
        response = screen(notice, error)
        # No scrolling by htmx: the page stays where the player is (moves.js brings the
        # mover's own part of the panel into view, or the reason next to the refused form).
        response["HX-Reswap"] = "morph:outerHTML show:none"
        return trigger_client_event(
            response, "move-answered", {"panel": panel, "refused": bool(error)}
        )
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return redirect(url)


def version_answer(request: HttpRequest, *, current: int | None, event: str) -> HttpResponse:
    """The client's safety-net poll under the live stream (``tables/_poll.html``): 204 while
    the table stands still at the version the page has (``?v=``); else its version, and the
    htmx event ``event`` on which the page refreshes its main panel. Never a card; 404 for a
    table the viewer cannot see (``current`` None)."""
    from django.http import Http404, JsonResponse
    from django_htmx.http import trigger_client_event

    if current is None:
        raise Http404("No such table in this campaign.")
    if request.GET.get("v") == str(current):
        return HttpResponse(status=204)
    return trigger_client_event(JsonResponse({"version": current}), event, {"version": current})


def table_version(request: HttpRequest, *, tables: Any, table_id: int, event: str) -> HttpResponse:
    """``version_answer`` for the table ``table_id`` among ``tables`` (a queryset of a game's
    tables the viewer may see: their campaign's), read in one query."""
    current = tables.filter(pk=table_id).values_list("version", flat=True).first()
    return version_answer(request, current=current, event=event)


def markdown_file(text: str, filename: str) -> HttpResponse:
    """A game's story as a Markdown file to download (``story.md``)."""
    response = HttpResponse(text, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
