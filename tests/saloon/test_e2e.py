"""A whole game of Death Enters the Saloon in Chromium, to an ending: three players, each in a
browser context of their own (two phones at 390×844, one laptop at 1280×800) and the shared
table screen on the laptop, against the app served by uvicorn (PostgreSQL and Redis when
DATABASE_URL / REDIS_URL are set). Needs E2E=1.

Every move is a click on the mover's own screen; every other screen must catch up WITHOUT a
reload (the live stream). At every step each screen writes only cards ``visible_cards`` allows
its viewer (the table screen: public facts only), and never a hidden card of the Doomed's.
Screenshots of the steps go to tests/e2e/artifacts/saloon-*.png.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from saloon.engine import game as g
from saloon.models import Saloon
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390, app_url, chromium, login_cookie
from tests.kit import new_game
from tests.saloon.conftest import state_of
from tests.saloon.test_hidden import tokens

pytestmark = pytest.mark.e2e
__all__ = ["app_url", "chromium", "login_cookie"]

LIVE = 20_000  # ms: a screen must catch up within this without a reload
# The elements that stick out to the right of the viewport (a phone must never scroll sideways).
OVERFLOW = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
            && getComputedStyle(e).position !== 'fixed'
            && ![...e.children].some(c => c.getBoundingClientRect().right > window.innerWidth + 1))
  .slice(0, 5)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


@dataclass
class Screen:
    name: str
    page: Page
    pid: str | None  # None: the shared table screen

    def main(self) -> Locator:
        return self.page.locator("#saloon-main")


@pytest.fixture
def people(
    transactional_db: None,
    dealer: User,
    player_a: User,
    player_b: User,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> Iterator[dict[str, BrowserContext]]:
    sizes = {"dealer": DESKTOP, "player_a": PHONE_390, "player_b": PHONE_390}
    contexts = {}
    for user in (dealer, player_a, player_b):
        context = chromium.new_context(viewport=sizes[user.username], device_scale_factor=1)
        context.add_cookies([login_cookie(user)])  # type: ignore[list-item]
        contexts[user.username] = context
    try:
        yield contexts
    finally:
        for context in contexts.values():
            context.close()


class Table:
    def __init__(self, saloon: Saloon, screens: list[Screen]) -> None:
        self.saloon = saloon
        self.screens = screens
        self.step = 0

    def state(self) -> g.SaloonState:
        return state_of(self.saloon)

    def screen(self, pid: str) -> Screen:
        return next(s for s in self.screens if s.pid == pid)

    def settle(self) -> None:
        self.saloon.refresh_from_db()
        for screen in self.screens:
            expect(screen.main(), f"{screen.name} caught up").to_have_attribute(
                "data-version", str(self.saloon.version), timeout=LIVE
            )

    def press(self, screen: Screen, button: Locator) -> None:
        """Click on ``screen``; the move must go through (the version goes up)."""
        self.saloon.refresh_from_db()
        before = self.saloon.version
        expect(screen.main()).to_have_attribute("data-version", str(before), timeout=LIVE)
        button.click()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            self.saloon.refresh_from_db()
            if self.saloon.version > before:
                return
            time.sleep(0.1)
        error = screen.page.locator("#saloon-main .message--error")
        said = error.first.text_content() if error.count() else "no message"
        raise AssertionError(f"{screen.name}: the move never went through ({said})")

    def check(self, label: str, shoot: bool = False) -> None:
        """Every screen caught up; only the cards its viewer may see; screenshots."""
        self.settle()
        state = self.state()
        self.step += 1
        for screen in self.screens:
            html = screen.page.content()
            may = g.visible_cards(state, screen.pid)
            written = tokens(html)
            assert written <= may, f"{label}, {screen.name} writes {written - may}"
            if state.doomed and screen.pid != state.doomed:
                hidden = set(state.player(state.doomed).hand) - g.public_cards(state)
                assert not (written & hidden), f"{label}, {screen.name} shows the Doomed's cards"
            if screen.pid and state.phase != g.Phase.ARCHETYPES:
                own = {c.text for c in state.player(screen.pid).hand}
                faces = set(screen.page.eval_on_selector_all(
                    "#saloon-main .my-hand [data-card]", "els => els.map(e => e.dataset.card)"
                ))  # fmt: skip
                assert faces == own, f"{label}, {screen.name}: own hand {faces} != {own}"
        for screen in self.screens:  # nothing wider than the screen (no sideways scrolling)
            wide = screen.page.evaluate(OVERFLOW)
            assert not wide, f"{label}, {screen.name}: wider than the screen: {wide}"
        if shoot:
            slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
            for screen in self.screens:
                path = ARTIFACTS / f"saloon-{self.step:03d}-{slug}-{screen.name}.png"
                screen.page.screenshot(path=str(path), full_page=True)
                # And what the screen shows without scrolling (390×844, 1280×800).
                fold = path.with_name(path.stem + "-fold.png")
                screen.page.evaluate("window.scrollTo(0, 0)")
                screen.page.screenshot(path=str(fold), full_page=False)


def button(screen: Screen, name: str) -> Locator:
    return screen.main().get_by_role("button", name=name, exact=True).first


def play_one(table: Table, rng: random.Random) -> str:
    """The move the game waits for, clicked on the mover's screen; returns what it was."""
    state = table.state()
    pid = g.whose_move(state)[0]
    screen = table.screen(pid)
    main = screen.main()
    if state.phase == g.Phase.DISCARD:
        table.press(screen, button(screen, "Discard my pairs"))
        return "discard"
    if state.phase == g.Phase.SWAP:
        table.press(screen, main.locator("button[name=other]").first)
        return "swap"
    if state.phase == g.Phase.DUEL:
        table.press(screen, main.locator("button[data-back]").nth(rng.randrange(2)))
        return "shoot"
    turn = state.turn
    assert turn is not None
    if turn.step == g.Step.DRAW:
        size = len(state.player(state.doomed).hand)
        backs = main.locator("button[data-back]")
        expect(backs).to_have_count(size)
        table.press(screen, backs.nth(rng.randrange(size)))
        return "draw"
    if turn.step in (g.Step.ASK, g.Step.CLEAR):
        main.locator("#prompt-text").fill("Tell us about the night of the fire.")
        label = "I asked it" if turn.step == g.Step.ASK else "I told it"
        table.press(screen, button(screen, label))
        return "prompt"
    if turn.step == g.Step.ANSWER:
        main.locator("#answer-text").fill("It was for the gold, and for my sister.")
        table.press(screen, button(screen, "I answered"))
        return "answer"
    if rng.random() < 0.5:
        main.locator("#follow-text").fill("And who else knows?")
        table.press(screen, button(screen, "I asked"))
        return "follow_up"
    table.press(screen, button(screen, "Pass: make room for others"))
    return "pass"


