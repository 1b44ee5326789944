"""Tags for the fight screens: the opening of each move form (as ``table_tags.move_form`` does
for conflicts), and the pieces several screens share (a combatant on the console, the public
picture, a timeline line)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from conflicts import fragments
from dustdevils.memo import bounded
from fights.selectors import PublicLine

register = template.Library()


# --- Pieces shared between screens (conflicts/fragments.py: rendered from their own small
# context only, remembered under the whole of it, so two screens share HTML only when all it
# was made from is the same; R30) ---------------------------------------------------------------

# What a combatant's line on the Dealer's console reads of the fight besides the line.
CONSOLE_FACTS = ("phase", "is_over", "up_card", "up_whose", "role", "speeds")


@register.simple_tag(takes_context=True)
def console_line(context: template.Context, line: Any) -> SafeString:
    """One combatant on the Dealer's console, with its forms: rendered again only when the
    line itself (or the round's phase, or the card up) changed."""
    refs = {
        "campaign": fragments.Ref(slug=context["campaign"].slug),
        "fight": fragments.Ref(pk=context["fight"].pk),
    }
    own = {n: context.get(n) for n in (*CONSOLE_FACTS, *fragments.PER_RENDER)}
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
