"""A one-off table in Chromium (issue 20): Hank, on a laptop, opens a saloon table from the home
page and makes two invitation links; Ruth (logged in, on a phone) and Cole (logged out, on a
phone: he logs in from the invitation and comes back to it) follow them and sit down. The lobby
shows them arrive and the game start without a reload; the three play it to an ending, every
screen checked for cards its viewer may not see (``tests.saloon.test_e2e.Table``). Needs E2E=1.
Screenshots go to tests/e2e/artifacts/oneoff-*.png.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from saloon.engine import game as g
from saloon.models import Saloon
from tests.conftest import CAST_PASSWORD
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390, app_url, chromium, login_cookie
from tests.saloon.test_e2e import LIVE, OVERFLOW, Screen, Table, play_one

pytestmark = pytest.mark.e2e
__all__ = ["app_url", "chromium", "login_cookie"]


@pytest.fixture
def cast(transactional_db: None, django_user_model: type[User]) -> dict[str, User]:
    # Passwords hashed the way the served app (not the MD5 test settings) can check them.
    hasher = PBKDF2PasswordHasher()
    return {
        name.lower(): django_user_model.objects.create(
            username=name.lower(),
            first_name=name,
            password=hasher.encode(CAST_PASSWORD, hasher.salt()),
        )
        for name in ("Hank", "Ruth", "Cole")
    }


@pytest.fixture
def devices(
    cast: dict[str, User], login_cookie: Callable[[User], dict[str, str]], chromium: Browser
) -> Iterator[dict[str, BrowserContext]]:
    sizes = {"hank": DESKTOP, "ruth": PHONE_390, "cole": PHONE_390}
    contexts = {}
    for name, user in cast.items():
        context = chromium.new_context(viewport=sizes[name], device_scale_factor=1)
        if name != "cole":  # Cole is logged out: he logs in from the invitation
            context.add_cookies([login_cookie(user)])  # type: ignore[list-item]
        contexts[name] = context
    try:
        yield contexts
    finally:
        for context in contexts.values():
            context.close()


def shoot(page: Page, name: str) -> None:
    """The whole page, and what shows without scrolling; never wider than the screen."""
    assert not page.evaluate(OVERFLOW), f"{name}: wider than the screen"
    page.screenshot(path=str(ARTIFACTS / f"oneoff-{name}.png"), full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"oneoff-{name}-fold.png"))


def make_link(host: Page) -> str:
    """Click the lobby's button for a new invitation link; the link it shows (once)."""
    field = host.locator("#new-link")
    before = field.input_value() if field.count() else ""
    host.locator("#invite button[type=submit]").click()
    expect(field).to_be_visible(timeout=LIVE)
    if before:
        expect(field).not_to_have_value(before, timeout=LIVE)
    link = field.input_value()
    assert "/join/" in link
    return link


