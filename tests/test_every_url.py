"""Every campaign-scoped URL, found by walking the URL configuration, is closed to people who
do not sit at the table: an outsider gets 404 (GET and POST), an anonymous visitor is never shown
the page, and nobody at the table gets a server error. A new URL is covered automatically; a new
URL argument must be given a value below, or this test fails and says so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from campaigns.models import GameSession, Invite, Membership, Note, WantedLink
from campaigns.services import invite_create, note_save, session_plan
from conflicts.services import HandSpec, conflict_create
from tables.site import site
from tests.contract import start_game
from tests.made_once import (
    Rows,
    campaign,
    dealer,
    fetch,
    npc,
    outsider,
    pc_a,
    pc_b,
    player_a,
    player_b,
    rows_once,
)

# The cast and Dry Gulch are made once for the module (tests/made_once.py).
__all__ = [
    "campaign", "dealer", "npc", "outsider", "pc_a", "pc_b", "player_a", "player_b", "rows_once",
]  # fmt: skip

pytestmark = pytest.mark.django_db


def routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[tuple[str, str]]:
    for p in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(p, URLResolver):
            yield from routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name or ""


CAMPAIGN_ROUTES = sorted({r for r, _ in routes() if r.startswith("c/<slug:slug>/")})


def make_objects(
    campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any, pc_b: Any, npc: Any
) -> dict:
    note = note_save(campaign=campaign, title="The hanged man", body="Who was he?")
    session = session_plan(campaign=campaign)
    invite, _ = invite_create(campaign=campaign, actor=dealer, label="For Sam")
    link = WantedLink.objects.create(campaign=campaign, npc=npc, pc=pc_a, devil_touched="greed")
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Showdown",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip
    member = Membership.objects.get(campaign=campaign, user=player_a)
    # Every declared game (tables.site), started as its contract says (tests/contract.py): a
    # fight of pc_a, pc_b and npc among them.
    declared = {
        f"{game.kind}_id": start_game(game, campaign, [dealer, player_a, player_b]).pk
        for game in site.games()
    }
    assert isinstance(note, Note)
    assert isinstance(session, GameSession)
    assert isinstance(invite, Invite)
    return {
        **declared,  # the conflict of this test's own set-up below, not the contract's
        "slug": campaign.slug,
        "note_id": note.pk,
        "link_id": link.pk,
        "number": session.number,
        "invite_id": invite.pk,
        "member_id": member.pk,
        "character_id": pc_a.pk,
        "conflict_id": conflict.pk,
        "line_id": site.get("saloon").model.objects.get(pk=declared["saloon_id"]).lines.first().pk,
        "action": "call",
    }


@pytest.fixture(scope="module")
def objects_once(rows_once: Rows, django_db_blocker: Any) -> dict:
    """Every object a campaign URL names, made once for the module (tests/made_once.py): these tests
    only ask for pages and post to them, each in its own transaction, rolled back."""
    with django_db_blocker.unblock():
        cast = fetch(rows_once)
        del cast["outsider"]
        return make_objects(**cast)


@pytest.fixture
def objects(objects_once: dict, db: None) -> dict:
    return dict(objects_once)


def fill(route: str, values: dict) -> str:
    import re

    def value(match: re.Match[str]) -> str:
        name = match.group(2)
        assert name in values, f"give the URL argument {name!r} a value in this test ({route})"
        return str(values[name])

    return "/" + re.sub(r"<(\w+:)?(\w+)>", value, route)


def test_it_finds_the_campaign_urls() -> None:
    assert len(CAMPAIGN_ROUTES) > 20


@pytest.mark.parametrize("route", CAMPAIGN_ROUTES)
def test_it_shows_outsiders_nothing_but_404(route: str, objects: dict, outsider: Any) -> None:
    client = Client()
    client.force_login(outsider)
    url = fill(route, objects)
    # A POST-only action answers a GET with 405 before anything is looked up (so a 405 says
    # nothing about the campaign); whatever the method, nothing else but 404.
    assert client.get(url).status_code in (404, 405), url
    assert client.post(url, {"version": 0}).status_code in (404, 405), url
    assert 404 in (client.get(url).status_code, client.post(url, {"version": 0}).status_code), url


@pytest.mark.parametrize("route", CAMPAIGN_ROUTES)
def test_it_never_shows_a_campaign_page_to_anonymous_visitors(route: str, objects: dict) -> None:
    url = fill(route, objects)
    for response in (Client().get(url), Client().post(url, {"version": 0})):
        assert response.status_code in (302, 403, 404, 405), url
        if response.status_code == 302:
            assert "/accounts/login/" in response["Location"], url


@pytest.mark.parametrize("route", CAMPAIGN_ROUTES)
def test_it_answers_everyone_at_the_table_without_a_server_error(
    route: str, objects: dict, dealer: Any, player_a: Any, player_b: Any
) -> None:
    if route.endswith("stream/"):
        pytest.skip("an endless event stream: tests/live/test_streams.py reads it with a deadline")
    url = fill(route, objects)
    for user in (dealer, player_a, player_b):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        assert client.get(url).status_code < 500, (url, user.username)
