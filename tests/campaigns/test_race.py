"""Two people following the same invitation link at the same moment: one seat, not two.
Real PostgreSQL and real threads, each with its own connection and transaction."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from campaigns.models import Invite, Membership
from campaigns.services import CampaignError, invite_accept, invite_create
from tests.kit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 5


def test_it_seats_only_one_of_two_people_racing_for_one_link(
    campaign: Any, dealer: User, django_user_model: type[User]
) -> None:
    for round_ in range(ROUNDS):
        token = invite_create(campaign=campaign, actor=dealer)[1]
        racers = [
            django_user_model.objects.create_user(username=f"racer{round_}-{n}", password="x")
            for n in range(2)
        ]
        results = race(len(racers), lambda i, t=token, r=racers: invite_accept(token=t, user=r[i]))

        seats = [r for r in results if isinstance(r, Membership)]
        refusals = [r for r in results if isinstance(r, CampaignError)]
        assert len(seats) == 1, results
        assert len(refusals) == 1, results
        assert "already been used" in str(refusals[0])
        seated = Membership.objects.filter(campaign=campaign, user__in=racers)
        assert [m.user for m in seated] == [seats[0].user]
        assert Invite.objects.get(token_hash__isnull=False, used_by__in=racers).used_by == (
            seats[0].user
        )
    assert connection.vendor == "postgresql"
