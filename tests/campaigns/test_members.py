"""Who sits at the table: the Dealer removes players and hands the Dealer role on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Membership
from tests.campaigns.conftest import url

HTMX = {"HX-Request": "true"}


def seat(campaign: Any, user: User) -> Membership:
    return Membership.objects.get(campaign=campaign, user=user)


def test_it_shows_everyone_who_sits_at_the_table(
    client_as: Callable[[Any], Client], campaign: Any, player_b: User
) -> None:
    html = client_as(player_b).get(url("members", campaign.slug)).content.decode()
    for name in ("Delia", "Abe", "Bess"):
        assert name in html
    assert "Remove&hellip;" not in html  # players get no Dealer buttons
    assert html.index("Delia") < html.index("Abe") < html.index("Bess")  # the Dealer first


def test_it_asks_before_removing_a_player(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, player_a: User
) -> None:
    page = client_as(dealer).get(url("member_remove", campaign.slug, seat(campaign, player_a).pk))
    assert page.status_code == 200
    assert "Remove Abe?" in page.content.decode()
    assert Membership.objects.filter(user=player_a).exists()  # a GET changes nothing


def test_it_removes_a_player_who_then_gets_404(
    client_as: Callable[[Any], Client], campaign: Any, pc_a: Any, dealer: User, player_a: User
) -> None:
    client = client_as(dealer)
    response = client.post(url("member_remove", campaign.slug, seat(campaign, player_a).pk))
    assert response["Location"] == url("members", campaign.slug)
    assert "Abe has left the table." in client.get(response["Location"]).content.decode()
    assert not Membership.objects.filter(campaign=campaign, user=player_a).exists()
    pc_a.refresh_from_db()  # their character stays in the records
    assert pc_a.player == player_a

    removed = client_as(player_a)
    assert removed.get(campaign.get_absolute_url()).status_code == 404
    assert removed.get(url("members", campaign.slug)).status_code == 404
    assert "Dry Gulch" not in removed.get("/").content.decode()


def test_it_cannot_remove_the_dealer(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    client = client_as(dealer)
    response = client.post(url("member_remove", campaign.slug, seat(campaign, dealer).pk))
    assert "hand the Dealer role on first" in client.get(response["Location"]).content.decode()
    assert seat(campaign, dealer).is_dealer


def test_it_hands_the_dealer_role_over(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, player_b: User
) -> None:
    client = client_as(dealer)
    target = seat(campaign, player_b).pk
    assert (
        "Make Bess the Dealer?"
        in client.get(url("dealer_hand_over", campaign.slug, target)).content.decode()
    )
    response = client.post(url("dealer_hand_over", campaign.slug, target), headers=HTMX)
    assert response["HX-Redirect"] == url("members", campaign.slug)
    dealers = list(campaign.memberships.filter(role=Membership.Role.DEALER))
    assert [d.user for d in dealers] == [player_b]  # exactly one Dealer
    assert seat(campaign, dealer).role == Membership.Role.PLAYER  # the old one stays on
    # The roles follow: the old Dealer is refused Dealer pages now, the new one gets them.
    assert client.get(url("invites", campaign.slug)).status_code == 403
    assert client_as(player_b).get(url("invites", campaign.slug)).status_code == 200
