"""The Gunfighter through its pages, as phones tap it: each sees their own controls and the same
public table (GF10), refusals write nothing, a double tap is one move, late and out-of-turn
moves are refused in plain words, the one-off lobby takes guests to their seat."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from gunfighter.engine import state as s
from gunfighter.models import Gunfight, GunfightLine, GunfightMoveKey
from tables.running import running_for
from tests.gunfighter.conftest import state_of
from tests.kit import new_game

pytestmark = pytest.mark.django_db


def tap(client: Client, gunfight: Gunfight, action: str, key: str = "", **data: Any) -> Any:
    url = reverse(
        "gunfighter:move",
        kwargs={"slug": gunfight.campaign.slug, "gunfighter_id": gunfight.pk, "action": action},
    )
    return client.post(url, {"key": key, **data}, HTTP_HX_REQUEST="true")


def as_user(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def written(gunfight: Gunfight) -> tuple[int, int, int]:
    gunfight.refresh_from_db()
    return (
        gunfight.version,
        GunfightLine.objects.filter(gunfight=gunfight).count(),
        GunfightMoveKey.objects.filter(gunfight=gunfight).count(),
    )


def set_all(gunfight: Gunfight, *users: Any) -> None:
    for user in users:
        assert tap(as_user(user), gunfight, "ready").status_code == 200


def no_covert(gunfight: Gunfight, *users: Any) -> None:
    """R38: each says "no covert card", so the clock need not wait for one."""
    for user in users:
        answer = tap(as_user(user), gunfight, "nocovert")
        assert b"plays no covert card this showdown." in answer.content


def test_it_starts_a_gunfight_from_the_tables_page(
    campaign: Campaign, dealer: Any, player_a: Any, player_b: Any
) -> None:
    client = as_user(dealer)
    page = client.get(reverse("gunfighter:list", args=[campaign.slug]))
    assert page.status_code == 200
    assert b"Call a gunfight" in page.content
    posted = client.post(
        reverse("gunfighter:new", args=[campaign.slug]),
        {"player": [player_a.pk, dealer.pk], "western": player_a.pk, "key": "k1"},
    )
    gunfight = Gunfight.objects.get(campaign=campaign)
    assert posted.status_code == 302
    assert posted["Location"] == gunfight.get_absolute_url()
    assert [seat.user for seat in gunfight.seats.all()] == [player_a, dealer]
    state = state_of(gunfight)
    assert state.western == "p1"
    assert state.phase == s.Phase.PREPARE
    again = client.post(  # the same form again: the same game (once per form)
        reverse("gunfighter:new", args=[campaign.slug]),
        {"player": [player_a.pk, dealer.pk], "western": player_a.pk, "key": "k1"},
    )
    assert again.status_code == 302
    assert Gunfight.objects.count() == 1
    alone = client.post(reverse("gunfighter:new", args=[campaign.slug]), {"player": [dealer.pk]})
    assert b"2 to 6 gunfighters" in alone.content


def test_each_phone_shows_its_own_gunfighter_and_the_same_table(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any, outsider: Any
) -> None:
    """GF10: the table's counts are the same on every phone; only one's own controls differ."""
    pages = {
        u.username: as_user(u).get(gunfight.get_absolute_url()).content.decode()
        for u in (dealer, player_a, player_b)
    }
    state = state_of(gunfight)
    for pid, (name, page) in zip(("p1", "p2", "p3"), pages.items(), strict=True):
        assert f'data-me="{pid}"' in page, name
        assert (
            f'You play the <strong class="deck deck--{state.gunfighter(pid).deck.lower()}"' in page
        )
    tables = {
        name: page[page.index('id="h-seats"') : page.index('id="h-timeline"')]
        for name, page in pages.items()
    }
    # The same on every phone, but for the highlight of one's own row.
    assert len({t.replace(" gunfighter--me", "") for t in tables.values()}) == 1
    assert as_user(outsider).get(gunfight.get_absolute_url()).status_code == 404
    assert tap(as_user(outsider), gunfight, "ready").status_code == 404


def test_a_member_who_does_not_play_watches_and_cannot_tap(
    campaign: Campaign, dealer: Any, player_a: Any, player_b: Any
) -> None:
    gunfight = new_game("gunfighter", campaign=campaign, actor=dealer, players=[dealer, player_a])
    page = as_user(player_b).get(gunfight.get_absolute_url()).content.decode()
    assert "You are not in this gunfight" in page
    assert "Bandolier set" not in page
    before = written(gunfight)
    assert tap(as_user(player_b), gunfight, "ready").status_code == 403
    assert written(gunfight) == before


def test_a_refused_move_writes_nothing_and_says_why(
    gunfight: Gunfight, dealer: Any, player_a: Any
) -> None:
    """GF4: the clock waits for every bandolier; nothing is written, not even the key."""
    set_all(gunfight, dealer)
    before = written(gunfight)
    answer = tap(as_user(dealer), gunfight, "clock", key="tap-1")
    assert b"Not yet: waiting for Abe and Bess to set their bandolier." in answer.content
    assert json.loads(answer["HX-Trigger"])["move-answered"]["refused"] is True
    assert written(gunfight) == before
    assert (
        tap(as_user(player_a), gunfight, "mat", left="9").content.count(b"a number from 0 to 6")
        == 1
    )
    assert written(gunfight) == before


def test_a_double_tap_is_one_move(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any
) -> None:
    set_all(gunfight, dealer, player_a, player_b)  # R38: covert cards after the bandoliers
    before = written(gunfight)
    client = as_user(dealer)
    first = tap(client, gunfight, "covert", key="same", version=before[0])
    second = tap(client, gunfight, "covert", key="same", version=before[0])
    assert first.status_code == second.status_code == 200
    assert b"already" not in second.content
    assert written(gunfight) == (before[0] + 1, before[1] + 1, before[2] + 1)
    assert state_of(gunfight).gunfighter("p1").covert == 4


def test_another_players_tap_never_makes_mine_stale(
    gunfight: Gunfight, dealer: Any, player_a: Any
) -> None:
    """The kit's basis: my seat, not the whole table (players tap at once)."""
    version = written(gunfight)[0]
    page = as_user(player_a).get(gunfight.get_absolute_url()).content.decode()
    basis = page.split('name="basis" value="')[1].split('"')[0]
    set_all(gunfight, dealer)
    answer = tap(as_user(player_a), gunfight, "ready", version=version, basis=basis, pid="p2")
    assert (
        b"Abe&#x27;s bandolier is set." in answer.content
        or b"Abe's bandolier is set." in answer.content
    )
    assert state_of(gunfight).gunfighter("p2").ready


