"""Every page a logged-in person gets says ``Cache-Control: no-store`` (issue 28 #7), from one
middleware (dustdevils/no_store.py); a view that set its own Cache-Control keeps it, and an
anonymous visitor's pages are left alone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from dustdevils.no_store import no_store_when_logged_in

NOT_STORED = {"no-store", "private"}


def not_stored(response: Any) -> bool:
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    return directives >= NOT_STORED


@pytest.fixture
def session_1(campaign: Any) -> Any:
    from campaigns.services import session_plan

    return session_plan(campaign=campaign, notes="Open on the gallows at dawn.")


@pytest.mark.parametrize(
    ("who", "page"),
    [
        ("dealer", lambda t: reverse("home")),
        ("dealer", lambda t: reverse("campaigns:detail", args=[t.campaign.slug])),
        (
            "dealer",
            lambda t: reverse("campaigns:session", args=[t.campaign.slug, t.session.number]),
        ),
        ("dealer", lambda t: reverse("campaigns:invites", args=[t.campaign.slug])),
        ("dealer", lambda t: reverse("campaigns:members", args=[t.campaign.slug])),
        ("dealer", lambda t: reverse("characters:sheet", args=[t.campaign.slug, t.npc.pk])),
        ("dealer", lambda t: reverse("characters:chips", args=[t.campaign.slug, t.npc.pk])),
        ("dealer", lambda t: reverse("characters:list", args=[t.campaign.slug])),
        ("player_a", lambda t: reverse("characters:sheet", args=[t.campaign.slug, t.pc_a.pk])),
        ("player_a", lambda t: reverse("characters:chips", args=[t.campaign.slug, t.pc_a.pk])),
        ("player_a", lambda t: reverse("campaigns:detail", args=[t.campaign.slug])),
        ("outsider", lambda t: reverse("campaigns:detail", args=[t.campaign.slug])),  # a 404
    ],
)
def test_every_page_of_a_logged_in_person_is_not_stored(
    request: pytest.FixtureRequest,
    client_as: Callable[[Any], Client],
    campaign: Any,
    session_1: Any,
    npc: Any,
    pc_a: Any,
    who: str,
    page: Callable[[Any], str],
) -> None:
    table = type(
        "Table", (), {"campaign": campaign, "session": session_1, "npc": npc, "pc_a": pc_a}
    )
    client = client_as(request.getfixturevalue(who))
    response = client.get(page(table))
    assert response.status_code in (200, 404)
    assert not_stored(response), response.get("Cache-Control")
    assert "Expires" in response


def test_an_htmx_fragment_is_not_stored_either(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    detail = reverse("campaigns:detail", args=[campaign.slug])
    assert not_stored(client_as(dealer).get(detail, headers={"HX-Request": "true"}))


@pytest.mark.django_db
def test_an_anonymous_visitors_pages_are_left_alone(client: Client) -> None:
    for url in (reverse("home"), reverse("signup")):
        response = client.get(url)
        assert response.status_code == 200
        assert "Cache-Control" not in response, url


def test_a_views_own_cache_control_is_kept(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    """The campaign export says ``no-store`` by itself, and nothing is added to it."""
    response = client_as(dealer).get(reverse("exchange:export", args=[campaign.slug]))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    assert "Expires" not in response


# --- Both ways Django calls it: the sync chain (gunicorn) and the async one (uvicorn) ---------


def _request(user: Any) -> HttpRequest:
    request = RequestFactory().get("/somewhere/")
    request.user = user
    return request


def _answer(cache_control: str | None = None) -> HttpResponse:
    response = HttpResponse("page")
    if cache_control is not None:
        response["Cache-Control"] = cache_control
    return response


@pytest.mark.parametrize(
    ("user", "own", "expected"),
    [
        (User(username="clara"), None, True),
        (AnonymousUser(), None, False),
        (User(username="clara"), "no-cache", False),  # a view's own say
    ],
)
def test_the_sync_chain(user: Any, own: str | None, expected: bool) -> None:
    middleware = no_store_when_logged_in(lambda request: _answer(own))
    response = middleware(_request(user))
    assert not_stored(response) is expected
    if own:
        assert response["Cache-Control"] == own


def test_the_async_chain_asks_auser_only_when_nobody_looked_the_user_up() -> None:
    def lazy_lookup() -> Any:
        raise AssertionError("a synchronous lookup from the event loop")

    async def page(request: HttpRequest) -> HttpResponse:
        return _answer()

    async def stream(request: HttpRequest) -> HttpResponse:
        return _answer("no-cache")

    async def run(view: Any, user: Any, auser: Any) -> HttpResponse:
        middleware = no_store_when_logged_in(view)
        assert asyncio.iscoroutinefunction(middleware)
        request = _request(user)
        request.auser = auser  # type: ignore[attr-defined]
        return await middleware(request)  # type: ignore[no-any-return]

    asked: list[str] = []

    def auser_of(user: Any) -> Any:
        async def auser() -> Any:
            asked.append(str(user))
            return user

        return auser

    unknown = SimpleLazyObject(lazy_lookup)
    # An async view that awaited auser() (or nobody): auser()'s own cache answers.
    assert not_stored(asyncio.run(run(page, unknown, auser_of(User(username="doc")))))
    assert not not_stored(asyncio.run(run(page, unknown, auser_of(AnonymousUser()))))
    assert asked == ["doc", "AnonymousUser"]
    # A sync view that looked (or login()): request.user itself, auser() not asked.
    known = SimpleLazyObject(lambda: User(username="zeke"))
    assert known.is_authenticated
    assert not_stored(asyncio.run(run(page, known, auser_of(AnonymousUser()))))
    # A stream's own Cache-Control: the user is not even looked up.
    response = asyncio.run(run(stream, unknown, auser_of(User(username="doc"))))
    assert response["Cache-Control"] == "no-cache"
    assert asked == ["doc", "AnonymousUser"]
