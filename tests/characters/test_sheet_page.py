"""The character sheet page (the seed's CHARACTER SHEET), what each viewer sees, and leaving
play (R17)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaigns.models import DevilRating, GameSession, WantedLink
from characters.models import Character
from characters.services import CharacterError, character_leave_play, chips_grant
from tests.characters.conftest import text_of

ClientAs = Callable[[Any], Client]


def leave_url(character: Any) -> str:
    return reverse("characters:leave_play", args=[character.campaign.slug, character.pk])


def on_the_road(character: Any, attribute: str = "guts") -> Any:
    Character.objects.filter(pk=character.pk).update(**{f"{attribute}_current": 0})
    character.refresh_from_db()
    return character


def test_it_lays_out_the_seeds_sheet(client_as: ClientAs, pc_a: Any, player_b: User) -> None:
    """DETAILS, ATTRIBUTES, TRAITS, DEVIL and RATING, CHIPS, KNACKS, BACK STORY — as on the
    seed's sheet, in that order; a player at the same table may look."""
    Character.objects.filter(pk=pc_a.pk).update(back_story="Rode with Quantrill.", hand_current=3)
    response = client_as(player_b).get(pc_a.get_absolute_url())
    html = response.content.decode()
    words = text_of(html)
    assert response.status_code == 200
    headings = re.findall(r'<h2 class="box__title"[^>]*>([^<]+)</h2>', html)
    assert headings == ["Details", "Attributes", "Traits", "Devil", "Chips", "Knacks", "Back story"]
    assert "♠ Hand 4 rating 3 current 1 Difficulty taken" in words
    assert "♦ Eye 3 rating 3 current no Difficulty" in words
    assert "♣ Guts" in words
    assert "♥ Heart" in words
    assert "Quick as a rattler" in words
    assert "Ran from the war and never stopped running." in words
    assert "Current total 3 Chips earned 3 Chips spent 0" in words
    assert "Shootin' 4 Ridin' 3 Drinkin' 2 Gamblin' 2" in words
    assert "Rode with Quantrill." in words
    assert "Active" in words


