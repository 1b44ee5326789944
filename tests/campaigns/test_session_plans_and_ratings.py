"""Sessions: the Dealer plans them; each session keeps its own Devil ratings (R21)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import DevilRating, GameSession
from campaigns.services import CampaignError, NotYourCharacter, devil_rating_set
from characters.services import character_create
from tests.campaigns.conftest import url

HTMX = {"HX-Request": "true"}


def rate(client: Client, campaign: Any, character: Any, rating: Any, **kw: Any) -> Any:
    return client.post(
        url("devil_rating", campaign.slug, 1), {"character": character.pk, "rating": rating}, **kw
    )


# --- Planning ---------------------------------------------------------------------------------


def test_it_plans_numbered_sessions(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    client = client_as(dealer)
    response = client.post(url("session_plan", campaign.slug), {"date": "2027-03-12", "notes": ""})
    assert response["Location"] == campaign.get_absolute_url() + "#sessions"
    client.post(url("session_plan", campaign.slug), {"date": ""}, headers=HTMX)
    sessions = list(GameSession.objects.values_list("number", "date", "status"))
    assert sessions == [(1, datetime.date(2027, 3, 12), "planned"), (2, None, "planned")]


def test_it_refuses_a_bad_date(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    response = client_as(dealer).post(url("session_plan", campaign.slug), {"date": "someday"})
    assert "Enter a valid date" in response.content.decode()
    assert not GameSession.objects.exists()


def test_it_shows_a_session_to_the_table(
    client_as: Callable[[Any], Client], campaign: Any, session_1: Any, pc_a: Any, player_b: User
) -> None:
    html = client_as(player_b).get(url("session", campaign.slug, 1)).content.decode()
    assert "Session 1" in html
    assert "Devil ratings" in html
    assert "Abe Slade" in html
    assert "not set" in html


def test_it_404s_a_session_that_does_not_exist(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    assert client_as(dealer).get(url("session", campaign.slug, 9)).status_code == 404


# --- Devil ratings (R21) ------------------------------------------------------------------------


def test_it_lets_a_player_set_their_own_pcs_rating(
    client_as: Callable[[Any], Client], campaign: Any, session_1: Any, pc_a: Any, player_a: User
) -> None:
    """R21: each player sets their character's Devil rating at the start of the session."""
    response = rate(client_as(player_a), campaign, pc_a, 3)
    assert response.status_code == 302
    record = DevilRating.objects.get()
    assert (record.session, record.character, record.rating, record.set_by) == (
        session_1,
        pc_a,
        3,
        player_a,
    )
    pc_a.refresh_from_db()
    assert pc_a.devil_rating == 2  # the standing rating is untouched: the session keeps its own


