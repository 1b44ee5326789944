"""The permission choke point (campaigns.access): one ORM query for a member's seat and its
campaign, 404 for anyone without one (issue 16: Django's own reads, no hand-written SQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from campaigns.access import membership_for
from campaigns.models import Membership

pytestmark = pytest.mark.django_db


def fields_of(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


# --- The membership -----------------------------------------------------------------------------


def test_the_membership_is_the_orm_s_with_its_campaign_in_one_query(
    campaign: Any, player_a: User
) -> None:
    expected = Membership.objects.select_related("campaign").get(
        campaign__slug=campaign.slug, user=player_a
    )
    with CaptureQueriesContext(connection) as queries:
        membership = membership_for(player_a, campaign.slug)
        assert membership.campaign.name == campaign.name  # cached: no second query
    assert len(queries) == 1
    assert fields_of(membership) == fields_of(expected)
    assert fields_of(membership.campaign) == fields_of(expected.campaign)
    assert membership.user is player_a  # the request's own user
    assert membership.role == Membership.Role.PLAYER
    assert not membership.is_dealer


def test_no_membership_for_an_outsider_or_an_unknown_campaign(
    campaign: Any, outsider: User, player_a: User
) -> None:
    with pytest.raises(Http404):
        membership_for(outsider, campaign.slug)
    with pytest.raises(Http404):
        membership_for(player_a, campaign.slug + "-not-this-one")


def test_the_dealer_s_membership_says_so(campaign: Any, dealer: User) -> None:
    assert membership_for(dealer, campaign.slug).is_dealer
