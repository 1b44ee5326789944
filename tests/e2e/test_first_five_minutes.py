"""The first five minutes of a new Dealer (issue 36), in Chromium: on the starter campaign
``manage.py seed_demo`` makes (The Hanged Man, four players), the next step leads the campaign
page and the session page, inside the first screen of a 390×844 phone and of a 1280×800
laptop, without scrolling: "Start the next session" (it was 9,769 px down on the phone), then
"Set up a conflict" and "Start a fight" (the session page had no way to a conflict)."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Browser, Locator, Page, expect

from campaigns.models import Campaign
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390

pytestmark = pytest.mark.e2e


def in_first_screen(page: Page, target: Locator, what: str) -> None:
    """``target`` is visible without scrolling: its whole box inside the viewport."""
    expect(target).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    box = target.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    bottom = box["y"] + box["height"]
    assert box["y"] >= 0, what
    assert bottom <= size["height"], (
        f"{what}: y {box['y']:.0f}–{bottom:.0f}, the screen is {size['height']} px high"
    )


@pytest.fixture
def starter(transactional_db: None) -> Campaign:
    call_command("seed_demo", stdout=io.StringIO())
    return Campaign.objects.get()


@pytest.mark.parametrize("size", [PHONE_390, DESKTOP], ids=["phone", "laptop"])
def test_it_leads_a_new_dealer_to_the_session_then_to_a_conflict_or_a_fight(
    app_url: str,
    starter: Campaign,
    size: dict[str, int],
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    cookie = login_cookie(User.objects.get(username="dealer"))
    context = chromium.new_context(viewport=size)  # type: ignore[arg-type]
    label = "phone" if size == PHONE_390 else "laptop"
    try:
        context.add_cookies([cookie])  # type: ignore[list-item]
        page = context.new_page()
        page.goto(f"{app_url}{starter.get_absolute_url()}")
        start = page.get_by_role("button", name="Start the next session")
        in_first_screen(page, start, "Start the next session")
        page.screenshot(path=str(ARTIFACTS / f"first-minutes-campaign-{label}.png"))

        start.click()
        expect(page).to_have_url(f"{app_url}/c/{starter.slug}/sessions/1/")
        for name in ("Set up a conflict", "Start a fight"):
            in_first_screen(page, page.get_by_role("link", name=name), name)
        page.screenshot(path=str(ARTIFACTS / f"first-minutes-session-{label}.png"))

        # Back on the campaign page, the session being played leads it the same way.
        page.goto(f"{app_url}{starter.get_absolute_url()}")
        in_first_screen(page, page.get_by_role("link", name="Set up a conflict"), "conflict")
        page.get_by_role("link", name="Set up a conflict").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("conflict")
    finally:
        context.close()
