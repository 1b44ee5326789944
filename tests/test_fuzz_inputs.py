"""Issue 19 #6, issue 28: no 5xx on anything a client can send. Hypothesis throws arbitrary text,
numbers and timestamps at every form of a campaign (each campaign URL, found by walking the URL
configuration, POSTed as the Dealer and as a player), at the account forms and at the import;
nothing answers with a server error, and a refused request writes nothing. And at every URL
pattern of the project, its path arguments hostile too, GET and POST, as anyone."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from exchange.api import campaign_export, campaign_file_dump
from tests.conftest import HYPOTHESIS_PROFILE, HYPOTHESIS_PROFILES, depth
from tests.exchange.conftest import model_counts, played
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
from tests.test_every_url import CAMPAIGN_ROUTES, fill, objects, objects_once, routes

# The cast, Dry Gulch and its objects are made once for the module (tests/made_once.py).
__all__ = [
    "campaign", "dealer", "npc", "objects", "objects_once", "outsider", "pc_a", "pc_b",
    "played", "player_a", "player_b", "rows_once",
]  # fmt: skip

pytestmark = pytest.mark.django_db

# The names the app's forms use (and a few they do not).
FIELDS = [
    "title", "body", "name", "label", "amount", "reason", "note", "number", "date", "rating",
    "knack", "knack_name", "attribute", "key", "stakes", "stud", "stud_goal", "version", "pid",
    "carry_over", "carry_over_for", "session", "recovery_character", "recovery_points",
    "attributes", "devil", "trait", "discard", "cards", "stand", "bid", "fate", "epitaph",
    "player", "character", "npc", "pc", "devil_touched", "notes", "username", "password",
    "hand", "eye", "guts", "heart", "chips", "vocation", "description", "setting", "pitch",
    "knack_rows", "knack_name_0", "knack_rating_0", "choice", "points", "confirm", "position",
    "text", "direction", "in_play", "card", "keep", "other", "subject", "subject_other", "pick",
    "extras", "fate_pot", "cap", "discards", "extra_chip", "total", "dice", "tn", "cid", "basis",
    "seat_1", "seat_2", "take_1", "goal_1", "side_1", "fight_round", "surprised", "next",
]  # fmt: skip

EDGE_TIMES = [
    "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0000-00-00", "2026-02-30",
    "1970-01-01", "-1", "9999-12-31", "0001-01-01",
]  # fmt: skip

VALUES = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=200, max_size=6000),
    st.integers().map(str),
    st.integers(min_value=2**31 - 2, max_value=2**80).map(str),
    st.just("9" * 5000),
    st.sampled_from(EDGE_TIMES),
    st.sampled_from(["\x00", "a\x00b", "", " ", "on", "true", "-0", "1e999", "NaN", "∞", "²"]),
)
FORMS = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8)

POST_ROUTES = [r for r in CAMPAIGN_ROUTES if not r.endswith("stream/")]


@settings(
    max_examples=depth(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(route=st.sampled_from(POST_ROUTES), form=FORMS, htmx=st.booleans(), who=st.integers(0, 1))
def test_no_campaign_form_answers_with_a_server_error(
    objects: dict[str, Any],
    dealer: User,
    player_a: User,
    route: str,
    form: dict[str, str],
    htmx: bool,
    who: int,
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login((dealer, player_a)[who])
    headers = {"HX-Request": "true"} if htmx else {}
    url = fill(route, objects)
    before = model_counts()
    response = client.post(url, form, headers=headers)
    assert response.status_code < 500, (url, form)
    if response.status_code >= 400:
        assert model_counts() == before, (url, form)


@settings(
    max_examples=depth(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(form=FORMS, which=st.sampled_from(["login", "signup", "password_change"]))
def test_no_account_form_answers_with_a_server_error(
    player_a: User, form: dict[str, str], which: str
) -> None:
    client = Client(raise_request_exception=False)
    if which == "password_change":
        client.force_login(player_a)
    path = {"login": "/accounts/login/", "signup": "/accounts/signup/",
            "password_change": "/accounts/password/"}[which]  # fmt: skip
    for name in ("username", "password", "password1", "password2", "old_password"):
        form.setdefault(name, form.get("username", "x"))
    assert client.post(path, form).status_code < 500, (which, form)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] or [path]
    return [path]


JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**31 - 2, max_value=2**70),
    st.integers(min_value=10**3000, max_value=10**3001),
    st.text(max_size=300),
    st.sampled_from(EDGE_TIMES),
    st.floats(allow_nan=False),
    st.lists(st.integers(0, 3), max_size=2),
)


@settings(
    max_examples=depth(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_import_never_answers_with_a_server_error_nor_writes_half(
    client_as: Any, played: Any, outsider: User, data: st.DataObject
) -> None:
    exported = campaign_export(played)
    for _ in range(data.draw(st.integers(1, 3))):
        leaves = [p for p in _leaves(exported) if p]
        path = data.draw(st.sampled_from(leaves))
        target: Any = exported
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = data.draw(JSON_VALUES)
    raw = campaign_file_dump(exported).encode()
    before = model_counts()
    client = client_as(outsider)
    upload = SimpleUploadedFile("f.json", raw, content_type="application/json")
    response = client.post("/import/", {"file": upload})
    assert response.status_code in (200, 302)
    if response.status_code == 200:  # refused: the form again, with the problems
        assert "Nothing was imported." in response.content.decode()
        assert model_counts() == before


# --- Every URL pattern of the project (issue 28) ----------------------------------------------
# Each pattern the resolver knows (the endless */stream/ ones aside) is asked, as anonymous, a
# player, the Dealer and an outsider, with GET and POST: every query name and form field the
# app reads filled with hypothesis' values — the probe's classes always among them ("²" passes
# isdigit() and fails int(), 4,400 digits fail int(), 30 digits overflow SQLite, NUL fails
# PostgreSQL's text), as explicit examples every run — and the path's arguments a real id of
# the cast's campaign, or hostile too. Never a server error, on SQLite and PostgreSQL alike
# (run it with DATABASE_URL=postgres://...). The admin's patterns are walked by a second test.

ALL_ROUTES = sorted({route for route, _ in routes() if not route.endswith("stream/")})
APP_ROUTES = [route for route in ALL_ROUTES if not route.startswith("admin/")]
ADMIN_ROUTES = [route for route in ALL_ROUTES if route.startswith("admin/")]
# Random examples per URL pattern besides the two explicit ones: 8 under the "ci" (or "deep")
# profile (tests/conftest.py), 1 under "dev": about 220 examples in all, a minute on two cores.
EVERY_URL_EXAMPLES = 8 if HYPOTHESIS_PROFILES[HYPOTHESIS_PROFILE] >= 1 else 1

QUERY_NAMES = [
    "fight", "conflict", "step", "knack", "pid", "extra_chip", "v", "session", "advise",
    "next", "limit", "character", "number", "key", "version", "since", "here", "shown",
]  # fmt: skip
PROBE_VALUES = ["²", "٣", "\x00", "a\x00b", "-1", "0", "", "9" * 30, "9" * 4400, "1e999"]
HOSTILE = st.integers(0, 9).flatmap(
    lambda n: (
        st.sampled_from(PROBE_VALUES)
        if n < 6
        else st.one_of(
            st.integers(min_value=2**31 - 2, max_value=2**80).map(str),
            st.text(max_size=30),
            st.text(min_size=300, max_size=2000),
        )
    )
)
PATH_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
REGEX_GROUP = re.compile(r"\(\?P<(\w+)>([^)]*)\)")


def hostile_url(route: str, objects: dict[str, Any], values: Iterator[str], hostile: bool) -> str:
    """``route`` with each argument the cast's real one, or (``hostile``, or none is known) the
    next of ``values``."""

    def argument(match: re.Match[str]) -> str:
        name = match.group(2)
        value = next(values) if hostile or name not in objects else str(objects[name])
        return quote(value, safe="")

    def group(match: re.Match[str]) -> str:
        choices = match.group(2).split("|")
        return quote(choices[0] if len(choices) > 1 and not hostile else next(values), safe="")

    path = PATH_CONVERTER.sub(argument, route)
    return "/" + REGEX_GROUP.sub(group, path).replace("^", "").replace("$", "")


def asked_by_everyone(
    url: str, values: Iterator[str], version: int, people: dict[str, User | None]
) -> None:
    query = {name: next(values) for name in QUERY_NAMES}
    form = {name: next(values) for name in FIELDS}
    # The same form with a table's version and a fresh key: past the move forms' own fields.
    moving = {**form, "version": str(version), "key": f"fuzz-{next(values)[:20]}"}
    for who, user in people.items():
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        asked = [("GET", client.get(url, query))]
        if user is not None:
            asked += [("POST", client.post(url, form)), ("POST", client.post(url, moving))]
        for method, response in asked:
            assert response.status_code < 500, (url, who, method, response.status_code)


@pytest.mark.parametrize("route", APP_ROUTES)
@settings(
    max_examples=EVERY_URL_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(values=st.lists(HOSTILE, min_size=1, max_size=8), hostile_path=st.booleans())
@example(values=["²"], hostile_path=False)
@example(values=["9" * 4400, "a\x00b", "9" * 30], hostile_path=False)
def test_no_url_of_the_project_answers_with_a_server_error(
    route: str, objects: dict[str, Any], dealer: User, player_a: User, outsider: User,
    values: list[str], hostile_path: bool,
) -> None:  # fmt: skip
    cycle = itertools.cycle(values)
    url = hostile_url(route, objects, cycle, hostile_path)
    people = {"anonymous": None, "player": player_a, "dealer": dealer, "outsider": outsider}
    asked_by_everyone(url, cycle, 0, people)


@settings(
    max_examples=depth(40),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route=st.sampled_from(ADMIN_ROUTES),
    values=st.lists(HOSTILE, min_size=1, max_size=8),
    hostile_path=st.booleans(),
)
def test_no_admin_url_answers_with_a_server_error(
    objects: dict[str, Any], dealer: User, player_a: User, route: str, values: list[str],
    hostile_path: bool,
) -> None:  # fmt: skip
    cycle = itertools.cycle(values)
    url = hostile_url(route, objects, cycle, hostile_path)
    asked_by_everyone(url, cycle, 0, {"anonymous": None, "player": player_a, "dealer": dealer})
