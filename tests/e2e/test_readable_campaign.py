"""Every page of the campaign is readable by everyone (issue 36 #5): axe-core finds no WCAG 2.1
A or AA violation on any HTML page a Dealer or a player can open — every campaign URL (found by
walking the URL configuration, as tests/test_every_url.py does), the home page, the Rulings, the
account pages — on a phone (390×844) and a laptop (1280×800)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser

from tables.site import site
from tests.e2e.readers import Readers
from tests.test_every_url import CAMPAIGN_ROUTES, fill, make_objects

pytestmark = pytest.mark.e2e

OUTSIDE = (
    "/", "/rulings/", "/campaigns/new/", "/saloon/new/", "/accounts/password/",
    "/accounts/password/done/",
)  # fmt: skip
SIGNED_OUT = ("/accounts/login/", "/accounts/signup/")
# The test-only games (tests/highcard): installed in the tests' process, not in the served app.
TEST_ONLY = tuple(
    f"/{game.kind}/" for game in site.games() if game.model.__module__.startswith("tests.")
)


@pytest.fixture
def objects(
    campaign: Any, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any, npc: Any
) -> dict:
    """Every object a campaign URL names (tests/test_every_url.py), committed for the server."""
    return make_objects(campaign, dealer, player_a, player_b, pc_a, pc_b, npc)


def html_pages(user: User, paths: list[str]) -> list[str]:
    """The paths that answer ``user`` with an HTML page (a stream, a download, a POST-only
    action or a redirect is no page to read)."""
    client = Client()
    client.force_login(user)
    kept = []
    for path in paths:
        if path.endswith("stream/") or any(kind in path for kind in TEST_ONLY):
            continue
        response = client.get(path)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            kept.append(path)
    return kept


def test_every_campaign_page_has_no_wcag_violation_on_a_phone_or_a_laptop(
    app_url: str,
    transactional_db: None,
    objects: dict,
    dealer: User,
    player_a: User,
    login_cookie: Callable[[User], dict[str, str]],
    module_chromium: Browser,
) -> None:
    paths = [fill(route, objects) for route in CAMPAIGN_ROUTES] + list(OUTSIDE)
    pages = {"dealer": html_pages(dealer, paths), "player": html_pages(player_a, paths)}
    assert len(pages["dealer"]) > 30, pages["dealer"]
    people = Readers(
        module_chromium, app_url, login_cookie,
        {"dealer": dealer, "player": player_a, "visitor": None},
    )  # fmt: skip
    try:
        for who, paths in pages.items():
            for path in paths:
                people.look(path, path, (who,))
        for path in SIGNED_OUT:
            people.look(path, path, ("visitor",))
        people.assert_none()
    finally:
        people.close()
