"""The home page lists a person's tables; a new campaign seats its creator as the Dealer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Campaign, Membership
from campaigns.services import CampaignError
from campaigns.starters import campaign_start
from tests.campaigns.conftest import url


def test_it_lists_the_tables_with_the_role(
    client_as: Callable[[Any], Client], campaign: Any, player_a: User
) -> None:
    html = client_as(player_a).get("/").content.decode()
    assert "Your tables" in html
    assert "Dry Gulch" in html
    assert campaign.get_absolute_url() in html
    assert "Player" in html


def test_it_shows_the_dealer_their_role(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    html = client_as(dealer).get("/").content.decode()
    assert 'badge--dealer">Dealer<' in html


def test_it_lists_no_tables_for_an_outsider(
    client_as: Callable[[Any], Client], campaign: Any, outsider: User
) -> None:
    html = client_as(outsider).get("/").content.decode()
    assert "Dry Gulch" not in html
    assert "sit at any table yet" in html
    assert "New campaign" in html


def test_it_seats_the_creator_as_dealer(client_as: Callable[[Any], Client], outsider: User) -> None:
    response = client_as(outsider).post(
        url("create"), {"name": "Tombstone Blues", "setting": "Arizona", "pitch": "Dust."}
    )
    campaign = Campaign.objects.get(name="Tombstone Blues")
    assert response.status_code == 302
    assert response["Location"] == campaign.get_absolute_url()
    seats = list(Membership.objects.filter(campaign=campaign))
    assert [(s.user, s.role) for s in seats] == [(outsider, Membership.Role.DEALER)]
    assert (campaign.setting, campaign.pitch) == ("Arizona", "Dust.")


def test_it_wants_a_name(client_as: Callable[[Any], Client], outsider: User) -> None:
    response = client_as(outsider).post(url("create"), {"name": "   "})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert not Campaign.objects.exists()


def test_it_answers_htmx_with_a_client_redirect(
    client_as: Callable[[Any], Client], outsider: User
) -> None:
    response = client_as(outsider).post(
        url("create"), {"name": "Tombstone Blues"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == Campaign.objects.get().get_absolute_url()


def test_it_rerenders_the_form_for_htmx_with_the_error(
    client_as: Callable[[Any], Client], outsider: User
) -> None:
    response = client_as(outsider).post(url("create"), {"name": ""}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="panel" id="new-campaign"')
    assert "This field is required" in html


def test_it_calls_the_hanged_man_loader(
    client_as: Callable[[Any], Client], outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    import exchange.starters

    calls: list[Campaign] = []
    monkeypatch.setattr(
        exchange.starters, "load_hanged_man", lambda *, campaign: calls.append(campaign)
    )
    client_as(outsider).post(url("create"), {"name": "The Hanged Man", "starter": "hanged-man"})
    campaign = Campaign.objects.get()
    assert calls == [campaign]


def test_it_fills_a_campaign_from_the_hanged_man(
    client_as: Callable[[Any], Client], outsider: User
) -> None:
    client_as(outsider).post(url("create"), {"name": "Last Oak", "starter": "hanged-man"})
    campaign = Campaign.objects.get()
    assert campaign.characters.exists()
    assert campaign.memberships.get().user == outsider


def test_it_leaves_no_campaign_when_the_starter_fails(
    outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    import exchange.starters

    def broken(*, campaign: Campaign) -> None:
        raise CampaignError("The gallows fell down.")

    monkeypatch.setattr(exchange.starters, "load_hanged_man", broken)
    with pytest.raises(CampaignError, match="gallows"):
        campaign_start(dealer=outsider, name="X", setting="", pitch="", starter="hanged-man")
    assert not Campaign.objects.exists()


def test_it_refuses_an_unknown_starter(outsider: User) -> None:
    with pytest.raises(CampaignError, match="no such starting situation"):
        campaign_start(dealer=outsider, name="X", setting="", pitch="", starter="deadwood")


@pytest.mark.django_db
def test_it_asks_anonymous_visitors_to_log_in_to_create(client: Client) -> None:
    response = client.post(url("create"), {"name": "X"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Campaign.objects.exists()
