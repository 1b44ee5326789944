"""The one way a move form opens, for every game's screens: ``{% move_form "draw" hand.pid %}``.

The form posts to the game's move URL (``move_base`` in the context: the URL of a move named
``ACTION``), hx-posts for htmx (the target is the main panel, inherited), and carries the
viewer's CSRF token, the table's ``version``, a fresh idempotency ``key`` and, for a move of one
hand or seat (``scope``: named by the context's ``scope_field``, "pid" or "cid"), its ``basis``
(``tables.moves.Basis``) from the context's ``bases``. The HTML is the template
``tables/_move_form.html``, planned once per shape (``tables.pieces.fill``): a form costs
its few values, not a template render; the caller closes the form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from dustdevils.idempotency import FreshKey
from tables.pieces import fill, per_render

register = template.Library()


@register.simple_tag(takes_context=True)
@per_render  # a planned piece (tables.pieces.planned) calls it at every render
def move_form(
    context: Mapping[str, Any],
    action: str,
    scope: str = "",
    cls: str = "",
    confirm: str = "",
) -> SafeString:
    csrf = context.get("csrf_token")
    scope = str(scope) if scope else ""
    values = {
        "action": action,
        "url": str(context.get("move_base", "")).replace("ACTION", action),
        "cls": cls,
        "confirm": confirm,
        "csrf_token": csrf if csrf and csrf != "NOTPROVIDED" else "",
        "version": context.get("version", ""),
        "key": str(FreshKey()),
        "scope_field": context.get("scope_field", "pid"),
        "scope": scope,
        "basis": (context.get("bases") or {}).get(scope, "") if scope else "",
    }
    return fill(MOVE_FORM, values, PER_FORM)


# What differs from one form to the next of the same shape: filled into the template's own
# places for them (``fill``), never by replacing text.
PER_FORM = frozenset({"url", "version", "key", "csrf_token", "basis", "scope"})
MOVE_FORM = "tables/_move_form.html"


@register.filter
def word(value: Any, context: str = "") -> str:
    """``{{ pistol|word:"pistol" }}``: a word an engine marked for the catalogue (``cards.words``:
    a pistol's colour, an event's name), in the reader's language."""
    return pgettext(context, str(value)) if context else gettext(str(value))


@register.simple_tag
def form_key() -> str:
    """``{% form_key %}``: a create or change form's idempotency key, fresh each time it is
    printed (``dustdevils.idempotency``): the same form sent twice is done once."""
    return format_html('<input type="hidden" name="key" value="{}">', FreshKey())


@register.inclusion_tag("tables/_clock.html")
def table_clock(clock: Any, clock_url: str = "/clock/") -> dict[str, Any]:
    """``{% table_clock clock %}``: a running table clock (``tables.clock.Clock``), fired on
    every phone at the same instant by ``static/js/table_clock.js``."""
    return {"clock": clock, "clock_url": clock_url}


@register.inclusion_tag("tables/_clock_sync.html")
def table_clock_sync(clock_url: str = "/clock/") -> dict[str, Any]:
    """``{% table_clock_sync %}``: on a page that may show a table clock, outside its live panel:
    the phone measures its offset from the server's clock as soon as the page opens, so a clock
    started later fires on time."""
    return {"clock_url": clock_url}
