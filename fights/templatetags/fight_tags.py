"""Tags for the fight screens: the opening of each move form (as ``table_tags.move_form`` does
for conflicts), and the pieces several screens share (a combatant on the console, the public
picture, a timeline line)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from conflicts import fragments
from dustdevils.memo import bounded
from fights.selectors import PublicLine

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
        base = reverse("fights:move", args=[context["campaign"].slug, fight.pk, "ACTION"])
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


# --- Pieces shared between screens (conflicts/fragments.py: rendered from their own small
# context only, remembered under the whole of it, so two screens share HTML only when all it
# was made from is the same; R30) ---------------------------------------------------------------

# What a combatant's line on the Dealer's console reads of the fight besides the line.
CONSOLE_FACTS = ("phase", "is_over", "up_card", "role", "speeds")


@register.simple_tag(takes_context=True)
def console_line(context: template.Context, line: Any) -> SafeString:
    """One combatant on the Dealer's console, with its forms: rendered again only when the
    line itself (or the round's phase, or the card up) changed."""
    refs = {
        "campaign": fragments.Ref(slug=context["campaign"].slug),
        "fight": fragments.Ref(pk=context["fight"].pk),
    }
    own = {n: context.get(n) for n in (*CONSOLE_FACTS, "version", "csrf_token")}
    if not line.is_up:  # only the line that is up shows the card: the others stay as they were
        own["up_card"] = None
    return fragments.form_piece(
        "fights/_console_line.html", "line", line, own,
        facts=CONSOLE_FACTS, refs=refs,
    )  # fmt: skip


@register.simple_tag(takes_context=True)
def fight_public(context: template.Context) -> SafeString:
    """What everyone may see of the fight (R30): the same piece for every player's phone, the
    table view and watchers, from the public fields of the lines alone."""
    return fragments.shared(
        "fights/_public.html",
        lines=tuple(PublicLine.of(line) for line in context["lines"]),
        table=tuple(context["table"]),
        discards=tuple(context["discards"]),
        fate_draws=tuple(context["fate_draws"]),
    )


@register.simple_tag(takes_context=True)
def fight_timeline(context: template.Context) -> SafeString:
    """The timeline's lines this viewer may read (``selectors.timeline``, R30), joined once for
    every screen that reads the same ones; each line is made once (it never changes)."""
    return _timeline(tuple(context["timeline"]), context.get("role") == "player")


@bounded(1024)
def _timeline(lines: tuple[Any, ...], player: bool) -> SafeString:
    html = "".join(
        fragments.shared("fights/_timeline.html#line", line=line, player=player) for line in lines
    )
    return mark_safe(html)  # each line rendered (escaped) by its template