def test_it_plays_a_whole_game_live_on_three_screens(
    app_url: str,
    campaign: Any,
    dealer: User,
    player_a: User,
    player_b: User,
    people: dict[str, BrowserContext],
) -> None:
    saloon = new_game(
        "saloon",
        campaign=campaign,
        actor=dealer,
        players=[dealer, player_a, player_b],
        rng=random.Random(4),
    )
    url = app_url + saloon.get_absolute_url()
    screens = []
    for who, pid in (("dealer", "p1"), ("player_a", "p2"), ("player_b", "p3")):
        page = people[who].new_page()
        page.goto(url)  # the only navigation: from here on every screen updates itself
        screens.append(Screen(who, page, pid))
    shared = people["dealer"].new_page()
    shared.goto(url + "table/")
    screens.append(Screen("table", shared, None))
    table = Table(saloon, screens)
    expect(screens[1].page.locator(".now__todo")).to_have_text("Discard your pairs.")
    table.check("dealt", shoot=True)

    # The Unwanted card: raised on a phone, on every screen at once, play paused, lowered.
    bess = screens[2]
    table.press(bess, button(bess, "Raise the Unwanted card"))
    for screen in screens:
        expect(screen.page.locator(".unwanted__card")).to_contain_text(
            "raised by Bess", timeout=LIVE
        )
    table.check("unwanted raised", shoot=True)
    table.press(bess, button(bess, "Lower the Unwanted card"))
    table.check("unwanted lowered")
    # A three of a kind: the app proposes the highest suit; here the phone keeps another.
    abe = screens[1]
    radios = abe.main().locator("input[type=radio][name^=keep_]:not(:checked)")
    if radios.count():
        kept = radios.first.get_attribute("value")
        abe.main().locator(f"input[type=radio][value='{kept}']").check()
        table.press(abe, button(abe, "Discard my pairs"))
        assert kept in {c.text for c in table.state().player("p2").hand}
        table.check("discarded with a choice", shoot=True)

    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(400):
        if table.state().phase == g.Phase.OVER:
            break
        state = table.state()
        if state.turn is not None and state.turn.step == g.Step.DRAW and "draw" not in seen:
            table.check("before the first draw", shoot=True)  # the drawer's backs
        if state.phase == g.Phase.DUEL and "shoot" not in seen:
            table.check("before the first shot", shoot=True)  # the two cards face down
        what = play_one(table, rng)
        first = what not in seen
        seen.add(what)
        table.check(what, shoot=first)
    state = table.state()
    assert state.phase == g.Phase.OVER
    assert {"discard", "draw", "prompt"} <= seen
    for screen in screens:
        expect(screen.main().locator("[data-ending]")).to_have_attribute(
            "data-ending", state.ending.value if state.ending else "", timeout=LIVE
        )
    table.check(f"ending {state.ending}", shoot=True)
    # The story, from a phone.
    story = screens[1].page.request.get(url + "story.md")
    assert story.ok
    assert "What we learned about the saloon" in story.text()
    assert "It was for the gold" in story.text()
