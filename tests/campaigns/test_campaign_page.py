"""The campaign page: who sees what. The Dealer's prep (notes, Wanted! links, session plans,
non-player characters' Devils) never reaches a player's HTML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from characters.services import character_create
from tests.campaigns.conftest import LINK_SECRET, NOTE_SECRET, PLAN_SECRET, url

NPC_DEVIL = "Owns the town and fears losing it."


def page(client: Client, campaign: Any) -> str:
    response = client.get(campaign.get_absolute_url())
    assert response.status_code == 200
    return str(response.content.decode())


def test_it_shows_the_header_and_the_viewers_role(
    client_as: Callable[[Any], Client], campaign: Any, player_a: User, dealer: User
) -> None:
    campaign.pitch = "The wells are drying up."
    campaign.save()
    html = page(client_as(player_a), campaign)
    assert "<h1" in html
    assert "Dry Gulch" in html
    assert "Dry Gulch, Texas" in html
    assert "The wells are drying up." in html
    assert "You are a player" in html
    assert "You are the Dealer" in page(client_as(dealer), campaign)


def test_it_lists_player_characters_with_players_devils_status_and_chips(
    client_as: Callable[[Any], Client], campaign: Any, pc_a: Any, pc_b: Any, player_b: User
) -> None:
    html = page(client_as(player_b), campaign)
    assert "Abe Slade" in html
    assert "played by Abe" in html  # player_a's first name
    assert "Ran from the war and never stopped running." in html
    assert 'class="devil__rating" title="Devil rating">2<' in html
    assert pc_a.status_label in html  # "Active"
    assert '<span class="chips__count">3</span> chips' in html
    assert pc_a.get_absolute_url() in html  # the sheet
    assert "Bess Doyle" in html


def test_it_shows_the_road_to_hell_status(
    client_as: Callable[[Any], Client], campaign: Any, pc_a: Any, dealer: User
) -> None:
    """R17: a character with an attribute at 0 is on the Road to Hell."""
    pc_a.guts_current = 0
    pc_a.save()
    assert "On the Road to Hell (Guts at 0)" in page(client_as(dealer), campaign)


def test_it_puts_important_npcs_first_and_marks_them_for_the_dealer(
    client_as: Callable[[Any], Client], campaign: Any, npc: Any, dealer: User
) -> None:
    """R12/R28: an NPC with a Devil is important."""
    character_create(
        campaign=campaign, kind="npc", player=None, data={"name": "Aaron the barkeep"}, knacks={}
    )
    html = page(client_as(dealer), campaign)
    assert html.index("Mayor Crane") < html.index("Aaron the barkeep")
    assert "badge--important" in html
    assert NPC_DEVIL in html


def test_it_shows_players_only_the_public_face_of_npcs(
    client_as: Callable[[Any], Client], campaign: Any, npc: Any, player_a: User
) -> None:
    npc.vocation = "Mayor"
    npc.description = "A tall man in a black coat."
    npc.back_story = "Came west with stolen money."
    npc.save()
    html = page(client_as(player_a), campaign)
    assert "Mayor Crane" in html
    assert "A tall man in a black coat." in html
    assert NPC_DEVIL not in html
    assert "Came west with stolen money." not in html
    assert "badge--important" not in html  # not even which ones have a Devil
    assert npc.get_absolute_url() not in html


def test_it_never_shows_players_the_dealers_prep(
    client_as: Callable[[Any], Client],
    campaign: Any,
    note: Any,
    link: Any,
    session_1: Any,
    player_a: User,
    player_b: User,
) -> None:
    for player in (player_a, player_b):
        client = client_as(player)
        html = (
            page(client, campaign) + client.get(url("session", campaign.slug, 1)).content.decode()
        )
        assert NOTE_SECRET not in html
        assert "What really happened" not in html  # the note's title
        assert LINK_SECRET not in html
        assert "Wanted!" not in html
        assert PLAN_SECRET not in html
        assert url("note_create", campaign.slug) not in html


def test_it_shows_the_dealer_their_prep(
    client_as: Callable[[Any], Client],
    campaign: Any,
    note: Any,
    link: Any,
    session_1: Any,
    dealer: User,
) -> None:
    client = client_as(dealer)
    html = page(client, campaign)
    assert NOTE_SECRET in html
    assert LINK_SECRET in html
    assert "Mayor Crane" in html
    assert PLAN_SECRET in client.get(url("session", campaign.slug, 1)).content.decode()


def test_it_lists_sessions_for_everyone_and_lets_only_the_dealer_plan(
    client_as: Callable[[Any], Client], campaign: Any, session_1: Any, dealer: User, player_a: User
) -> None:
    player_html = page(client_as(player_a), campaign)
    assert "Session 1" in player_html
    assert "Planned" in player_html
    assert "Plan the next session" not in player_html
    assert "Plan the next session" in page(client_as(dealer), campaign)


def test_it_leaves_room_for_the_exchange_actions(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    assert 'class="campaign-actions"' in page(client_as(dealer), campaign)
