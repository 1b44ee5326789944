"""The one permission helper: every campaign page and action goes through it.

Non-members get 404 (they should not even learn that the campaign exists); members who try a
Dealer action get 403 with a plain message.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.models import Campaign, Membership


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
