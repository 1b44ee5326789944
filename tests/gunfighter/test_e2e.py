"""The Gunfighter in Chromium (needs E2E=1): a one-off table, the host on a laptop and three
phones. The host calls the gunfight from its page; the phones, waiting on the table's lobby, are
taken to their seats; everyone sets their bandolier and says "no covert card" (R38); whoever saw
a western last starts the clock (R39), which fires on
every screen at the same server instant (the skew between the three phones is measured and
printed: at most 50 ms, issue 31); the mats are reviewed in turn, and the last one standing is
named on every screen with who shot whom. Waits on selectors, never sleeps."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from gunfighter.models import Gunfight
from tests.conftest import CAST_PASSWORD
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390, app_url, chromium, login_cookie
from tests.kit import new_game
from tests.saloon.test_e2e import OVERFLOW

pytestmark = pytest.mark.e2e
__all__ = ["app_url", "chromium", "login_cookie"]

LIVE = 20_000  # ms: a screen catches up within this without a reload
CLOCK = 20_000  # ms: the lead, 5 s of countdown, 5 s of play, and slack on a busy machine
MAX_SKEW_MS = 50
NAMES = ("Hank", "Ruth", "Cole", "Jess")


@pytest.fixture
def table(transactional_db: None, django_user_model: type[User]) -> tuple[Campaign, list[User]]:
    hasher = PBKDF2PasswordHasher()
    users = [
        django_user_model.objects.create(
            username=name.lower(),
            first_name=name,
            password=hasher.encode(CAST_PASSWORD, hasher.salt()),
        )
        for name in NAMES
    ]
    one_off = campaign_create(dealer=users[0], name="High Noon", kind=Campaign.Kind.ONE_OFF)
    for user in users[1:]:
        Membership.objects.create(campaign=one_off, user=user, role=Membership.Role.PLAYER)
    return one_off, users


@pytest.fixture
def devices(
    table: tuple[Campaign, list[User]],
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> Iterator[list[BrowserContext]]:
    contexts = []
    for i, user in enumerate(table[1]):
        context = chromium.new_context(viewport=DESKTOP if i == 0 else PHONE_390)
        context.add_cookies([login_cookie(user)])  # type: ignore[list-item]
        contexts.append(context)
    try:
        yield contexts
    finally:
        for context in contexts:
            context.close()


def shoot(page: Page, name: str) -> None:
    """A screenshot for people to look at (only with E2E_SCREENSHOTS=1; never compared)."""
    page.screenshot(path=str(ARTIFACTS / f"gunfighter-{name}.png"), full_page=True)


def main(page: Page) -> Any:
    return page.locator("#gunfighter-main")


def seated(
    app_url: str, table: tuple[Campaign, list[User]], devices: list[BrowserContext]
) -> tuple[list[Page], Gunfight]:
    """The host calls the gunfight; the three phones, on the lobby, are taken to their seats."""
    one_off, _ = table
    pages = [context.new_page() for context in devices]
    for phone in pages[1:]:
        phone.goto(app_url + one_off.get_absolute_url())
        expect(phone.locator("#lobby")).to_be_visible()
    host = pages[0]
    host.goto(app_url + one_off.get_absolute_url())
    host.get_by_role("link", name="The Gunfighter").first.click()
    host.get_by_role("button", name="High noon: start the gunfight").click()
    gunfight = Gunfight.objects.get(campaign=one_off)
    for page in pages:
        expect(page).to_have_url(app_url + gunfight.get_absolute_url(), timeout=LIVE)
        expect(main(page).locator("[data-me]")).to_be_visible(timeout=LIVE)
    return pages, gunfight


def start_the_clock(pages: list[Page], starter: int = 0) -> None:
    """Every bandolier set, then every covert card passed (R38); ``starter`` saw a western
    last and starts the clock (R39)."""
    for page in pages:
        main(page).get_by_role("button", name="Bandolier set").click()
    for page in pages:  # R38: covert cards once every bandolier is set
        button = main(page).get_by_role("button", name="No covert card this showdown")
        expect(button).to_be_visible(timeout=LIVE)
        button.click()
    for page in pages:  # every phone hears that everyone is ready
        expect(main(page)).to_contain_text("Everyone is ready", timeout=LIVE)
    expect(main(pages[starter]).get_by_role("button", name="Start the clock")).to_be_visible()
    for page in pages:
        page.evaluate("window.tableClock.fired = []")
    main(pages[starter]).get_by_role("button", name="Start the clock").click()


def fired(page: Page) -> list[float]:
    page.wait_for_function(
        "() => window.tableClock && window.tableClock.fired.length >= 3", timeout=CLOCK
    )
    return [
        e["at"] for e in sorted(page.evaluate("window.tableClock.fired"), key=lambda e: e["edge"])
    ][:3]


def test_a_gunfight_from_the_lobby_to_the_last_one_standing(
    app_url: str, table: tuple[Campaign, list[User]], devices: list[BrowserContext]
) -> None:
    pages, gunfight = seated(app_url, table, devices)
    shoot(pages[1], "prepare-phone")
    assert not pages[1].evaluate(OVERFLOW)
    start_the_clock(pages)
    expect(main(pages[1]).locator("[data-table-clock]")).to_have_attribute(
        "data-clock-phase", "2", timeout=CLOCK
    )
    shoot(pages[1], "clock-phone")
    for page in pages:  # the clock ran out on every screen
        expect(main(page).locator("[data-table-clock]")).to_have_attribute(
            "data-clock-phase", "3", timeout=CLOCK
        )

    # The mats, in turn from the host (who saw a western last): three fall, Jess stands.
    order = [
        ("Hank", {"Ruth": "3"}),
        ("Ruth", {"Cole": "3"}),
        ("Cole", {"Jess": "2", "Your own cards": "1"}),
        ("Jess", {}),
    ]
    by_name = dict(zip(NAMES, pages, strict=True))
    for name, hits in order:
        page = by_name[name]
        form = main(page).locator("form.mat-form")
        expect(form).to_be_visible(timeout=LIVE)
        for who, points in hits.items():
            form.get_by_role("spinbutton", name=who).fill(points)
        if len(hits) > 1:
            form.get_by_label("who dealt the last point").select_option(label="Jess")
        if name == "Cole":
            shoot(page, "mat-phone")
        form.get_by_role("button", name="My mat is reviewed").click()
        expect(form).to_be_hidden(timeout=LIVE)
    for page in pages[:3]:
        expect(main(page).locator("[data-ending]")).to_have_text(
            "Jess is the last gunfighter standing.", timeout=LIVE
        )
        expect(main(page).locator("#h-now")).not_to_have_text("Your move")  # issue 36
    # Jess's own phone: "You win!", never an empty "Your move" (issue 36).
    expect(main(pages[3]).locator("[data-ending]")).to_have_text(
        "You are the last gunfighter standing.", timeout=LIVE
    )
    expect(main(pages[3]).locator("#h-now")).to_have_text("You win!")
    for page in pages:
        expect(main(page).locator("#story")).to_contain_text("Ruth shot Hank for 3")
        expect(main(page).locator("#story")).to_contain_text("Cole fell to Jess")
    shoot(pages[0], "ending-laptop")
    shoot(pages[3], "ending-phone")
    for page in pages[1:]:  # a phone never scrolls sideways
        assert not page.evaluate(OVERFLOW)
    gunfight.refresh_from_db()
    assert gunfight.is_over
    jess = by_name["Jess"]
    # Each killer took the fallen one's covert cards, all at once after the reviews (R38):
    # Ruth Hank's, Cole Ruth's, Jess Cole's own five.
    expect(main(jess).locator('[data-count="covert"]')).to_have_text("10")


def measured(phones: list[Page]) -> tuple[list[float], list[float]]:
    """(the skew between the phones at each edge; how late each phone fired any edge by its
    own estimate of the server's clock, ms). A late phone was starved of CPU, not out of step:
    its estimate of the server's clock was right, its renderer ran late."""
    records = [
        sorted(page.evaluate("window.tableClock.fired"), key=lambda e: e["edge"])[:3]
        for page in phones
    ]
    edges = (0, 5000, 10000)
    skews = [max(at) - min(at) for at in zip(*[[e["at"] for e in r] for r in records], strict=True)]
    late = [max(e["server"] - (e["start"] + edges[e["edge"]]) for e in r) for r in records]
    print(
        f"\nshowdown clock skew across three phones, per edge (ms): {[round(x, 1) for x in skews]}"
        f"; each phone's latest edge by its own server clock (ms): {[round(x, 1) for x in late]}"
        f"; best round trips (ms): {[round(p.evaluate('window.tableClock.rtt')) for p in phones]}"
    )
    return skews, late


def test_the_showdown_clock_fires_on_three_phones_at_once(
    app_url: str, table: tuple[Campaign, list[User]], devices: list[BrowserContext]
) -> None:
    """Issue 31: three phones record the instant they fire each edge (the countdown, the
    play, time); the skew between them, per edge, is printed and at most 50 ms, and each
    phone's edges 5 s apart within as much. On a machine so loaded that a phone's renderer fired
    late by its own reckoning (starved of CPU, not out of step: an edge 50.3 ms late once in
    CI), the next showdown is measured once more; phones out of step fail at once."""
    one_off, users = table
    gunfight = new_game("gunfighter", campaign=one_off, actor=users[0], players=users[1:])
    phones = [context.new_page() for context in devices[1:]]
    for phone in phones:
        phone.goto(app_url + gunfight.get_absolute_url())
    for attempt in (1, 2):
        start_the_clock(phones, starter=0)
        for page in phones:
            fired(page)
        skews, late = measured(phones)
        steady = all(  # each phone's 5 s of countdown, then 5 s of play, by its own clock
            abs(b - a - 5000) <= MAX_SKEW_MS and abs(c - b - 5000) <= MAX_SKEW_MS
            for a, b, c in (fired(page) for page in phones)
        )
        if (max(skews) <= MAX_SKEW_MS and steady) or attempt == 2:
            break
        assert max(late) > MAX_SKEW_MS, f"the phones are out of step: {skews}"
        for page in phones:  # no damage, no cards left: the next showdown
            form = main(page).locator("form.mat-form")
            expect(form).to_be_visible(timeout=LIVE)
            form.get_by_role("button", name="My mat is reviewed").click()
            expect(form).to_be_hidden(timeout=LIVE)
    assert max(skews) <= MAX_SKEW_MS, skews
    instants = [fired(page) for page in phones]
    for a, b, c in instants:  # 5 s of countdown, then 5 s of play
        assert abs(b - a - 5000) <= MAX_SKEW_MS
        assert abs(c - b - 5000) <= MAX_SKEW_MS
    start = Gunfight.objects.get(pk=gunfight.pk).state["clock_at"]
    offsets = [page.evaluate("window.tableClock.fired[0].server") - start for page in phones]
    assert all(abs(x) <= MAX_SKEW_MS for x in offsets), offsets  # on the server's instant