def test_it_shows_the_standing_devil_rating_and_the_latest_sessions_R21(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    html = client_as(player_a).get(pc_a.get_absolute_url()).content.decode()
    assert 'class="pip pip--on">2<' in html
    for number, rating in ((1, 1), (2, 3)):
        session = GameSession.objects.create(campaign=pc_a.campaign, number=number)
        DevilRating.objects.create(session=session, character=pc_a, rating=rating)
    words = text_of(client_as(player_a).get(pc_a.get_absolute_url()).content.decode())
    assert "Session 2: set at 3" in words


def test_it_shows_the_road_to_hell_and_which_attribute_is_at_0_R17(
    client_as: ClientAs, pc_a: Any, player_a: User, player_b: User
) -> None:
    on_the_road(pc_a)
    words = text_of(client_as(player_a).get(pc_a.get_absolute_url()).content.decode())
    assert "On the Road to Hell (Guts at 0)" in words
    assert "Write the end" in words
    words = text_of(client_as(player_b).get(pc_a.get_absolute_url()).content.decode())
    assert "Write the end" not in words  # only Abe's player (or the Dealer)


def test_it_hides_an_npcs_secrets_from_players(
    client_as: ClientAs, npc: Any, pc_a: Any, player_a: User, dealer: User
) -> None:
    Character.objects.filter(pk=npc.pk).update(vocation="Mayor", description="Silver watch chain")
    WantedLink.objects.create(campaign=npc.campaign, npc=npc, pc=pc_a, devil_touched="The war")
    html = client_as(player_a).get(npc.get_absolute_url()).content.decode()
    for shown in ("Mayor Crane", "Mayor", "Silver watch chain"):
        assert shown in html
    for hidden in ("Owns the town", "Politickin", "Attributes", "Important", "Chips", "The war",
                   "Wanted!", "Road to Hell"):  # fmt: skip
        assert hidden not in html
    assert "The Dealer keeps the rest of this sheet." in html

    words = text_of(client_as(dealer).get(npc.get_absolute_url()).content.decode())
    for shown in ("Owns the town", "Politickin' 3", "Important non-player character",
                  "Wanted! Abe Slade — The war"):  # fmt: skip
        assert shown in words


def test_it_shows_wanted_links_to_the_dealer_only(
    client_as: ClientAs, npc: Any, pc_a: Any, player_a: User, dealer: User
) -> None:
    WantedLink.objects.create(campaign=npc.campaign, npc=npc, pc=pc_a, devil_touched="The war")
    assert "Mayor Crane" in client_as(dealer).get(pc_a.get_absolute_url()).content.decode()
    assert "Mayor Crane" not in client_as(player_a).get(pc_a.get_absolute_url()).content.decode()


def test_it_marks_the_print_and_screen_only_parts(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    html = client_as(player_a).get(pc_a.get_absolute_url()).content.decode()
    assert "css/sheet.css" in html
    assert 'class="sheet__actions no-print"' in html
    assert "data-print hidden" in html  # the Print button appears only with JavaScript


def test_it_lists_the_tables_characters(
    client_as: ClientAs, pc_a: Any, pc_b: Any, npc: Any, player_a: User, dealer: User
) -> None:
    words = text_of(
        client_as(player_a).get(reverse("characters:list", args=["dry-gulch"])).content.decode()
    )
    assert "Abe Slade" in words
    assert "Bess Doyle" in words
    assert "Mayor Crane" in words
    assert "important" not in words  # the Dealer's word for it
    assert "New non-player character" not in words
    dealer_words = text_of(
        client_as(dealer).get(reverse("characters:list", args=["dry-gulch"])).content.decode()
    )
    assert "New non-player character" in dealer_words
    assert "important" in dealer_words


# --- Leaving play (R17) -------------------------------------------------------------------


def test_it_lets_the_player_write_the_end_R17(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    on_the_road(pc_a, "heart")
    client = client_as(player_a)
    words = text_of(client.get(leave_url(pc_a)).content.decode())
    assert "On the Road to Hell (Heart at 0)" in words
    for fate in ("Dies", "Retires", "Goes mad", "Settles down", "Moves on", "In their own words"):
        assert fate in words

    data = {"fate": "settles_down", "epitaph": "Married the schoolteacher. Never drew again."}
    response = client.post(leave_url(pc_a), data)
    assert response.status_code == 302
    assert response["Location"] == pc_a.get_absolute_url()
    pc_a.refresh_from_db()
    assert (pc_a.out_of_play, pc_a.fate) == (True, "settles_down")
    assert pc_a.left_play_at is not None

    words = text_of(client.get(pc_a.get_absolute_url()).content.decode())
    assert "Out of play · Settles down" in words
    assert "Married the schoolteacher." in words
    assert "Edit the sheet" not in words
    assert "Shootin' 4" in words  # the sheet is kept


def test_it_needs_a_fate_and_an_epitaph_R17(client_as: ClientAs, pc_a: Any, player_a: User) -> None:
    on_the_road(pc_a)
    response = client_as(player_a).post(leave_url(pc_a), {"fate": "", "epitaph": " "})
    words = text_of(response.content.decode())
    assert "Choose how the story ends." in words
    assert "Write a few words for the headstone" in words
    assert not Character.objects.get(pk=pc_a.pk).out_of_play


def test_it_keeps_an_active_character_in_play_R17(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    client = client_as(player_a)
    assert "is not on the Road to Hell" in client.get(leave_url(pc_a)).content.decode()
    response = client.post(leave_url(pc_a), {"fate": "dies", "epitaph": "Too soon."})
    assert "is not on the Road to Hell" in text_of(response.content.decode())
    assert not Character.objects.get(pk=pc_a.pk).out_of_play


def test_it_ends_a_character_only_once_R17(pc_a: Any, player_a: User) -> None:
    on_the_road(pc_a)
    character_leave_play(
        character_id=pc_a.pk, fate="dies", epitaph="Shot in the back.", actor=player_a
    )
    with pytest.raises(CharacterError, match="has left play"):
        character_leave_play(character_id=pc_a.pk, fate="moves_on", epitaph="No.", actor=player_a)
    assert Character.objects.get(pk=pc_a.pk).fate == "dies"


def test_it_refuses_an_unknown_fate_R17(pc_a: Any) -> None:
    on_the_road(pc_a)
    with pytest.raises(CharacterError) as refused:
        character_leave_play(character_id=pc_a.pk, fate="ascends", epitaph="Up.", actor=None)
    assert refused.value.problems[0].field == "fate"


def test_it_keeps_the_chips_of_a_character_out_of_play_read_only_R17(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    on_the_road(pc_a)
    character_leave_play(character_id=pc_a.pk, fate="dies", epitaph="Gone.", actor=player_a)
    chips_grant(character_id=pc_a.pk, amount=1, actor=None)  # the ledger is still a ledger
    url = reverse("characters:chips", args=[pc_a.campaign.slug, pc_a.pk])
    words = text_of(client_as(player_a).get(url).content.decode())
    assert "has left play" in words
    assert "Spend chips" not in words
