"""Issue 39: Saloon Showdown read in Italian, page by page and state by state: none of the
English catalogue's sentences is left on any screen (each player's phone, its htmx panel, the
shared screen, the list, the live panel, the story), and the timeline's lines, written once,
read in each reader's own language; English stays as it was."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from dustdevils.live.tables import Viewer
from showdown.models import Showdown
from tables.site import site
from tests.i18n.english import english_left, read_text
from tests.showdown.conftest import Clock, state_of
from tests.showdown.test_views import move

pytestmark = pytest.mark.django_db


def italian(users: dict[str, User]) -> dict[str, Client]:
    phones = {}
    for pid, user in users.items():
        phones[pid] = Client(HTTP_ACCEPT_LANGUAGE="it")
        phones[pid].force_login(user)
    return phones


def screens(showdown: Showdown, phones: dict[str, Client], language: str = "it") -> dict[str, str]:
    """Every screen each phone may see now, and the live panels in ``language``."""
    out = {}
    url = showdown.get_absolute_url()
    read = site.live("showdown").load(showdown.pk)
    assert read is not None
    for pid, client in phones.items():
        user_id = int(client.session["_auth_user_id"])
        live = [
            site.live("showdown").speaking_panel(
                Viewer(user_id, showdown.campaign.slug, showdown.pk, as_table, "t", language), read
            )
            for as_table in (False, True)
        ]
        out[pid] = "\n".join([
            client.get(url).content.decode(),
            client.get(url, HTTP_HX_REQUEST="true").content.decode(),
            client.get(url + "table/").content.decode(),
            client.get(f"/c/{showdown.campaign.slug}/showdown/").content.decode(),
            client.get(url + "story.md").content.decode(),
            *(panel or "" for panel in live),
        ])  # fmt: skip
    return out


# The suite's own test game (tests/highcard), listed among the table's games: not the app's.
TEST_GAME = re.compile(r"<li class=\"row\">(?:(?!</li>).)*High card.*?</li>", re.S)


def no_english(showdown: Showdown, phones: dict[str, Client], when: str) -> None:
    for pid, page in screens(showdown, phones).items():
        page = TEST_GAME.sub("", page)
        left = english_left(page)
        assert not left, f"{when}, {pid}: English left: {left}"


@pytest.fixture
def users(dealer: User, player_a: User, player_b: User) -> dict[str, User]:
    return {"p1": dealer, "p2": player_a, "p3": player_b}


def test_a_game_read_in_italian_has_no_english_left(
    showdown: Showdown, users: dict[str, User], clock: Clock
) -> None:
    phones = italian(users)
    no_english(showdown, phones, "dealt")
    move(phones["p3"], showdown, "threaten", target="p1", pistol="red")
    no_english(showdown, phones, "a threat")
    move(phones["p1"], showdown, "bluff")
    move(phones["p3"], showdown, "bullets", count=3)
    no_english(showdown, phones, "a bluff, one count in")
    move(phones["p1"], showdown, "bullets", count=2)
    move(phones["p1"], showdown, "threaten", target="p2", pistol="blue")
    move(phones["p2"], showdown, "and-you")
    assert state_of(showdown).phase.value == "fight"
    no_english(showdown, phones, "a duel")
    move(phones["p2"], showdown, "ready")
    move(phones["p1"], showdown, "ready")
    clock.now += 3500
    no_english(showdown, phones, "Via!")
    move(phones["p1"], showdown, "fire", pistol="blue", zone="head", noise="Blam")
    assert state_of(showdown).fight.claim is not None  # type: ignore[union-attr]
    no_english(showdown, phones, "a shot claimed")
    move(phones["p2"], showdown, "dispute")
    no_english(showdown, phones, "a shot disputed")
    move(phones["p2"], showdown, "settle", upheld="yes")
    move(phones["p1"], showdown, "reveal", event="rain", drawer="p2")
    move(phones["p2"], showdown, "count", count=4)
    assert state_of(showdown).event is not None
    no_english(showdown, phones, "an event")
    for pid in ("p1", "p3"):
        move(phones[pid], showdown, "count", count=1)
    turn = state_of(showdown).turn
    move(phones["p1"], showdown, "correct", who=turn, loot=130, bounty=20, wounds=0)
    no_english(showdown, phones, "the end set")
    for _ in range(4):
        if state_of(showdown).over:
            break
        move(phones[state_of(showdown).turn], showdown, "draw", **{"from": "deck"})
    assert state_of(showdown).over
    no_english(showdown, phones, "over")


def test_a_refusal_reads_in_italian(showdown: Showdown, users: dict[str, User]) -> None:
    phones = italian(users)
    answer = move(phones["p1"], showdown, "draw", htmx=True, **{"from": "deck"})
    assert "Tocca a Bess, non a te." in read_text(answer.content.decode())
    answer = move(phones["p3"], showdown, "cash", htmx=True, cards="many")
    assert "Di’ quante carte Malloppo scarti." in read_text(answer.content.decode())


def test_the_same_line_reads_in_each_readers_language(
    showdown: Showdown, users: dict[str, User]
) -> None:
    """One line written once: Bess's threat, in Italian on an Italian phone and in English on
    an English one, with the pistol's colour in each language; the stored text stays English."""
    move(italian(users)["p3"], showdown, "threaten", target="p1", pistol="red")
    line = showdown.lines.order_by("-seq").first()
    assert line is not None
    assert line.text == "Bess takes the red pistol: “Ti senti fortunato, Delia?”"
    english = Client()
    english.force_login(users["p2"])
    assert line.text in read_text(english.get(showdown.get_absolute_url()).content.decode())
    it = italian({"p2": users["p2"]})["p2"].get(showdown.get_absolute_url()).content.decode()
    assert "Bess prende la pistola rossa: “Ti senti fortunato, Delia?”" in read_text(it)


def test_english_stays_the_default(showdown: Showdown, users: dict[str, User]) -> None:
    client = Client()  # no Accept-Language, no choice made
    client.force_login(users["p3"])
    page = client.get(showdown.get_absolute_url()).content.decode()
    assert '<html lang="en">' in page
    assert "Choose one: draw, cash loot, or threaten someone." in page
    assert "What happened" in page


def test_every_screen_of_a_game_reads_in_italian_for_a_player_and_the_host(
    showdown: Showdown, users: dict[str, User]
) -> None:
    """The host's own panels (acting for a phone, putting money right, the event cards)."""
    phones = italian(users)
    move(phones["p3"], showdown, "threaten", target="p2", pistol="green")
    move(phones["p2"], showdown, "and-you")
    page = TEST_GAME.sub("", screens(showdown, {"p1": phones["p1"]})["p1"])
    assert "Un telefono è sparito? Gioca per un giocatore (host)" in read_text(page)
    assert not english_left(page)
