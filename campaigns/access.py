"""The one permission helper: every campaign page and action goes through it.

Non-members get 404 (they should not even learn that the campaign exists); members who try a
Dealer action get 403 with a plain message.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext_noop

from campaigns.models import Campaign, Membership
from cards.words import said


class DealerOnly(PermissionDenied):
    """A player tried something only the Dealer may do."""

    def __init__(self, what: str = "do that") -> None:
        super().__init__(f"Only the Dealer can {what}.")


def membership_for(user: User | AnonymousUser, slug: str) -> Membership:
    """The user's seat at the campaign ``slug``, or 404 for anyone without one."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    try:
        membership = Membership.objects.select_related("campaign").get(
            campaign__slug=slug, user=user
        )
    except Membership.DoesNotExist:
        raise Http404("No such campaign.") from None
    membership.user = user  # the request's own, already read: not joined again
    return membership


def dealer_membership_for(
    user: User | AnonymousUser, slug: str, what: str = "do that"
) -> Membership:
    """Like ``membership_for``, and the user must be the Dealer (403 otherwise)."""
    membership = membership_for(user, slug)
    if not membership.is_dealer:
        raise DealerOnly(what)
    return membership


def campaigns_of(user: User) -> list[Campaign]:
    return list(Campaign.objects.filter(memberships__user=user).order_by("name"))


def seating_problem(campaign: Campaign, *, actor: User, players: Sequence[User]) -> str:
    """What is wrong with a new game of ``players`` at ``campaign``'s table started by
    ``actor``, in plain words ("" when nothing): everyone, the starter too, must sit at the
    table, and each player sits once. Every game at a table checks its players so."""
    members = set(Membership.objects.filter(campaign=campaign).values_list("user_id", flat=True))
    if actor.pk not in members:
        return "Only the campaign's members can start a game at its table."
    if any(p.pk not in members for p in players):
        return "Every player must be a member of this campaign."
    if len({p.pk for p in players}) != len(players):
        return "Each player sits at the table once."
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