def test_three_people_open_join_and_play_a_one_off_table(
    app_url: str, cast: dict[str, User], devices: dict[str, BrowserContext]
) -> None:
    hank = devices["hank"].new_page()
    hank.goto(app_url + "/")
    expect(hank.get_by_role("heading", name="Start a one-off saloon table")).to_be_visible()
    hank.locator("#oneoff-name").fill("Friday at the Last Chance")
    shoot(hank, "home-laptop")
    hank.get_by_role("button", name="Open a saloon table").click()
    table = Campaign.objects.get(kind=Campaign.Kind.ONE_OFF)
    expect(hank).to_have_url(app_url + table.get_absolute_url())
    expect(hank.locator("#lobby")).to_contain_text("Waiting for players")

    # Ruth, logged in on her phone, follows the first link.
    first = make_link(hank)
    shoot(hank, "lobby-link-laptop")
    ruth = devices["ruth"].new_page()
    ruth.goto(first)
    expect(
        ruth.get_by_role("heading", name="Pull up a chair at Friday at the Last Chance")
    ).to_be_visible()
    shoot(ruth, "join-phone")
    ruth.get_by_role("button", name="Take a seat at Friday at the Last Chance").click()
    expect(ruth).to_have_url(app_url + table.get_absolute_url())
    expect(hank.locator("#lobby")).to_contain_text("Ruth", timeout=LIVE)  # no reload
    shoot(ruth, "lobby-waiting-phone")

    # Cole is logged out: the invitation sends him to log in and back.
    second = make_link(hank)
    assert second != first
    cole = devices["cole"].new_page()
    cole.goto(second)
    expect(cole.get_by_text("Log in to take your seat")).to_be_visible()
    cole.locator("#main").get_by_role("link", name="Log in").click()
    cole.locator("input[name=username]").fill("cole")
    cole.locator("input[name=password]").fill(CAST_PASSWORD)
    cole.locator("#main form button[type=submit]").click()
    expect(cole).to_have_url(second)
    cole.get_by_role("button", name="Take a seat at Friday at the Last Chance").click()
    expect(cole).to_have_url(app_url + table.get_absolute_url())
    assert Membership.objects.filter(campaign=table).count() == 3

    # Everyone is here: the host's lobby offers the start without a reload.
    start = hank.locator("#lobby").get_by_role("button", name="Death enters the saloon")
    expect(start).to_be_visible(timeout=LIVE)
    shoot(hank, "lobby-full-laptop")
    shoot(cole, "lobby-full-phone")
    start.click()
    saloon = Saloon.objects.get(campaign=table)
    expect(hank).to_have_url(app_url + saloon.get_absolute_url())
    assert [s.user for s in saloon.seats.order_by("position")] == [
        cast["hank"], cast["ruth"], cast["cole"]
    ]  # fmt: skip
    screens = [Screen("hank", hank, "p1")]
    for name, page, pid in (("ruth", ruth, "p2"), ("cole", cole, "p3")):
        # The lobby's live update takes each seated guest to the game, no tap (issue 27).
        expect(page).to_have_url(app_url + saloon.get_absolute_url(), timeout=LIVE)
        screens.append(Screen(name, page, pid))
    shared = devices["hank"].new_page()
    shared.goto(app_url + saloon.get_absolute_url() + "table/")
    screens.append(Screen("table", shared, None))
    game = Table(saloon, screens)
    game.check("one-off dealt")
    shoot(cole, "game-phone")

    rng = random.Random(5)
    struck = False
    for _ in range(400):
        if game.state().phase == g.Phase.OVER:
            break
        what = play_one(game, rng)
        game.check("one-off move")
        if what == "prompt" and not struck:  # S4: words struck while the card is up
            struck = True
            mine = screens[1]
            game.press(mine, mine.main().get_by_role("button", name="Raise the Unwanted card"))
            game.check("one-off unwanted up")
            strike = mine.main().get_by_role("button", name="Strike these words").first
            expect(strike).to_be_visible()
            shoot(ruth, "strike-phone")
            game.press(mine, strike)
            game.check("one-off words struck")
            for screen in screens:
                expect(screen.main()).not_to_contain_text("the night of the fire")
            game.press(mine, mine.main().get_by_role("button", name="Lower the Unwanted card"))
            game.check("one-off unwanted down")
    assert struck
    state = game.state()
    assert state.phase == g.Phase.OVER
    for screen in screens:
        expect(screen.main().locator("[data-ending]")).to_have_attribute(
            "data-ending", state.ending.value if state.ending else "", timeout=LIVE
        )
    shoot(hank, "ending-laptop")
    shoot(ruth, "ending-phone")
    # Back in the lobby, the game is over and listed.
    ruth.goto(app_url + table.get_absolute_url())
    expect(ruth.locator("#lobby")).to_contain_text("over")
    shoot(ruth, "lobby-after-phone")
    # Hank also deals a campaign: the home page lists it apart from the one-off table.
    dealt = campaign_create(dealer=cast["hank"], name="The Hanged Man")
    hank.goto(app_url + "/")
    expect(hank.get_by_role("heading", name="One-off tables")).to_be_visible()
    expect(hank.get_by_role("heading", name="Campaigns")).to_be_visible()
    expect(hank.locator(f"a[href='{dealt.get_absolute_url()}']")).to_be_visible()
    shoot(hank, "home-after-laptop")


def test_the_one_off_pages_fit_a_phone(
    app_url: str, cast: dict[str, User], devices: dict[str, BrowserContext]
) -> None:
    """The home page with its one-off table form, at 390×844."""
    ruth = devices["ruth"].new_page()
    ruth.goto(app_url + "/")
    expect(ruth.get_by_role("button", name="Open a saloon table")).to_be_visible()
    shoot(ruth, "home-phone")
    ruth.get_by_role("button", name="Open a saloon table").click()
    expect(ruth.locator("#lobby")).to_contain_text("Waiting for players")
    shoot(ruth, "lobby-empty-phone")
    make_link(ruth)
    shoot(ruth, "lobby-link-phone")
