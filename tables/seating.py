"""Who sits at a table: the seating check of every new game, the table's host, and the line
the timeline says when the host acts for a player whose phone is gone."""

from __future__ import annotations

from collections.abc import Sequence

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


def acting_for(host: User, name: str) -> str:
    """The timeline's line when the host makes a move for a player whose phone is gone (flat,
    lost or left behind): The Gunfighter's GF12, Saloon Showdown's SS19."""
    return said(
        gettext_noop("{host} acts for {name}, whose phone is away."),
        host=host.first_name or host.get_username(), name=name,
    )  # fmt: skip
