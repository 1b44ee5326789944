"""Issue 28 #3: the probe's reproductions of "500s are a class, not a list", one request each.
``str.isdigit()`` accepts "²" and 4,400-digit strings that ``int()`` then refuses; a 30-digit id
passes ``int()`` and overflows SQLite's integers in the query; NUL characters read straight from
``request.POST`` reach the database. Every one is read through a form field or
``dustdevils.parsing`` now: a 404 or the form's own message, never a server error, and nothing
written. (tests/test_fuzz_inputs.py throws hypothesis' values at every URL pattern besides.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Campaign
from conflicts.models import Conflict
from conflicts.services import pid_of
from tests.made_once import (
    campaign,
    dealer,
    npc,
    outsider,
    pc_a,
    pc_b,
    player_a,
    player_b,
    rows_once,
)
from tests.test_every_url import objects, objects_once

# The cast, Dry Gulch and its objects are made once for the module (tests/made_once.py).
__all__ = [
    "campaign", "dealer", "npc", "objects", "objects_once", "outsider", "pc_a", "pc_b",
    "player_a", "player_b", "rows_once",
]  # fmt: skip

pytestmark = pytest.mark.django_db

SUPERSCRIPT = "²"  # "²".isdigit() is True; int("²") raises
LONG = "9" * 4400  # beyond Python's 4,300 digits for int()
HUGE = "9" * 30  # an int, but not one SQLite can hold


def client_of(user: User) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.mark.parametrize("value", [SUPERSCRIPT, LONG])
@pytest.mark.parametrize("page", ["conflicts/new/?fight=", "fights/new/?conflict="])
def test_a_query_id_that_is_no_number_is_no_such_thing(
    objects: dict[str, Any], dealer: User, page: str, value: str
) -> None:
    response = client_of(dealer).get(f"/c/{objects['slug']}/{page}{value}")
    assert response.status_code == 404


@pytest.mark.parametrize("value", [SUPERSCRIPT, LONG, HUGE])
def test_the_discard_advisor_refuses_a_knack_that_is_no_id(
    objects: dict[str, Any], player_a: User, pc_a: Any, value: str
) -> None:
    url = f"/c/{objects['slug']}/conflicts/{objects['conflict_id']}/advice/"
    response = client_of(player_a).get(url, {"pid": pid_of(pc_a), "knack": value})
    assert response.status_code == 404  # no advice for that hand (not dealt yet)


@pytest.mark.parametrize("value", [SUPERSCRIPT, LONG, HUGE])
def test_the_replay_reads_any_step(objects: dict[str, Any], dealer: User, value: str) -> None:
    client = client_of(dealer)
    base = f"/c/{objects['slug']}/conflicts/{objects['conflict_id']}/"
    client.post(base + "move/cancel/", {"version": 0, "key": "cancel-it"})  # over: a replay
    assert Conflict.objects.get(pk=objects["conflict_id"]).is_over
    assert client.get(base + "replay/", {"step": value}).status_code == 200


@pytest.mark.parametrize("value", [SUPERSCRIPT, LONG, HUGE])
def test_a_new_saloon_game_reads_its_players_and_seats(
    objects: dict[str, Any], dealer: User, player_a: User, value: str
) -> None:
    url = f"/c/{objects['slug']}/saloon/new/"
    form = {"player": [value, str(player_a.pk)], f"seat_{player_a.pk}": value}
    response = client_of(dealer).post(url, form)
    assert response.status_code == 200  # the lobby again, with what is wrong
    assert "3 to 5" in response.content.decode() or "3–5" in response.content.decode()


@pytest.mark.parametrize("value", [SUPERSCRIPT, LONG])
def test_a_saloon_move_reads_its_position(
    objects: dict[str, Any], dealer: User, value: str
) -> None:
    url = f"/c/{objects['slug']}/saloon/{objects['saloon_id']}/move/draw/"
    response = client_of(dealer).post(url, {"position": value, "key": "k1"})
    assert response.status_code == 302  # refused in plain words, the table as it is


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("fate_pot", f"white {SUPERSCRIPT}"),
        ("fate_pot", f"white {LONG}"),
        ("fate_pot", f"white {HUGE}"),  # a pot of 10^30 chips would be drawn from as a list
        ("extras", f"{LONG} Pinkertons 2d6"),
    ],
)
def test_a_new_fight_reads_its_pot_and_extras(
    objects: dict[str, Any], dealer: User, field: str, value: str
) -> None:
    url = f"/c/{objects['slug']}/fights/new/"
    form = {"title": "Ambush", "cap": 5, "fate_pot": "white 10", field: value}
    response = client_of(dealer).post(url, form)
    assert response.status_code == 200  # the form again, with the field's message
    assert "field__error" in response.content.decode()


def test_ending_a_session_reads_the_characters_as_ids(
    objects: dict[str, Any], dealer: User
) -> None:
    url = f"/c/{objects['slug']}/sessions/{objects['number']}/end/"  # being played
    response = client_of(dealer).post(url, {"carry_over_for": [HUGE], "in_play": "leave"})
    assert response.status_code == 302


@pytest.mark.parametrize("name", ["Saloon\x00", "\x00"])
def test_a_one_off_table_named_with_nul_is_refused(dealer: User, name: str) -> None:
    before = Campaign.objects.count()  # Dry Gulch, made once for the module
    response = client_of(dealer).post("/saloon/new/", {"name": name, "key": "one"})
    assert response.status_code == 302
    assert Campaign.objects.count() == before  # nothing written (PostgreSQL's text refuses NUL)


def test_narration_with_nul_is_refused(objects: dict[str, Any], dealer: User) -> None:
    url = f"/c/{objects['slug']}/conflicts/{objects['conflict_id']}/narrate/"
    response = client_of(dealer).post(url, {"text": "He fell\x00", "key": "n1"}, follow=True)
    assert response.status_code == 200
    assert "Null characters are not allowed" in response.content.decode()


@pytest.mark.parametrize("dice", ["9" * 4400 + "d6", "2d" + "9" * 4400])
def test_a_line_of_extras_with_dice_of_thousands_of_digits_is_refused(
    objects: dict[str, Any], dealer: User, dice: str
) -> None:
    url = f"/c/{objects['slug']}/fights/new/"
    form = {"title": "Ambush", "cap": 5, "fate_pot": "white 10", "extras": f"3 Pinkertons {dice}"}
    response = client_of(dealer).post(url, form)
    assert response.status_code == 200
    assert "is not a dice roll" in response.content.decode()
