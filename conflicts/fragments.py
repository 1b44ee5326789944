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

from dustdevils.idempotency import FreshKey
from dustdevils.memo import bounded

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

# Stand-ins for what differs with every render even when the hand does not: the table's version
# (in every form), each form's fresh idempotency key, and the viewer's CSRF token.
_VERSION = "ddVERSIONdd"
_KEY = "ddFRESHKEYdd"
_CSRF = "ddCSRFTOKENdd"


@dataclass(frozen=True)
class Ref:
    """What the piece's URLs need of the campaign and the conflict."""

    slug: str = ""
    pk: int = 0


@dataclass(frozen=True)
class HandPiece:
    """A hand row (``selectors.HandRow``: only what ``conflict_view`` gave this viewer) as a
    piece of HTML reads it, frozen: every field of the row, each list a tuple and each nested
    row the tuple of its fields, and of the character only its traits (the one thing the pieces
    read of it; a test holds them to that). Two screens share a piece only when their rows are
    equal in every field (R10)."""

    values: tuple[tuple[str, Hashable], ...]

    @classmethod
    def of(cls, row: Any) -> HandPiece:
        values = tuple(
            (f.name, _frozen(getattr(row, f.name)) if f.name != "character" else _traits(row))
            for f in fields(row)
        )
        return cls(values)


def _traits(row: Any) -> tuple[str, ...]:
    return tuple(row.character.traits) if row.character is not None else ()


_PLAIN = (str, int, float, bool, type(None))


def _frozen(value: Any) -> Hashable:
    if isinstance(value, _PLAIN):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        if type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            try:  # a frozen value (a card) is its own key: equal only to an equal value
                hash(value)
                return (type(value).__name__, value)
            except TypeError:  # it holds a list: frozen field by field below
                pass
        return (
            type(value).__name__,
            *((f.name, _frozen(getattr(value, f.name))) for f in fields(value)),
        )
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    hash(value)  # anything else must be a plain value: an unhashable one is a bug, said at once
    plain: Hashable = value
    return plain


def own_hand_html(hand: Any, context: Any) -> SafeString:
    """One of the viewer's own hands, see ``hand_html``."""
    return hand_html("conflicts/_own_hand.html", "hand", hand, context)


def seat_html(hand: Any, context: Any) -> SafeString:
    """One hand on the Dealer's console (the row as the Dealer sees it), see ``hand_html``."""
    return hand_html("conflicts/_seat.html", "h", hand, context)


def hand_html(template: str, name: str, hand: Any, context: Any) -> SafeString:
    """``template`` for one hand row, see ``form_piece``: a move elsewhere at the table does not
    render it again."""
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
    from its own small context only — the row under ``name`` (a dataclass), the table's public
    facts named in ``facts`` (the same for every screen of that table at that version), its
    references, and stand-ins for the version, the forms' keys and the CSRF token — and
    remembered under the whole of it (``HandPiece``): a piece is only ever used again for a
    screen whose row and facts are the very same (R10, R30)."""
    csrf = context.get("csrf_token")
    table = tuple((n, _frozen(context.get(n))) for n in facts)
    html = _remembered_hand(
        template, name, HandPiece.of(row), _Unkeyed(row, {n: context.get(n) for n in facts}),
        table, tuple(sorted(refs.items())), bool(csrf),
    )  # fmt: skip
    out = html.replace(_VERSION, str(context.get("version", ""))).replace(_CSRF, str(csrf or ""))
    parts = out.split(_KEY)
    if len(parts) > 1:  # a fresh key for each form, as FreshKey would print it
        out = "".join(p + str(FreshKey()) for p in parts[:-1]) + parts[-1]
    return mark_safe(out)  # rendered (escaped) by the template; the stand-ins are plain words


class _Unkeyed:
    """The live row and table facts, carried beside their key but not part of it (equal to any
    other): the piece is rendered from them, and the key says all that they hold."""

    def __init__(self, row: Any, facts: dict[str, Any]) -> None:
        self.row = row
        self.facts = facts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unkeyed)

    def __hash__(self) -> int:
        return 0


# What a hand's piece reads of the table besides its row (public facts, the same for every
# screen of that table at that version); part of its key.
TABLE_FACTS = ("state_phase", "revealed", "is_over", "narration")


@bounded(4096)
def _remembered_hand(
    template: str, name: str, key: HandPiece, row: _Unkeyed,
    table: tuple[tuple[str, Hashable], ...], refs: tuple[tuple[str, Ref], ...], csrf: bool,
) -> SafeString:  # fmt: skip
    context = {
        name: row.row, **{n: row.facts[n] for n, _ in table}, **dict(refs),
        "version": _VERSION, "fresh_key": _KEY, "csrf_token": _CSRF if csrf else "",
    }  # fmt: skip
    return mark_safe(render_to_string(template, context))
