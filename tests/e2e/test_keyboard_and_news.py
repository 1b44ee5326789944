"""Playing by keyboard, and hearing what changed (issue 36 #5), in real browsers: a player's phone
(390×844) at a conflict and at Saloon Showdown reaches every control with Tab, each showing the
focus, and makes a move with Enter or Space; the other phone's polite live region then says
that move's timeline line alone — read from what that phone shows, so never a card it may not
see."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from campaigns.models import Membership
from cards.deck import FULL_DECK
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of
from tests.e2e.conftest import PHONE_390
from tests.e2e.keys import tab_through
from tests.kit import new_game
from tests.showdown.conftest import state_of as showdown_state

pytestmark = pytest.mark.e2e

LIVE = 20_000  # ms
CONNECTED = (
    "() => document.querySelector('[sse-connect]')"
    " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource"
    " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource.readyState === 1"
)
WORDS = {c.words: c.text for c in FULL_DECK}


@pytest.fixture
def phones(
    app_url: str, transactional_db: None, login_cookie: Callable[[User], dict[str, str]],
    module_chromium: Browser,
) -> Iterator[Callable[[User, str], Page]]:  # fmt: skip
    """``phone(user, path)``: the user's phone, on the page, its live stream open."""
    contexts = []

    def open_phone(user: User, path: str) -> Page:
        context = module_chromium.new_context(viewport=PHONE_390, is_mobile=True, has_touch=True)
        contexts.append(context)
        context.add_cookies([login_cookie(user)])  # type: ignore[list-item]
        page = context.new_page()
        page.goto(app_url + path)
        page.wait_for_function(CONNECTED, timeout=LIVE)
        return page

    try:
        yield open_phone
    finally:
        for context in contexts:
            context.close()


def press_by_keyboard(page: Page, name: str, key: str) -> None:
    """Tab to the button named ``name`` (from the top of the page) and press ``key`` on it."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(200):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => document.activeElement.tagName === 'BUTTON'"
            " ? document.activeElement.textContent.trim() : ''"
        )
        if focused == name:
            page.keyboard.press(key)
            return
    raise AssertionError(f"Tab never reached the button {name!r}")


def assert_reachable(page: Page) -> None:
    unreached, unmarked = tab_through(page)
    assert unreached == [], f"controls Tab never reaches: {unreached}"
    assert unmarked == [], f"controls that hide the focus: {unmarked}"


def news(page: Page, says: str) -> str:
    """The page's polite live region once it says ``says``: one line, and every card it names
    shown on the page too (nothing comes through it that the viewer does not see)."""
    region = page.locator("[data-news]")
    expect(region).to_have_attribute("aria-live", "polite")
    expect(region).to_contain_text(re.compile(says), timeout=LIVE)
    text = region.inner_text().strip()
    assert "\n" not in text, text
    shown = set(page.evaluate("() => [...document.querySelectorAll('[data-card]')]"
                              ".map(e => e.dataset.card)"))  # fmt: skip
    named = {WORDS[w] for w in WORDS if w in text}
    assert named <= shown, (text, named - shown)
    return text


def wait_until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + LIVE / 1000
    while not check():
        assert time.monotonic() < deadline, "the move never landed"
        time.sleep(0.1)


def test_a_player_draws_by_keyboard_at_a_conflict_and_the_other_phone_hears_it(
    phones: Callable[[User, str], Page], campaign: Any, dealer: User, player_a: User,
    player_b: User, pc_a: Any, pc_b: Any,
) -> None:  # fmt: skip
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="By the book",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=3)],
    )  # fmt: skip
    boss = Membership.objects.get(user=dealer, campaign=campaign)
    for pc in (pc_a, pc_b):
        conflict_move(conflict_id=conflict.pk, membership=boss, version=None,
                      move=engine.Approve(pid_of(pc), ("hand", "eye")))  # fmt: skip
    conflict_move(conflict_id=conflict.pk, membership=boss, version=None, move=engine.Deal(""))
    url = conflict.get_absolute_url()
    abe, bess = phones(player_a, url), phones(player_b, url)
    assert abe.locator("[data-news]").inner_text() == ""  # nothing changed yet

    assert_reachable(abe)
    press_by_keyboard(abe, "Stand pat", "Enter")

    def drew() -> bool:
        conflict.refresh_from_db()
        return state_from_data(conflict.state).participant(pid_of(pc_a)).drew

    wait_until(drew)
    heard = news(bess, "Abe Slade")
    assert "stand" in heard.lower(), heard
    news(abe, "Abe Slade")


def test_a_player_draws_by_keyboard_at_saloon_showdown_and_the_other_phone_hears_it(
    phones: Callable[[User, str], Page], campaign: Any, dealer: User, player_a: User,
    player_b: User,
) -> None:  # fmt: skip
    users = {"p1": dealer, "p2": player_a, "p3": player_b}
    showdown = new_game(
        "showdown", campaign=campaign, actor=dealer, players=list(users.values()),
        dealer=player_a.pk,
    )  # fmt: skip
    url = showdown.get_absolute_url()
    turn = showdown_state(showdown).turn
    mover = users[turn]
    other = next(u for pid, u in users.items() if pid != turn)
    phone, watcher = phones(mover, url), phones(other, url)

    assert_reachable(phone)
    before = showdown.version
    press_by_keyboard(phone, "Draw blind from the deck", " ")

    def moved() -> bool:
        showdown.refresh_from_db()
        return showdown.version > before

    wait_until(moved)
    news(watcher, mover.first_name)
