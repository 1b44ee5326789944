"""One-off tables (issue 20): anyone logged in opens a saloon table without a campaign, invites
the others by single-use links, and they play. A one-off table is a campaign of its own (kind
one-off), so the same scoping holds: outsiders and members of other campaigns get 404, anonymous
visitors the login, and no card face reaches a viewer who may not see it."""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from saloon.engine import game as g
from saloon.game import SALOON
from saloon.models import Saloon
from tables.oneoff import oneoff_create
from tests.conftest import due
from tests.kit import new_game
from tests.saloon.conftest import play, state_of
from tests.saloon.kit import random_move
from tests.saloon.test_hidden import PAGES, check_pages, tokens

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver(/join/[\w-]+/)")
QUICK_START = re.compile(
    r'type="hidden" name="player" value="(\d+)"><input type="hidden" name="seat_\d+" '
    r'value="(\d+)"'
)


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def host(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user(username="hank", first_name="Hank")


@pytest.fixture
def guests(django_user_model: type[User]) -> list[User]:
    return [
        django_user_model.objects.create_user(username=name.lower(), first_name=name)
        for name in ("Ruth", "Cole")
    ]


def lobby(table: Campaign) -> str:
    return reverse("saloon:list", args=[table.slug])


def invite_link(host_client: Client, table: Campaign) -> str:
    response = host_client.post(reverse("saloon:invite", args=[table.slug]))
    assert response.status_code == 200
    found = LINK.search(response.content.decode())
    assert found is not None
    return found.group(1)


@pytest.fixture
def full_table(host: User, guests: list[User]) -> Campaign:
    """A one-off table with its host and two guests who came in by invitation links."""
    table = oneoff_create(SALOON, host=host, name="Friday at the Last Chance")
    host_client = client_for(host)
    for guest in guests:
        response = client_for(guest).post(invite_link(host_client, table))
        assert response.status_code == 302
    return table


# --- Opening a table and the home page --------------------------------------------------------


def test_it_offers_a_one_off_table_on_the_home_page(outsider: User) -> None:
    page = client_for(outsider).get("/").content.decode()
    assert "Start a one-off saloon table" in page
    assert f'action="{reverse("saloon:oneoff_new")}"' in page


def test_it_opens_a_one_off_table_with_its_host_in_the_chair(host: User) -> None:
    response = client_for(host).post(reverse("saloon:oneoff_new"), {"name": "  Dusk  Poker "})
    table = Campaign.objects.get()
    assert table.kind == Campaign.Kind.ONE_OFF
    assert table.name == "Dusk Poker"
    assert response["Location"] == lobby(table)
    seat = Membership.objects.get(campaign=table)
    assert (seat.user, seat.is_dealer) == (host, True)


def test_an_unnamed_table_is_named_after_its_host(host: User) -> None:
    client_for(host).post(reverse("saloon:oneoff_new"))
    assert Campaign.objects.get().name == "Hank’s saloon table"


def test_the_home_page_lists_one_off_tables_apart_from_campaigns(
    full_table: Campaign, campaign: Campaign, dealer: User
) -> None:
    Membership.objects.create(campaign=campaign, user=full_table.memberships.first().user)
    response = client_for(full_table.memberships.first().user).get("/")
    assert [m.campaign for m in response.context["tables"]] == [campaign]
    assert [m.campaign for m in response.context["oneoffs"]] == [full_table]
    page = response.content.decode()
    assert "One-off tables" in page
    assert f'href="{lobby(full_table)}"' in page
    # A real campaign's Dealer sees only the campaign.
    response = client_for(dealer).get("/")
    assert response.context["oneoffs"] == []
    assert "Friday at the Last Chance" not in response.content.decode()


def test_a_one_off_tables_campaign_page_is_its_lobby(full_table: Campaign, host: User) -> None:
    response = client_for(host).get(reverse("campaigns:detail", args=[full_table.slug]))
    assert response.status_code == 302
    assert response["Location"] == lobby(full_table)


# --- Invitations ------------------------------------------------------------------------------


def test_the_host_invites_by_link_and_the_guest_sits_down(host: User, guests: list[User]) -> None:
    table = oneoff_create(SALOON, host=host)
    link = invite_link(client_for(host), table)
    ruth = client_for(guests[0])
    page = ruth.get(link).content.decode()
    assert "one-off table of <strong>Death Enters the Saloon</strong>" in page
    assert "Take a seat" in page
    response = ruth.post(link)
    assert response["Location"] == lobby(table)
    assert Membership.objects.filter(campaign=table, user=guests[0], role="player").exists()
    assert ruth.get(lobby(table)).status_code == 200
    # Single use: the next person needs a link of their own.
    client_for(guests[1]).post(link)
    assert not Membership.objects.filter(campaign=table, user=guests[1]).exists()


def test_an_anonymous_guest_is_sent_to_log_in_and_back(host: User) -> None:
    table = oneoff_create(SALOON, host=host)
    link = invite_link(client_for(host), table)
    anonymous = Client()
    page = anonymous.get(link).content.decode()
    assert "Log in to take your seat" in page
    path = link.removeprefix("http://testserver")
    assert page.count(f'href="/accounts/login/?next={quote(path)}"') == 2  # the header's too
    response = anonymous.post(link)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Membership.objects.filter(campaign=table).count() == 1


def test_only_the_host_makes_links(full_table: Campaign, guests: list[User], campaign: Any) -> None:
    response = client_for(guests[0]).post(reverse("saloon:invite", args=[full_table.slug]))
    assert response.status_code == 403
    assert "Only the host" in response.content.decode()
    # A campaign's Dealer invites on the campaign's own page, not here.
    dealer = campaign.memberships.get(role="dealer").user
    response = client_for(dealer).post(reverse("saloon:invite", args=[campaign.slug]))
    assert response.status_code == 403


def test_the_lobby_shows_each_link_once(host: User) -> None:
    table = oneoff_create(SALOON, host=host)
    client = client_for(host)
    first, second = invite_link(client, table), invite_link(client, table)
    assert first != second
    assert first not in client.get(lobby(table)).content.decode()


def test_the_host_sees_the_links_made_so_far_and_withdraws_one(
    host: User, guests: list[User]
) -> None:
    """The lobby leads to the campaigns' own invitations page (who used which link, withdraw an
    unused one); a withdrawn link says the host withdrew it, not a Dealer."""
    from campaigns.models import Invite

    table = oneoff_create(SALOON, host=host)
    client = client_for(host)
    link = invite_link(client, table)
    invites = reverse("campaigns:invites", args=[table.slug])
    assert invites in client.get(lobby(table)).content.decode()
    assert client.get(invites).status_code == 200
    invite = Invite.objects.get(campaign=table)
    client.post(reverse("campaigns:invite_revoke", args=[table.slug, invite.pk]))
    page = client_for(guests[0]).get(link).content.decode()
    assert "It has been withdrawn." in page
    assert "Ask whoever sent it for a new link." in page
    assert not Membership.objects.filter(campaign=table, user=guests[0]).exists()


# --- The lobby and starting a game ------------------------------------------------------------


def test_the_lobby_waits_for_three_players(host: User, guests: list[User]) -> None:
    table = oneoff_create(SALOON, host=host)
    page = client_for(host).get(lobby(table)).content.decode()
    assert "Waiting for players: 3 to 5 play, 1 is here." in page
    assert not QUICK_START.search(page)


def test_everyone_at_the_table_starts_a_game_in_the_order_they_came(
    full_table: Campaign, host: User, guests: list[User]
) -> None:
    ruth = client_for(guests[0])
    page = ruth.get(lobby(full_table)).content.decode()
    seats = QUICK_START.findall(page)
    data = {"player": [user for user, _ in seats]} | {f"seat_{u}": s for u, s in seats}
    response = ruth.post(reverse("saloon:new", args=[full_table.slug]), data)
    saloon = Saloon.objects.get(campaign=full_table)
    assert response["Location"] == saloon.get_absolute_url()
    assert [s.user for s in saloon.seats.order_by("position")] == [host, *guests]
    for user in (host, *guests):
        assert (
            "Your seat at the game in play"
            in client_for(user).get(lobby(full_table)).content.decode()
        )


def test_the_lobby_is_asked_again_by_htmx_for_its_list_only(
    full_table: Campaign, host: User
) -> None:
    response = client_for(host).get(lobby(full_table), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="lobby"')
    assert 'hx-trigger="sse:changed, every 30s"' in page
    assert "<html" not in page
    assert "Ruth" in page
    assert "Cole" in page


def test_when_the_host_starts_a_game_the_lobby_takes_each_seated_guest_to_it(
    full_table: Campaign, host: User, guests: list[User]
) -> None:
    """Issue 27: the host was taken to the new game, the guests were not (one more tap, under
    start buttons that stayed visible). The lobby's live update of a guest with a seat in a
    game it had not shown sends them there (HX-Redirect), once; the start buttons go."""
    ruth = client_for(guests[0])
    page = ruth.get(lobby(full_table)).content.decode()
    found = re.search(r'hx-get="([^"]*\?known=[^"]*)"', page)
    assert found is not None
    refresh = found.group(1).replace("&amp;", "&")
    saloon = new_game(
        "saloon", campaign=full_table, actor=host, players=[host, *guests], rng=random.Random(3)
    )
    response = ruth.get(refresh, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"] == saloon.get_absolute_url()
    # The lobby drawn now knows that game: it stays put, and offers no second start.
    page = ruth.get(lobby(full_table)).content.decode()
    refresh = re.search(r'hx-get="([^"]*\?known=[^"]*)"', page).group(1)  # type: ignore[union-attr]
    again = ruth.get(refresh.replace("&amp;", "&"), HTTP_HX_REQUEST="true")
    assert "HX-Redirect" not in again
    assert not QUICK_START.search(page)
    assert "A game is in play at this table" in page


def test_the_lobby_listens_to_the_tables_stream_and_hears_arrivals_and_games(
    host: User, guests: list[User], django_capture_on_commit_callbacks: Any
) -> None:
    """The lobby connects to the campaign's stream, which says "changed" (on commit) when someone
    comes in by a link and when a game starts there."""
    from django.test import override_settings

    from dustdevils.live import broadcast as live

    table = oneoff_create(SALOON, host=host)
    page = client_for(host).get(lobby(table)).content.decode()
    assert f'sse-connect="{reverse("campaigns:stream", args=[table.slug])}"' in page
    heard: list[str] = []
    unsubscribe = live.subscribe(lambda channel, version: heard.append(channel))
    try:
        with override_settings(BROADCASTER="inprocess"):
            for guest in guests:
                with django_capture_on_commit_callbacks(execute=True):
                    client_for(guest).post(invite_link(client_for(host), table))
            assert heard.count(f"campaign-{table.pk}") == 2
            with django_capture_on_commit_callbacks(execute=True):
                new_game(
                    "saloon",
                    campaign=table,
                    actor=host,
                    players=[host, *guests],
                    rng=random.Random(3),
                )
            # The game's start (saloon_create says so, and so does tables.running for every
            # table set up: a repeated nudge in one commit costs a second look, nothing more).
            assert heard.count(f"campaign-{table.pk}") >= 3
            assert f"running-{host.pk}" in heard  # every member's "In play now" too
    finally:
        unsubscribe()


# --- Scoping ----------------------------------------------------------------------------------


@pytest.fixture
def game(full_table: Campaign, host: User, guests: list[User]) -> Saloon:
    return new_game(
        "saloon", campaign=full_table, actor=host, players=[host, *guests], rng=random.Random(2)
    )


def test_outsiders_and_other_campaigns_members_get_404(
    game: Saloon, full_table: Campaign, outsider: User, dealer: User, campaign: Any
) -> None:
    base = game.get_absolute_url()
    gets = [lobby(full_table), reverse("campaigns:detail", args=[full_table.slug])]
    gets += [base + page for page in (*PAGES, "stream/", "table/stream/")]
    posts = [
        reverse("saloon:invite", args=[full_table.slug]),
        reverse("saloon:new", args=[full_table.slug]),
        base + "move/raise/",
    ]
    for user in (outsider, dealer):  # the Dealer of another campaign is an outsider here
        client = client_for(user)
        for url in gets:
            assert client.get(url).status_code == 404, url
        for url in posts:
            assert client.post(url).status_code == 404, url
    assert state_of(game).unwanted == ""


def test_anonymous_visitors_are_sent_to_log_in(game: Saloon, full_table: Campaign) -> None:
    anonymous = Client()
    base = game.get_absolute_url()
    for url in (lobby(full_table), base, base + "table/", base + "story.md"):
        response = anonymous.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    for url in (reverse("saloon:oneoff_new"), reverse("saloon:invite", args=[full_table.slug])):
        response = anonymous.post(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert Campaign.objects.count() == 1


def test_a_guest_plays_their_own_seat(game: Saloon, guests: list[User]) -> None:
    ruth = client_for(guests[0])
    assert ruth.get(game.get_absolute_url()).status_code == 200
    response = ruth.post(game.get_absolute_url() + "move/raise/", {"version": game.version})
    assert response.status_code == 302
    assert state_of(game).unwanted == "p2"


# --- Hidden information across the seats of a one-off table -----------------------------------


def test_no_one_off_page_shows_a_card_its_viewer_may_not_see(
    game: Saloon, full_table: Campaign, host: User, guests: list[User], outsider: User, dealer: User
) -> None:
    users = {"p1": host, "p2": guests[0], "p3": guests[1]}
    viewers: dict[str | None, Client] = {pid: client_for(u) for pid, u in users.items()}
    strangers = (client_for(outsider), client_for(dealer), Client())
    rng = random.Random(7)
    for step in range(1000):
        state = state_of(game)
        check_pages(
            game,
            state,
            viewers,
            htmx=step % 3 == 0,
            pages=PAGES if step % 4 == 0 else ("",),
            step=step,
        )
        # The lobby names no card at all, whoever asks.
        for i, client in enumerate(viewers.values()):
            if due(step, i):
                assert not tokens(client.get(lobby(full_table)).content.decode())
        if step % 10 == 0:
            for stranger in strangers:
                for page in PAGES:
                    response = stranger.get(game.get_absolute_url() + page)
                    assert response.status_code in (302, 404)
                    assert not tokens(response.content.decode())
        if state.phase == g.Phase.OVER:
            break
        move = random_move(state, rng)
        play(game, users[move.pid], move, version=game.version, rng=rng)
        game.refresh_from_db()
    assert state_of(game).phase == g.Phase.OVER


def test_a_one_off_tables_file_imports_back_as_a_one_off_table(
    full_table: Campaign, host: User
) -> None:
    """The campaign file says ``"kind": "one_off"`` (a campaign's says nothing), so an import
    brings a one-off table back as one, not as a campaign with Dust Devils pages."""
    from exchange.api import campaign_export, campaign_import

    data = campaign_export(full_table)
    assert data["campaign"]["kind"] == "one_off"
    result = campaign_import(data, dealer=host, seat_members=False)
    assert result.campaign.kind == Campaign.Kind.ONE_OFF
    assert result.campaign.pk != full_table.pk
    data["campaign"]["kind"] = "tavern"
    from exchange.api import ImportRefused

    with pytest.raises(ImportRefused, match=r"campaign\.kind: must be one of"):
        campaign_import(data, dealer=host, seat_members=False)


def test_a_campaigns_file_says_no_kind(campaign: Any) -> None:
    from exchange.api import campaign_export

    assert "kind" not in campaign_export(campaign)["campaign"]
