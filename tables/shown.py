"""What a declared game's live screens read once per version, whoever looks (issue 38): the
row with its campaign, its seats, its campaign's members and the timeline's newest lines in
the row's caches (``screen_read``), so that each viewer's screen is made from the row alone —
their seat, whether they host, the lines — without a query of its own. The page of one viewer
reads the same through the same accessors, from the database when the row was read bare."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, prefetch_related_objects

from campaigns.models import Membership

SHOWN_LINES = 60  # the newest lines a screen shows (the rest: the story)


def screen_read(game: Any, table_id: int, lines: int = SHOWN_LINES) -> Any:
    """``game``'s row ``table_id`` (None: no such table) with its campaign, and in its caches
    its seats (``seats``), its campaign's members and its newest ``lines`` (``shown_lines``,
    newest first): four queries, once per version."""
    row = game.model._default_manager.select_related("campaign").filter(pk=table_id).first()
    if row is not None:
        newest = game.line_model._default_manager.order_by("-seq")[:lines]
        recent = Prefetch("lines", newest, to_attr="shown_lines")
        prefetch_related_objects([row], "seats", "campaign__memberships", recent)
    return row


def _user_id(user: User | None) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def seat_in(row: Any, user: User | None) -> Any:
    """``user``'s seat at ``row`` (None: they watch), from the seats ``screen_read`` read."""
    user_id = _user_id(user)
    if user_id is None:
        return None
    return next((seat for seat in row.seats.all() if seat.user_id == user_id), None)


def hosted_by(row: Any, user: User | None) -> bool:
    """Whether ``user`` hosts ``row``'s table (its campaign's Dealer: ``tables.seating.
    is_host``), from the members ``screen_read`` read."""
    user_id = _user_id(user)
    return user_id is not None and any(
        m.user_id == user_id and m.role == Membership.Role.DEALER
        for m in row.campaign.memberships.all()
    )


def shown_lines(row: Any, lines: int = SHOWN_LINES) -> list[Any]:
    """The timeline's newest ``lines``, newest first (as ``screen_read`` read them)."""
    read = getattr(row, "shown_lines", None)
    if read is not None:
        return list(read[:lines])
    return list(row.lines.order_by("-seq")[:lines])
