"""Tags for the fight screens: the opening of each move form (as ``table_tags.move_form`` does
for conflicts)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def fight_form(
    context: template.Context, action: str, cid: str = "", cls: str = "", confirm: str = ""
) -> SafeString:
    """Opens a move form (the caller closes it): POST to the move's URL, hx-post for htmx (the
    target is the main panel, inherited), the CSRF token, the fight's version (a stale page is
    refused) and a fresh idempotency key (a double click repeats it and changes nothing)."""
    base = context.render_context.get("fight_move_base")
    if base is None:
        fight = context["fight"]
        base = reverse("conflicts:fight_move", args=[context["campaign"].slug, fight.pk, "ACTION"])
        context.render_context["fight_move_base"] = base
    url = base.removesuffix("ACTION/") + f"{action}/"
    csrf = context.get("csrf_token")
    parts = [
        format_html(
            '<form class="act act--{}{}" method="post" action="{}" hx-post="{}"{}>',
            action,
            f" {cls}" if cls else "",
            url,
            url,
            format_html(' hx-confirm="{}"', confirm) if confirm else "",
        ),
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', csrf)
        if csrf and csrf != "NOTPROVIDED"
        else "",
        format_html(
            '<input type="hidden" name="version" value="{}">'
            '<input type="hidden" name="key" value="{}">',
            context.get("version", ""),
            context.get("fresh_key", ""),
        ),
        format_html('<input type="hidden" name="cid" value="{}">', cid) if cid else "",
    ]
    return mark_safe("".join(parts))  # each part is escaped above
