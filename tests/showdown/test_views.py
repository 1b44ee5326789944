"""Saloon Showdown through its pages: starting a game, moves by each player's own phone,
refusals in plain words with nothing written, double taps done once, the host's event cards,
and the duel's race on the server's clock."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from showdown.engine.state import Phase
from showdown.models import Showdown, ShowdownLine
from tests.showdown.conftest import Clock, state_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def move(client: Client, showdown: Showdown, action: str, htmx: bool = False, **data: Any) -> Any:
    showdown.refresh_from_db()
    form = {"version": showdown.version, "key": data.pop("key", "")} | data
    url = showdown.get_absolute_url() + f"move/{action}/"
    return client.post(url, form, **(HTMX if htmx else {}))


def written(showdown: Showdown) -> tuple[int, int]:
    showdown.refresh_from_db()
    return showdown.version, ShowdownLine.objects.filter(showdown=showdown).count()


def test_the_table_page_lists_and_starts_a_game(
    client_as: Any, campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    """SS1: the players clockwise by seat number, the dealer token to who saw a western last."""
    client = client_as(dealer)
    page = client.get(f"/c/{campaign.slug}/showdown/")
    assert "Deal Saloon Showdown" in page.content.decode()
    data = {"player": [player_b.pk, dealer.pk, player_a.pk], f"seat_{player_b.pk}": 1,
            f"seat_{dealer.pk}": 2, f"seat_{player_a.pk}": 3, "dealer": player_a.pk,
            "roulette": "on", "key": "start-1"}  # fmt: skip
    response = client.post(f"/c/{campaign.slug}/showdown/new/", data)
    game = Showdown.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert client.post(f"/c/{campaign.slug}/showdown/new/", data).status_code == 302
    assert Showdown.objects.count() == 1  # the same form twice: one game
    state = state_of(game)
    assert [p.name for p in state.players] == ["Bess", "Delia", "Abe"]
    assert state.dealer == "p3"
    assert state.turn == "p1"
    assert state.options.roulette


def test_the_campaign_page_links_the_game(client_as: Any, dealer: User, campaign: Any) -> None:
    assert (
        f"/c/{campaign.slug}/showdown/"
        in client_as(dealer).get(f"/c/{campaign.slug}/").content.decode()
    )


def test_a_refused_move_says_why_and_writes_nothing(
    showdown: Showdown, phones: dict[str, Client]
) -> None:
    before = written(showdown)
    response = move(phones["p1"], showdown, "draw", htmx=True, **{"from": "deck"})
    assert "It is Bess’s turn, not yours." in response.content.decode()
    response = move(phones["p3"], showdown, "cash", htmx=True, cards="many")
    assert "Say how many Malloppo cards" in response.content.decode()
    response = move(phones["p3"], showdown, "threaten", htmx=True, target="p3", pistol="red")
    assert "Point the pistol at another player." in response.content.decode()
    assert written(showdown) == before


def test_a_double_tap_moves_once(showdown: Showdown, phones: dict[str, Client]) -> None:
    before, _ = written(showdown)
    for _ in range(2):
        move(phones["p3"], showdown, "cash", cards=2, key="tap-1", version=before)
    assert written(showdown)[0] == before + 1
    assert state_of(showdown).player("p3").loot == 40


def test_only_the_seated_play_and_only_the_host_reveals_events(
    showdown: Showdown, phones: dict[str, Client], outsider: User, django_user_model: Any
) -> None:
    stranger = Client()
    stranger.force_login(outsider)
    assert move(stranger, showdown, "cash", cards=1).status_code == 404
    assert move(phones["p2"], showdown, "reveal", event="rain", drawer="p3").status_code == 403
    before = written(showdown)
    assert move(phones["p1"], showdown, "reveal", event="rain", drawer="p3").status_code == 302
    assert written(showdown)[0] == before[0] + 1
    assert state_of(showdown).phase == Phase.EVENT
    response = move(phones["p3"], showdown, "draw", htmx=True, **{"from": "deck"})
    assert "Play is held while the event is resolved" in response.content.decode()


def test_a_duel_on_the_servers_clock(
    showdown: Showdown, phones: dict[str, Client], clock: Clock
) -> None:
    """SS6: "Via!" 3 s after the last Ready; a tap before it is refused; the first claim wins,
    the other is on the timeline with its lag (issue 36); the one shot confirms."""
    move(phones["p3"], showdown, "threaten", target="p1", pistol="blue")
    move(phones["p1"], showdown, "and-you")
    move(phones["p1"], showdown, "ready")
    clock.now += 500
    move(phones["p3"], showdown, "ready")
    go_at = clock.now + 3000
    page = phones["p1"].get(showdown.get_absolute_url()).content.decode()
    assert f'data-clock-start="{go_at}"' in page
    clock.now = go_at - 1
    early = move(phones["p1"], showdown, "fire", htmx=True, pistol="red", zone="head", noise="Blam")
    assert "Too soon: wait for “Via!”." in early.content.decode()
    clock.now = go_at + 180
    move(phones["p1"], showdown, "fire", pistol="red", zone="head", noise="Blam")
    clock.now += 2
    late = move(phones["p3"], showdown, "fire", htmx=True, pistol="blue", zone="arm", noise="Bang")
    said = "Bess fired too, 2 ms later: the first shot to reach the server counts."
    assert said in late.content.decode()  # issue 36: the losing claim is kept, with its lag
    assert said in phones["p1"].get(showdown.get_absolute_url()).content.decode()  # the timeline
    move(phones["p3"], showdown, "confirm")
    state = state_of(showdown)
    assert (state.player("p1").loot, state.player("p1").bounty) == (40, 30)
    assert state.player("p3").wounds == 1
    assert state.turn == "p1"


def test_the_rulings_page_shows_the_readings_with_the_seeds_words(
    client_as: Any, dealer: User
) -> None:
    page = client_as(dealer).get("/rulings/").content.decode()
    assert "Saloon Showdown" in page
    assert "SS7" in page
    assert "Russian roulette: a tie" in page
    assert "il colpo è in canna" in page  # the seed's own words beside the reading


def test_a_one_off_tables_lobby_offers_the_game(client_as: Any, dealer: User) -> None:
    from saloon.game import SALOON
    from tables.oneoff import oneoff_create

    table = oneoff_create(SALOON, host=dealer, name="Friday")
    page = client_as(dealer).get(table.get_absolute_url()).content.decode()
    assert f"/c/{table.slug}/showdown/" in page
    assert "Saloon Showdown" in page


def test_the_story_is_the_public_timeline_and_the_scores(
    showdown: Showdown, phones: dict[str, Client]
) -> None:
    move(phones["p3"], showdown, "threaten", target="p1", pistol="red")
    move(phones["p1"], showdown, "bluff")
    move(phones["p3"], showdown, "bullets", count=7)
    story = phones["p2"].get(showdown.get_absolute_url() + "story.md")
    assert story["Content-Type"].startswith("text/markdown")
    text = story.content.decode()
    assert "Bess takes the red pistol: “Ti senti fortunato, Delia?”" in text
    assert "7" not in text  # a count not revealed yet is in no story


def test_r37_the_jailed_threateners_phone_and_the_timeline_say_they_skip_their_turn(
    showdown: Showdown, phones: dict[str, Client]
) -> None:
    """R37: Bess threatens Delia, who is the Law: Bess is in jail (her seat says so on every
    phone) and play passes over her once (the timeline says "in jail: skips this turn")."""
    move(phones["p3"], showdown, "threaten", target="p1", pistol="blue")
    move(phones["p1"], showdown, "law")
    page = phones["p3"].get(showdown.get_absolute_url()).content.decode()
    assert "in jail: skips your next turn" in page
    assert (
        "in jail: skips their next turn"
        in phones["p2"].get(showdown.get_absolute_url()).content.decode()
    )
    move(phones["p1"], showdown, "draw", **{"from": "deck"})
    answer = move(phones["p2"], showdown, "draw", htmx=True, **{"from": "deck"})
    assert "Bess is in jail: skips this turn." in answer.content.decode()
    assert state_of(showdown).turn == "p1"
    assert "data-jailed" not in phones["p3"].get(showdown.get_absolute_url()).content.decode()