def test_it_changes_a_rating_rather_than_adding_one(
    client_as: Callable[[Any], Client], campaign: Any, session_1: Any, pc_a: Any, player_a: User
) -> None:
    client = client_as(player_a)
    rate(client, campaign, pc_a, 1)
    response = rate(client, campaign, pc_a, 2, headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="panel" id="devils"')
    assert '<span class="rating__value">2</span>' in html
    assert list(DevilRating.objects.values_list("rating", flat=True)) == [2]


@pytest.mark.parametrize("rating", ["0", "4", "-1", "99"])
def test_it_refuses_a_rating_out_of_range_and_saves_nothing(
    client_as: Callable[[Any], Client],
    campaign: Any,
    session_1: Any,
    pc_a: Any,
    player_a: User,
    rating: str,
) -> None:
    """R21: a Devil rating is 1 to 3."""
    response = rate(client_as(player_a), campaign, pc_a, rating)
    assert response.status_code == 200
    assert f"A Devil rating is 1, 2 or 3 (R21), not {rating}." in response.content.decode()
    assert not DevilRating.objects.exists()


@pytest.mark.parametrize("rating", ["", "three"])
def test_it_refuses_a_rating_that_is_not_a_number(
    client_as: Callable[[Any], Client],
    campaign: Any,
    session_1: Any,
    pc_a: Any,
    player_a: User,
    rating: str,
) -> None:
    response = rate(client_as(player_a), campaign, pc_a, rating, headers=HTMX)
    assert "Pick a Devil rating: 1, 2 or 3." in response.content.decode()
    assert not DevilRating.objects.exists()


def test_it_forbids_setting_another_players_pc(
    client_as: Callable[[Any], Client], campaign: Any, session_1: Any, pc_a: Any, player_b: User
) -> None:
    """R21: each player sets their own character's rating, not anyone else's."""
    response = rate(client_as(player_b), campaign, pc_a, 1)
    assert response.status_code == 403
    assert "Abe Slade is not your character" in response.content.decode()
    assert not DevilRating.objects.exists()


def test_it_forbids_a_player_setting_an_npc(
    client_as: Callable[[Any], Client], campaign: Any, session_1: Any, npc: Any, player_a: User
) -> None:
    assert rate(client_as(player_a), campaign, npc, 1).status_code == 403
    assert not DevilRating.objects.exists()


def test_it_lets_the_dealer_set_npcs_and_anyone(
    client_as: Callable[[Any], Client],
    campaign: Any,
    session_1: Any,
    npc: Any,
    pc_b: Any,
    dealer: User,
) -> None:
    client = client_as(dealer)
    assert rate(client, campaign, npc, 3).status_code == 302
    assert rate(client, campaign, pc_b, 1).status_code == 302
    assert sorted(DevilRating.objects.values_list("character__name", "rating")) == [
        ("Bess Doyle", 1),
        ("Mayor Crane", 3),
    ]


def test_it_shows_players_no_npc_ratings(
    client_as: Callable[[Any], Client],
    campaign: Any,
    session_1: Any,
    npc: Any,
    pc_a: Any,
    dealer: User,
    player_a: User,
) -> None:
    devil_rating_set(session=session_1, character=npc, rating=3, actor=dealer)
    html = client_as(player_a).get(url("session", campaign.slug, 1)).content.decode()
    assert "Mayor Crane" not in html
    assert "Mayor Crane" in client_as(dealer).get(url("session", campaign.slug, 1)).content.decode()


def test_it_offers_a_player_only_their_own_form(
    client_as: Callable[[Any], Client],
    campaign: Any,
    session_1: Any,
    pc_a: Any,
    pc_b: Any,
    player_a: User,
) -> None:
    html = client_as(player_a).get(url("session", campaign.slug, 1)).content.decode()
    assert f'name="character" value="{pc_a.pk}"' in html
    assert f'name="character" value="{pc_b.pk}"' not in html


def test_it_refuses_minor_npcs_and_characters_out_of_play(
    campaign: Any, session_1: Any, pc_a: Any, dealer: User
) -> None:
    barkeep = character_create(
        campaign=campaign, kind="npc", player=None, data={"name": "Barkeep"}, knacks={}
    )
    with pytest.raises(CampaignError, match="Barkeep has no Devil"):
        devil_rating_set(session=session_1, character=barkeep, rating=1, actor=dealer)
    pc_a.out_of_play = True
    pc_a.save()
    with pytest.raises(CampaignError, match="out of play"):
        devil_rating_set(session=session_1, character=pc_a, rating=1, actor=dealer)


def test_it_keeps_an_ended_sessions_ratings(
    campaign: Any, session_1: Any, pc_a: Any, player_a: User
) -> None:
    session_1.status = GameSession.Status.ENDED
    session_1.save()
    with pytest.raises(CampaignError, match="has ended"):
        devil_rating_set(session=session_1, character=pc_a, rating=1, actor=player_a)


def test_it_refuses_a_character_of_another_campaign(
    client_as: Callable[[Any], Client],
    campaign: Any,
    session_1: Any,
    outsider: User,
    dealer: User,
) -> None:
    from campaigns.services import campaign_create

    other = campaign_create(dealer=outsider, name="Elsewhere")
    stranger = character_create(
        campaign=other,
        kind="npc",
        player=None,
        data={"name": "S", "devil": "x", "devil_rating": 1},
        knacks={},
    )
    assert rate(client_as(dealer), campaign, stranger, 1).status_code == 404
    with pytest.raises(CampaignError, match="not in this campaign"):
        devil_rating_set(session=session_1, character=stranger, rating=1, actor=dealer)


def test_it_refuses_a_former_player(
    campaign: Any, session_1: Any, pc_a: Any, player_a: User
) -> None:
    campaign.memberships.filter(user=player_a).delete()
    with pytest.raises(NotYourCharacter):
        devil_rating_set(session=session_1, character=pc_a, rating=1, actor=player_a)
