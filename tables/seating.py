"""Who sits at a table: the seating check of every new game, the table's host, and the line
the timeline says when the host acts for a player whose phone is gone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext, gettext_noop

from campaigns.models import Campaign, Membership
from cards.words import said


def seating_problem(campaign: Campaign, *, actor: User, players: Sequence[User]) -> str:
    """What is wrong with a new game of ``players`` at ``campaign``'s table started by
    ``actor``, in plain words ("" when nothing): everyone, the starter too, must sit at the
    table, and each player sits once. Every game at a table checks its players so."""
    members = set(Membership.objects.filter(campaign=campaign).values_list("user_id", flat=True))
    if actor.pk not in members:
        return gettext("Only the campaign's members can start a game at its table.")
    if any(p.pk not in members for p in players):
        return gettext("Every player must be a member of this campaign.")
    if len({p.pk for p in players}) != len(players):
        return gettext("Each player sits at the table once.")
    return ""


def is_host(campaign: Campaign, user: User) -> bool:
    """The table's host: its Dealer (at a one-off table, whoever opened it)."""
    return Membership.objects.filter(
        campaign=campaign, user=user, role=Membership.Role.DEALER
    ).exists()


def viewer_pid(row: Any, user: User | None) -> str | None:
    """A screen's viewer's seat at a game (None: they watch), from its seats: read from its
    cache when a screen's row was read with them (``Game.screen_row``), else one query."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat.pid for seat in row.seats.all() if seat.user_id == user.pk), None)


def hosts(campaign: Campaign, user: User | None) -> bool:
    """``is_host`` for a screen's viewer (anyone, or no one), from the campaign's members: read
    from its cache when a screen's row was read with them (``Game.screen_row``), else one query."""
    if user is None or not user.is_authenticated:
        return False
    return any(m.user_id == user.pk and m.is_dealer for m in campaign.memberships.all())


def acting_for(host: User, name: str) -> str:
    """The timeline's line when the host makes a move for a player whose phone is gone (flat,
    lost or left behind): The Gunfighter's GF12, Saloon Showdown's SS19."""
    return said(
        gettext_noop("{host} acts for {name}, whose phone is away."),
        host=host.first_name or host.get_username(), name=name,
    )  # fmt: skip
