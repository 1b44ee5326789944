"""SS19, the table's dead ends through the pages: a phone that is gone (the host acts for it,
as The Gunfighter's GF12), so no threat, bluff, duel or dispute waits for good."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from showdown.engine.state import Phase
from showdown.models import Showdown, ShowdownLine
from tests.showdown.conftest import Clock, state_of
from tests.showdown.test_views import move, written

pytestmark = pytest.mark.django_db


def last_lines(showdown: Showdown, n: int) -> list[str]:
    lines = ShowdownLine.objects.filter(showdown=showdown).order_by("-seq")[:n]
    return [line.text for line in reversed(lines)]


def test_the_host_plays_a_turn_and_counts_bullets_for_a_phone_that_is_gone(
    showdown: Showdown, phones: dict[str, Client]
) -> None:
    """SS19: Bess's phone died on her turn: Delia (the host) threatens for her and enters her
    bullets; the timeline says so. Abe sees no such panel."""
    host, abe = phones["p1"], phones["p2"]
    page = host.get(showdown.get_absolute_url()).content.decode()
    assert 'data-proxy-for="p3"' in page
    assert 'data-proxy-for="p1"' not in page
    assert "data-proxy" not in abe.get(showdown.get_absolute_url()).content.decode()
    move(host, showdown, "threaten", pid="p3", target="p2", pistol="red")
    assert last_lines(showdown, 2)[0] == "Delia acts for Bess, whose phone is away."
    assert state_of(showdown).threat is not None
    move(abe, showdown, "bluff")
    move(host, showdown, "bullets", pid="p3", count=5)
    move(abe, showdown, "bullets", count=2)
    state = state_of(showdown)
    assert state.phase == Phase.PLAY
    assert (state.player("p3").loot, state.player("p2").loot) == (40, 0)


def test_the_host_answers_a_duel_and_settles_for_the_dealer_token_holder(
    showdown: Showdown, phones: dict[str, Client], clock: Clock
) -> None:
    """SS19 with SS6: Abe holds the dealer token and his phone is gone: the host readies, fires
    and settles a dispute for him, so the race never waits for good."""
    host, bess = phones["p1"], phones["p3"]
    move(bess, showdown, "threaten", target="p2", pistol="blue")
    move(host, showdown, "and-you", pid="p2")
    move(bess, showdown, "ready")
    move(host, showdown, "ready", pid="p2")
    clock.now += 3000
    page = host.get(showdown.get_absolute_url()).content.decode()
    assert "Fires for them" in page
    move(host, showdown, "fire", pid="p2", target="p3", pistol="red", zone="arm", noise="Bang")
    move(bess, showdown, "dispute")
    assert state_of(showdown).fight.disputed  # type: ignore[union-attr]
    move(host, showdown, "settle", pid="p2", upheld="yes")
    state = state_of(showdown)
    assert state.fight is None
    assert state.player("p3").wounds == 1
    assert state.player("p2").bounty == 30


def test_a_host_who_does_not_play_can_still_run_the_table(
    campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    from tests.kit import new_game

    game = new_game(
        "showdown", campaign=campaign, actor=dealer, players=[player_a, player_b],
        dealer=player_a.pk,
    )  # fmt: skip
    host = Client()
    host.force_login(dealer)
    assert 'data-proxy-for="p2"' in host.get(game.get_absolute_url()).content.decode()
    move(host, game, "cash", pid="p2", cards=2)
    assert state_of(game).player("p2").loot == 40
    assert last_lines(game, 3)[0] == "Delia acts for Bess, whose phone is away."


def test_a_mistyped_bullet_count_is_taken_back_on_the_phone(
    showdown: Showdown, phones: dict[str, Client]
) -> None:
    """SS20: Bess typed 8 for 3; she takes it back and enters it again; nobody saw the 8."""
    move(phones["p3"], showdown, "threaten", target="p1", pistol="red")
    move(phones["p1"], showdown, "bluff")
    move(phones["p3"], showdown, "bullets", count=8)
    assert (
        "Mistyped? Take it back" in phones["p3"].get(showdown.get_absolute_url()).content.decode()
    )
    assert "Mistyped?" not in phones["p1"].get(showdown.get_absolute_url()).content.decode()
    move(phones["p3"], showdown, "takeback")
    move(phones["p3"], showdown, "bullets", count=3)
    move(phones["p1"], showdown, "bullets", count=5)
    assert state_of(showdown).player("p1").loot == 40
    lines = " ".join(ShowdownLine.objects.filter(showdown=showdown).values_list("text", flat=True))
    assert "Bess takes back their count" in lines
    assert "8" not in lines


def test_only_the_host_puts_money_right(showdown: Showdown, phones: dict[str, Client]) -> None:
    """SS21: the panel and the move are the host's; a player's post is refused, nothing written."""
    assert "data-correct" in phones["p1"].get(showdown.get_absolute_url()).content.decode()
    assert "data-correct" not in phones["p2"].get(showdown.get_absolute_url()).content.decode()
    before = written(showdown)
    data = {"who": "p2", "loot": "50", "bounty": "20", "wounds": "1"}
    assert move(phones["p2"], showdown, "correct", **data).status_code == 403
    assert written(showdown) == before
    move(phones["p1"], showdown, "correct", **data)
    assert state_of(showdown).player("p2").loot == 50
    assert state_of(showdown).player("p2").wounds == 1


def test_a_posted_basis_for_another_seat_is_no_oracle_for_their_count(
    showdown: Showdown, phones: dict[str, Client]
) -> None:
    """SS15, SS19: Bess's basis hashes her hidden count; the host posting it for her on an old
    version is refused as stale, exactly as a wrong guess is."""
    from showdown.game import SHOWDOWN

    move(phones["p3"], showdown, "threaten", target="p2", pistol="red")
    move(phones["p2"], showdown, "bluff")
    move(phones["p3"], showdown, "bullets", count=4)
    showdown.refresh_from_db()
    right = SHOWDOWN.basis(state_of(showdown), "p3")
    answers = []
    for basis in (right, "0" * 24):
        url = showdown.get_absolute_url() + "move/bullets/"
        data = {"version": showdown.version - 1, "pid": "p3", "count": 1, "basis": basis}
        answers.append(phones["p1"].post(url, data, HTTP_HX_REQUEST="true").content.decode())
    assert "Your count is in already" not in answers[0]
    assert answers[0].count("data-move-error") == answers[1].count("data-move-error") == 1


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("correct", {"who": "p2", "loot": "\x00", "bounty": "1", "wounds": "0"}),
        ("correct", {"who": "p2", "loot": "9" * 50, "bounty": "1", "wounds": "0"}),
        ("correct", {"who": "\x00" * 30, "loot": "1", "bounty": "1", "wounds": "9"}),
        ("correct", {"who": ["p1", "p2"], "loot": ["1", "2"]}),
        ("takeback", {}),
        ("takeback", {"pid": "p3"}),
        ("bullets", {"pid": ["p3", "p2"], "count": "2"}),
        ("fire", {"pid": "p2", "target": "p9", "pistol": "bottle", "zone": "x"}),
    ],
)
def test_odd_posts_to_the_hosts_moves_never_break(
    showdown: Showdown, phones: dict[str, Client], action: str, data: dict[str, Any]
) -> None:
    """SS19–SS21: anything the host's (or a player's) browser sends is refused in plain words
    or done; never a server error, nothing written on a refusal."""
    before = written(showdown)
    for phone in phones.values():
        response = move(phone, showdown, action, htmx=True, **data)
        assert response.status_code in (200, 403)
    assert written(showdown) == before


def test_the_new_readings_are_on_the_rulings_page_with_the_seeds_words(
    phones: dict[str, Client],
) -> None:
    page = phones["p2"].get("/rulings/").content.decode()
    words = ("SS19", "A phone that is gone", "SS20", "A count mistyped", "SS21",
             "Putting a mistake right", "SS22", "chi ha vinto non incassa niente")  # fmt: skip
    for said in words:
        assert said in page


def test_the_host_takes_back_an_event_card_revealed_by_mistake(
    showdown: Showdown, phones: dict[str, Client]
) -> None:
    """SS20: only the host, on the page."""
    move(phones["p1"], showdown, "reveal", event="noon", drawer="p3")
    assert "Wrong card?" in phones["p1"].get(showdown.get_absolute_url()).content.decode()
    assert "Wrong card?" not in phones["p3"].get(showdown.get_absolute_url()).content.decode()
    assert move(phones["p3"], showdown, "event-back").status_code == 403
    move(phones["p1"], showdown, "event-back")
    state = state_of(showdown)
    assert state.event is None
    assert "noon" not in state.events_seen