def test_the_clock_then_the_mats_in_turn_late_and_out_of_turn_refused(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GF3, GF4, GF5 through the pages, on a server clock the test holds."""
    now = [1_800_000_000_000]
    monkeypatch.setattr("tables.clock.now_ms", lambda: now[0])
    set_all(gunfight, dealer, player_a, player_b)
    no_covert(gunfight, dealer, player_a, player_b)
    # R39: Delia saw a western last: she starts the clock, not Bess.
    refused = tap(as_user(player_b), gunfight, "clock")
    assert b"Delia starts the clock: they saw a western last." in refused.content
    started = tap(as_user(dealer), gunfight, "clock")
    assert b"data-table-clock" in started.content
    state = state_of(gunfight)
    assert state.clock_at == now[0] + 1500  # the lead: every phone hears of it first
    assert tap(as_user(dealer), gunfight, "covert").content.count(b"Too late: covert cards") == 1
    early = tap(as_user(dealer), gunfight, "mat")
    assert b"The showdown is still on" in early.content
    now[0] += 1500 + 10_000
    before = written(gunfight)
    wrong = tap(as_user(player_a), gunfight, "mat", hit_p1="1")
    assert b"Not your mat yet: Delia&#x27;s mat is reviewed now." in wrong.content
    assert written(gunfight) == before
    tap(
        as_user(dealer),
        gunfight,
        **{"action": "mat", "hit_p2": "2", "hit_p3": "1", "last": "p3", "left": "2"},
    )
    state = state_of(gunfight)
    assert state.gunfighter("p1").lives == 0
    assert state.gunfighter("p1").out == 0  # R38: eliminated once every mat is reviewed
    tap(as_user(player_a), gunfight, "mat", hit_p3="3")
    end = tap(as_user(player_b), gunfight, "mat")
    state = state_of(gunfight)
    assert state.gunfighter("p1").out == 1
    assert state.gunfighter("p3").covert == 15  # Delia's 5 and Abe's 5
    assert state.phase == s.Phase.OVER
    assert state.winner == "p3"
    assert b"You win!" in end.content  # issue 36: Bess's own phone
    assert b"You are the last gunfighter standing." in end.content
    assert (
        b"Showdown 1:</strong> Abe shot Delia for 2; Bess shot Delia for 1; Bess shot Abe for 3."
        in end.content
    )
    assert not [t for t in running_for(dealer) if t.kind == "gunfighter"]


def test_the_running_banner_and_the_one_off_lobby_take_guests_to_their_seat(
    dealer: Any, player_a: Any
) -> None:
    table = campaign_create(dealer=dealer, name="Friday", kind=Campaign.Kind.ONE_OFF)
    Membership.objects.create(campaign=table, user=player_a, role=Membership.Role.PLAYER)
    guest = as_user(player_a)
    lobby = reverse("saloon:list", args=[table.slug])
    assert b"The Gunfighter" in guest.get(lobby).content  # the one-off lobby links the game
    gunfight = new_game("gunfighter", campaign=table, actor=dealer, players=[dealer, player_a])
    moved = guest.get(lobby + "?known=", HTTP_HX_REQUEST="true")
    assert moved["HX-Redirect"] == gunfight.get_absolute_url()
    mine = guest.get(
        reverse("gunfighter:list", args=[table.slug]) + "?known=", HTTP_HX_REQUEST="true"
    )
    assert mine["HX-Redirect"] == gunfight.get_absolute_url()
    banner = [t for t in running_for(player_a) if t.kind == "gunfighter"]
    assert banner
    assert banner[0].dealer is False
    assert banner[0].phase_label == "before a showdown"


def test_the_rulings_page_has_the_readings_with_the_seeds_words(
    client: Client, dealer: Any
) -> None:
    page = as_user(dealer).get(reverse("conflicts:rulings")).content.decode()
    assert "The Gunfighter" in page
    assert "GF7" in page
    assert "all players will shuffle any cards from their bandolier" in page


def test_the_server_clock_is_never_stored(client: Client) -> None:
    answer = client.get(reverse("clock"))
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"]
    assert abs(json.loads(answer.content)["now"] - time.time() * 1000) < 5000


def test_a_tap_from_a_page_of_before_the_clock_is_refused_and_writes_nothing(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any
) -> None:
    """GF4/GF8: the covert card, tapped on a page loaded before the clock started, is late
    (the host started the clock without waiting for it, R38)."""
    set_all(gunfight, dealer, player_a, player_b)
    page = as_user(dealer).get(gunfight.get_absolute_url()).content.decode()
    form = page[page.index("act--covert") :]
    version = form.split('name="version" value="')[1].split('"')[0]
    basis = form.split('name="basis" value="')[1].split('"')[0]
    no_covert(gunfight, player_a, player_b)
    tap(as_user(dealer), gunfight, "clock-anyway")
    before = written(gunfight)
    late = tap(as_user(dealer), gunfight, "covert", version=version, basis=basis, pid="p1")
    assert b"The table has moved on since that page was loaded" in late.content
    assert written(gunfight) == before
    assert state_of(gunfight).gunfighter("p1").covert == 5


def test_the_live_stream_sends_each_phone_its_own_panel(
    gunfight: Gunfight, dealer: Any, player_a: Any, outsider: Any
) -> None:
    from django.http import Http404

    from dustdevils.live.tables import Viewer
    from tables.site import site

    GUNFIGHTS = site.live("gunfighter")

    slug = gunfight.campaign.slug
    version, html = GUNFIGHTS.first_sync(Viewer(player_a.pk, slug, gunfight.pk, False, "t"))
    assert version == gunfight.version
    assert 'data-me="p2"' in html
    assert 'id="gunfighter-main"' in html
    with pytest.raises(Http404):
        GUNFIGHTS.first_sync(Viewer(outsider.pk, slug, gunfight.pk, False, "t"))


def test_choosing_decks_on_the_phones_or_drawing_at_random_at_one_tap(
    campaign: Campaign, dealer: Any, player_a: Any, player_b: Any
) -> None:
    """GF2: everyone agreed to choose: each picks a free deck; one tap against it deals them."""
    client = as_user(dealer)
    client.post(
        reverse("gunfighter:new", args=[campaign.slug]),
        {"player": [dealer.pk, player_a.pk, player_b.pk], "choose": "on", "key": "k2"},
    )
    gunfight = Gunfight.objects.get(campaign=campaign)
    assert state_of(gunfight).phase == s.Phase.CHOOSE
    page = client.get(gunfight.get_absolute_url()).content.decode()
    assert "Choose your character deck." in page
    assert 'value="Reverend">Reverend (White)' in page
    tap(client, gunfight, "choose", deck="Reverend")
    taken = tap(as_user(player_a), gunfight, "choose", deck="Reverend")
    assert b"Delia plays the Reverend (White): pick another." in taken.content
    tap(as_user(player_a), gunfight, "choose", deck="Lawman")
    assert [f.deck for f in state_of(gunfight).gunfighters] == ["Reverend", "Lawman", ""]
    tap(as_user(player_b), gunfight, "random")
    state = state_of(gunfight)
    assert state.phase == s.Phase.PREPARE
    assert len({f.deck for f in state.gunfighters}) == 3
