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

import hashlib
import itertools
import os
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime

if TYPE_CHECKING:
    from conflicts.selectors import CardView

KEEP = 4096  # pieces remembered per process (a few KiB each at most)

# Idempotency keys: a keyed hash of (process, counter) under a secret drawn once per process —
# as unguessable as ``secrets.token_hex(12)`` (a key someone else could guess could be claimed
# first, and the real move then taken for a double click), but without a system call per form:
# a busy table prints hundreds of keys a second, and ``os.urandom`` for each was 8 % of the
# server's CPU (py-spy, ``make bench BENCH=live``). The pid keeps forked children apart.
_KEY_SECRET = os.urandom(32)
_key_numbers = itertools.count()  # next() is atomic under the GIL


def fresh_key() -> str:
    """A new idempotency key for one form: 24 hex digits, never the same twice."""
    message = f"{os.getpid()}:{next(_key_numbers)}".encode()
    return hashlib.blake2b(message, key=_KEY_SECRET, digest_size=12).hexdigest()


_lock = threading.Lock()
_memo: OrderedDict[Hashable, SafeString] = OrderedDict()


def _remembered(key: Hashable, template: str, context: dict[str, Any]) -> SafeString:
    """``template`` rendered with exactly ``context``, or what that key already gave."""
    with _lock:
        html = _memo.get(key)
        if html is not None:
            _memo.move_to_end(key)
            return html
    html = mark_safe(render_to_string(template, context))
    with _lock:
        _memo[key] = html
        while len(_memo) > KEEP:
            _memo.popitem(last=False)
    return html


def shared(template: str, **context: Hashable) -> SafeString:
    """``template`` rendered with exactly ``context`` (hashable values: frozen dataclasses,
    tuples, strings, numbers), remembered by the whole of it."""
    return _remembered((template, tuple(sorted(context.items()))), template, dict(context))


def forget() -> None:
    """Drop every remembered piece (tests)."""
    with _lock:
        _memo.clear()
    _timeline_line.cache_clear()


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


@lru_cache(maxsize=16384)
def _timeline_line(item: TimelineItem) -> str:
    when = localtime(item.created_at)
    return format_html(
        '<li class="timeline__item"><time class="timeline__time" datetime="{}">{}</time> '
        '<span class="timeline__text">{}</span>{}</li>\n',
        when.isoformat(),
        when.strftime("%H:%M"),
        item.text,
        format_html(' <span class="timeline__who">&mdash; {}</span>', item.actor)
        if item.actor
        else "",
    )


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


# --- A player's own hand -----------------------------------------------------------------------

# Stand-ins for what differs with every render even when the hand does not: the table's version
# (in every form), each form's fresh idempotency key, and the viewer's CSRF token.
_VERSION = "ddVERSIONdd"
_KEY = "ddFRESHKEYdd"
_CSRF = "ddCSRFTOKENdd"


@dataclass(frozen=True)
class _Ref:
    """What the piece's URLs need of the campaign and the conflict."""

    slug: str = ""
    pk: int = 0


def own_hand_html(hand: Any, context: Any) -> SafeString:
    """One of the viewer's own hands (``selectors.HandRow``: only what ``conflict_view`` gave
    this viewer), see ``row_piece``."""
    return row_piece("conflicts/_own_hand.html", "hand", hand, context)


def seat_html(hand: Any, context: Any) -> SafeString:
    """One hand on the Dealer's console (the row as the Dealer sees it), see ``row_piece``."""
    return row_piece("conflicts/_seat.html", "h", hand, context)


def row_piece(template: str, name: str, hand: Any, context: Any) -> SafeString:
    """``template`` for one hand row, remembered by the whole row — its ``repr`` covers every
    field, nested rows and cards included — with the traits (the one thing read from the
    character), the phase and the table: a move elsewhere at the table does not render it
    again. The row holds what this viewer may see of that hand, so a piece is only ever used
    again for a screen whose row is the very same (R10)."""
    character = hand.character
    traits = tuple(character.traits) if character is not None else ()
    csrf = context.get("csrf_token")
    campaign, conflict = context["campaign"], context["conflict"]
    key = (
        template, repr(hand), traits, context.get("state_phase"), context.get("revealed"),
        campaign.slug, conflict.pk, bool(csrf),
    )  # fmt: skip
    html = _remembered(
        key,
        template,
        {
            name: hand,
            "state_phase": context.get("state_phase"),
            "revealed": context.get("revealed"),
            "campaign": _Ref(slug=campaign.slug),
            "conflict": _Ref(pk=conflict.pk),
            "version": _VERSION,
            "fresh_key": _KEY,
            "csrf_token": _CSRF if csrf else "",
        },
    )
    out = html.replace(_VERSION, str(context.get("version", ""))).replace(_CSRF, str(csrf or ""))
    parts = out.split(_KEY)
    if len(parts) > 1:  # a fresh key for each form, as FreshKey would print it
        out = "".join(p + fresh_key() for p in parts[:-1]) + parts[-1]
    return mark_safe(out)  # rendered (escaped) by the template; the stand-ins are plain words
