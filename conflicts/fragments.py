"""Pieces of the conflict screens rendered once and shared by every screen that shows the same.

At a table of seven, one move changes seven screens, and most of each — the timeline, who sits
where — reads the same for all of them. Rendering those pieces once per process instead of once
per screen is what keeps a busy server's live updates fast (issue 5, ``make bench``).

Sharing must never carry one viewer's secret to another (R10). So a shared piece is rendered
from ITS OWN small context only — plain values, no request, no parent context — and remembered
under a key made of that whole context. The template cannot read anything outside it, so two
screens share the HTML only when everything it was made from is identical: a viewer is never
shown anything that was not already in their own context.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from dustdevils.memo import bounded
from tables.pieces import planned

if TYPE_CHECKING:
    from conflicts.selectors.rows import CardView


@bounded(16384)  # timeline lines, rosters: a few KiB each at most
def _piece(template: str, context: tuple[tuple[str, Hashable], ...]) -> SafeString:
    return mark_safe(render_to_string(template, dict(context)))


def shared(template: str, **context: Hashable) -> SafeString:
    """``template`` rendered with exactly ``context`` (hashable values: frozen dataclasses,
    tuples, strings, numbers), remembered by the whole of it."""
    return _piece(template, tuple(sorted(context.items())))


# --- The timeline ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TimelineItem:
    created_at: datetime
    text: str
    actor: str  # the display name, "" for the app itself


def timeline_html(events: Sequence[Any]) -> SafeString:
    """The conflict's timeline (public words only: the Event rows never name a hidden card).
    Each line is made once (events never change), so a long timeline costs a join, not a
    render, when a move adds a line."""
    lines = "".join(
        _timeline_line(TimelineItem(e.created_at, e.text, e.actor_name)) for e in events
    )
    return shared("conflicts/_timeline.html", lines=mark_safe(lines))  # each line escaped


def _timeline_line(item: TimelineItem) -> SafeString:
    """One line, made once: events never change."""
    return shared("conflicts/_timeline.html#line", item=item)


# --- Who sits where ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RosterLine:
    """What the roster shows of one hand: exactly the fields _roster.html reads."""

    name: str
    player: str
    kind: str
    kind_label: str
    goal: str
    winner: bool
    narrator: bool
    folded: bool
    last_stand: bool
    deal_count: int
    approved: str
    proposal: str
    count: int
    drew: bool
    lay_chosen: bool
    lay: tuple[CardView, ...]  # frozen: hashable
    lay_text: str


def roster_html(
    sides: Sequence[tuple[str, Sequence[Any]]], phase: str, revealed: bool
) -> SafeString:
    """The "At the table" panel from ``selectors.HandRow`` rows grouped by side."""
    lines = tuple((side, tuple(_roster_line(h) for h in rows)) for side, rows in sides)
    return shared("conflicts/_roster.html", sides=lines, state_phase=phase, revealed=revealed)


_ROSTER_FIELDS = tuple(f.name for f in fields(RosterLine))


def _roster_line(row: Any) -> RosterLine:
    values = {name: getattr(row, name) for name in _ROSTER_FIELDS}
    values["lay"] = tuple(values["lay"])
    return RosterLine(**values)


# --- One hand: the player's own, or a seat on the Dealer's console ------------------------------


@dataclass(frozen=True)
class Ref:
    """What the piece's URLs need of the campaign and the conflict."""

    slug: str = ""
    pk: int = 0


def own_hand_html(hand: Any, context: Any) -> SafeString:
    """One of the viewer's own hands, see ``hand_html``."""
    return hand_html("conflicts/_own_hand.html", "hand", hand, context)


def seat_html(hand: Any, context: Any) -> SafeString:
    """One hand on the Dealer's console (the row as the Dealer sees it), see ``hand_html``."""
    return hand_html("conflicts/_seat.html", "h", hand, context)


def hand_html(template: str, name: str, hand: Any, context: Any) -> SafeString:
    """``template`` for one hand row, see ``form_piece``."""
    refs = {
        "campaign": Ref(slug=context["campaign"].slug),
        "conflict": Ref(pk=context["conflict"].pk),
    }
    return form_piece(template, name, hand, context, facts=TABLE_FACTS, refs=refs)


def form_piece(
    template: str, name: str, row: Any, context: Any, *, facts: Sequence[str],
    refs: Mapping[str, Ref],
) -> SafeString:  # fmt: skip
    """``template`` for one row of a screen with forms (a hand, a fight's combatant), rendered
    from its own small context only: the row under ``name`` (only what the viewer's choke point
    gave them), the table's public facts named in ``facts`` and its references. Once per
    viewer while that row and those facts stay the same (``tables.pieces.planned``, keyed
    by the viewer and the whole row, R10, R30): a move elsewhere at the table does not render
    it again. What differs with every render — the table's version, a fresh key for each form,
    the viewer's CSRF token and the bases of the viewer's hands (``tables.moves.Basis``) — is
    put into its forms at each render, as their context, never by replacing text."""
    static = {name: row, **{n: context.get(n) for n in facts}, **refs}
    per_render = {n: context.get(n) for n in PER_RENDER}
    membership = context.get("membership")
    viewer = (getattr(membership, "user_id", None), str(per_render["csrf_token"] or ""))
    key = (
        template, name, viewer, _frozen(row, name),
        tuple((n, _frozen(context.get(n), n)) for n in facts),
        tuple(sorted(refs.items())), per_render["move_base"], per_render["scope_field"],
    )  # fmt: skip
    return planned(template, static, per_render, key)


_PLAIN = (str, int, float, bool, type(None))


def _frozen(value: Any, name: str = "") -> Hashable:
    """``value`` as a key: equal only to an equal value, field by field. Of a character only
    its traits: the one thing the pieces read of it (``test_pieces_read_only_traits``)."""
    if isinstance(value, _PLAIN):
        return value
    if name == "character":
        return tuple(value.traits) if value is not None else ()
    if is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__name__,
            *((f.name, _frozen(getattr(value, f.name), f.name)) for f in fields(value)),
        )
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    hash(value)  # anything else must be a plain value: an unhashable one is a bug, said at once
    plain: Hashable = value
    return plain


# What a piece's forms read besides the row (tables/templatetags/table_kit.py): the same for
# every form of one screen, different with every render; never part of a piece's text.
PER_RENDER = ("version", "csrf_token", "bases", "move_base", "scope_field")

# What a hand's piece reads of the table besides its row (public facts, the same for every
# screen of that table at that version).
TABLE_FACTS = ("state_phase", "revealed", "is_over", "narration")
