"""The one permission helper: every campaign page and action goes through it.

Non-members get 404 (they should not even learn that the campaign exists); members who try a
Dealer action get 403 with a plain message.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaigns.models import Campaign, Membership
from dustdevils.rows import ModelColumns, fetch_one


class DealerOnly(PermissionDenied):
    """A player tried something only the Dealer may do."""

    def __init__(self, what: str = "do that") -> None:
        super().__init__(f"Only the Dealer can {what}.")


def membership_for(user: User | AnonymousUser, slug: str) -> Membership:
    """The user's seat at the campaign ``slug``, or 404 for anyone without one."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    # Every campaign page and move starts here: the SQL is made once (dustdevils.rows), as
    # ``Membership.objects.select_related("campaign").get(campaign__slug=slug, user=user)``
    # would read it (one seat per user and campaign).
    sql, seat, campaign = _membership_read()
    row = fetch_one(sql, [slug, user.pk])
    membership = None if row is None else seat.instance(row)
    found = None if row is None else campaign.instance(row, len(seat.names))
    if membership is None or found is None:
        raise Http404("No such campaign.")
    membership.campaign = found  # as select_related caches it
    membership.user = user  # the request's own, already read: not joined again
    return membership


@cache
def _membership_read() -> tuple[str, ModelColumns[Membership], ModelColumns[Campaign]]:
    seat, campaign = ModelColumns.of(Membership, "m"), ModelColumns.of(Campaign, "c")
    sql = (
        f"SELECT {seat.sql}, {campaign.sql} FROM {seat.table} "
        f"INNER JOIN {campaign.table} ON {campaign.col('id')} = {seat.col('campaign')} "
        f"WHERE {campaign.col('slug')} = %s AND {seat.col('user')} = %s"
    )
    return sql, seat, campaign


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
