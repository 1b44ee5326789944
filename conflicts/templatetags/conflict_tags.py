"""The conflict screens' own tags: a hand rendered once while it stays the same
(``conflicts.fragments``). The tags every game shares are ``table_tags`` (tables/)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def own_hand(context: template.Context, hand: Any) -> SafeString:
    """One of the viewer's own hands, rendered once while it stays the same (fragments)."""
    from conflicts import fragments

    return fragments.own_hand_html(hand, context)


@register.simple_tag(takes_context=True)
def seat(context: template.Context, hand: Any) -> SafeString:
    """One hand on the Dealer's console, rendered once while it stays the same (fragments)."""
    from conflicts import fragments

    return fragments.seat_html(hand, context)
