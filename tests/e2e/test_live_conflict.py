"""A whole conflict at a live table, in real browsers: the Dealer on a laptop (1280×800, with the
shared table view open beside the console) and two players on phones (390×844), each in a
browser context of their own, against the app served by uvicorn (PostgreSQL and Redis when
DATABASE_URL / REDIS_URL are set, as in CI; SQLite and the in-process broadcaster otherwise).

At every step each screen must update WITHOUT a reload (no ``reload()``/``goto`` after the first
load: the tests wait for the content to appear), and every screen shows only the cards its viewer
may see (R10): the ``data-card`` values on each page, and every card written anywhere in its
markup, are compared with the engine's ``visible_cards`` for that viewer at that version. The
tests assert on what is on the screen, not on how it got there (poll or event stream).

Screenshots of every step go to tests/e2e/artifacts/ (gitignored).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect

from characters.services import chips_grant
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, pid_of
from tests.conflicts.test_views import card_tokens, texts
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390

pytestmark = pytest.mark.e2e

LIVE = 20_000  # ms: a screen must catch up within this without a reload (the poll is 2 s)
# The deck's order, shown once the conflict is over (as the browser serialises it).
ORDER_BLOCK = re.compile(r'<pre class="order" data-deck-order[^>]*>.*?</pre>', re.S)

# Remembers every EventSource the page opens, so a test can cut them (the transport, if it is
# one; with the poll the list stays empty). The constants are copied: stream clients read them.
TRACK_EVENT_SOURCES = """
(() => {
  const Native = window.EventSource;
  if (!Native) return;
  window.__sources = [];
  function Tracked(url, options) {
    const source = new Native(url, options);
    window.__sources.push(source);
    return source;
  }
  Tracked.prototype = Native.prototype;
  Tracked.CONNECTING = 0; Tracked.OPEN = 1; Tracked.CLOSED = 2;
  window.EventSource = Tracked;
})();
"""
CUT_EVENT_SOURCES = """
() => (window.__sources || []).forEach(s => { s.close(); s.dispatchEvent(new Event("error")); })
"""


@dataclass
class Screen:
    """One person's screen: who looks, and which hands they play (for ``visible_cards``)."""

    name: str
    page: Page
    context: BrowserContext
    mine: set[str] = field(default_factory=set)
    dealer: bool = False
    shared: bool = False  # the table view: public facts only, whoever looks

    def cards(self) -> set[str]:
        """The cards on the page: every ``data-card`` value (the deck order after the end aside,
        as in ``written``: each of its cards is named in words too)."""
        script = "els => els.map(e => e.dataset.card)"
        values = self.page.eval_on_selector_all("[data-card]:not([data-deck-order] *)", script)
        return set(values)

    def written(self) -> set[str]:
        """Every card written anywhere in the page's markup (the deck order after the end
        aside: it is meant to be shown then)."""
        return card_tokens(ORDER_BLOCK.sub("", self.page.content()))

    def version(self) -> int | None:
        value = self.page.locator("#conflict-main").first.get_attribute("data-version")
        return int(value) if value is not None else None


class LiveTable:
    """The screens at one conflict, checked against the database at every step."""

    def __init__(self, conflict: Conflict, screens: list[Screen], prefix: str) -> None:
        self.conflict = conflict
        self.screens = screens
        self.prefix = prefix
        self.step = 0

    def state(self) -> engine.ConflictState:
        self.conflict.refresh_from_db()
        return state_from_data(self.conflict.state)

    def settle(self, *screens: Screen) -> None:
        """Every screen (or these) shows the conflict's current version, reached without a
        reload: the panel carries its version (``data-version``)."""
        self.conflict.refresh_from_db()
        version = str(self.conflict.version)
        for screen in screens or tuple(self.screens):
            expect(
                screen.page.locator("#conflict-main"), f"{screen.name} caught up"
            ).to_have_attribute("data-version", version, timeout=LIVE)

    def press(self, screen: Screen, button: Locator) -> None:
        """Make a move from ``screen`` once it shows the current version; the move must go
        through (the version goes up) or the test fails with the page's message. A click that
        lands as the panel is being swapped is lost, as a tap would be: it is pressed again."""
        self.settle(screen)
        before = self.conflict.version
        for _ in range(3):
            button.click()
            deadline = time.monotonic() + 8
            while time.monotonic() < deadline:
                self.conflict.refresh_from_db()
                if self.conflict.version > before:
                    return
                time.sleep(0.1)
            alert = screen.page.locator("#conflict-main .alert")
            if alert.count():
                raise AssertionError(f"{screen.name}: refused: {alert.first.text_content()}")
        raise AssertionError(f"{screen.name}: the move never went through")

    def check(self, label: str, *, settle: bool = True) -> None:
        """R10 on every screen, then a screenshot of each."""
        if settle:
            self.settle()
        state = self.state()
        self.step += 1
        revealed = state.phase in (engine.Phase.RESOLUTION, engine.Phase.DONE)
        for screen in self.screens:
            where = f"step {self.step} ({label}), {screen.name}"
            mine = set() if screen.shared else screen.mine
            dealer = screen.dealer and not screen.shared
            may = texts(engine.visible_cards(state, mine, dealer=dealer))
            seen, written = screen.cards(), screen.written()
            assert seen <= may, f"{where} shows {sorted(seen - may)}"
            assert written <= may, f"{where} writes {sorted(written - may)}"
            if not revealed and not screen.dealer:
                others = {
                    c.text
                    for p in state.participants
                    if p.pid not in mine
                    for c in (*p.hand, *p.discarded)
                }
                assert not (seen | written) & others, f"{where} shows another hand's card"
            if state.phase in (engine.Phase.DRAW, engine.Phase.LAYING) and not screen.shared:
                # Not a vacuous pass: the viewer's own hands are on their screen.
                own = {
                    c.text
                    for p in state.participants
                    if (screen.dealer and p.kind != engine.Kind.PC) or p.pid in mine
                    for c in p.hand
                }
                assert own <= seen, f"{where} misses its own cards {sorted(own - seen)}"
        self._shoot(label)

    def shoot(self, label: str) -> None:
        """A screenshot of every screen as a step of its own."""
        self.step += 1
        self._shoot(label)

    def _shoot(self, label: str) -> None:
        slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
        for screen in self.screens:
            path = ARTIFACTS / f"{self.prefix}-{self.step:02d}-{slug}-{screen.name}.png"
            screen.page.screenshot(path=str(path), full_page=True)


@pytest.fixture
def cast_cookies(
    transactional_db: None,
    dealer: User,
    player_a: User,
    player_b: User,
    pc_a: Any,
    pc_b: Any,
    login_cookie: Callable[[User], dict[str, str]],
) -> dict[str, dict[str, str]]:
    """The table's people logged in (sessions in the database), Bess with two chips to bid."""
    chips_grant(character_id=pc_b.pk, amount=2, actor=None, note="Starting chips")
    return {u.username: login_cookie(u) for u in (dealer, player_a, player_b)}


def open_context(browser: Browser, cookie: dict[str, str], viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    context.add_cookies([cookie])  # type: ignore[list-item]
    context.add_init_script(TRACK_EVENT_SOURCES)
    return context


@pytest.fixture
def people(
    cast_cookies: dict[str, dict[str, str]], chromium: Browser
) -> Iterator[dict[str, BrowserContext]]:
    """The Dealer's laptop and the two players' phones: three contexts."""
    contexts = {
        "dealer": open_context(chromium, cast_cookies["dealer"], DESKTOP),
        "player_a": open_context(chromium, cast_cookies["player_a"], PHONE_390),
        "player_b": open_context(chromium, cast_cookies["player_b"], PHONE_390),
    }
    try:
        yield contexts
    finally:
        for context in contexts.values():
            context.close()


def button(page: Page, name: str, *, within: str | None = None) -> Locator:
    scope = page.locator(within) if within else page
    return scope.get_by_role("button", name=name, exact=True).first


def test_it_plays_a_whole_conflict_live_on_three_screens_R10(
    app_url: str,
    campaign: Any,
    pc_a: Any,
    pc_b: Any,
    people: dict[str, BrowserContext],
) -> None:
    pa, pb = pid_of(pc_a), pid_of(pc_b)
    desk = people["dealer"].new_page()

    # Set-up: the Dealer fills in the new-conflict form.
    desk.goto(f"{app_url}/c/{campaign.slug}/conflicts/new/")
    desk.locator("#id_title").fill("Ambush at Dry Gulch")
    desk.locator(f"input[name=goal_{pc_a.pk}]").fill("Get the payroll across")
    desk.locator(f"input[name=goal_{pc_b.pk}]").fill("Keep the posse off")
    desk.locator("#id_stakes").select_option("1")
    desk.locator("#id_stud").select_option("5")
    desk.locator("#id_stud_goal").fill("The posse")
    desk.screenshot(path=str(ARTIFACTS / "live-00-set-up-form-dealer.png"), full_page=True)
    button(desk, "Set up the conflict").click()
    expect(desk).to_have_url(re.compile(r"/conflicts/\d+/$"))
    conflict = Conflict.objects.get(title="Ambush at Dry Gulch")
    url = app_url + conflict.get_absolute_url()

    table = people["dealer"].new_page()
    table.goto(url + "table/")
    screens = [Screen("dealer", desk, people["dealer"], dealer=True)]
    screens.append(Screen("table", table, people["dealer"], shared=True))
    for who, pid in (("player_a", pa), ("player_b", pb)):
        page = people[who].new_page()
        page.goto(url)  # the only navigation: from here on every screen updates itself
        screens.append(Screen(who, page, people[who], mine={pid}))
    dealer, shared, a, b = (s.page for s in screens)
    sd, sa, sb = screens[0], screens[2], screens[3]
    live = LiveTable(conflict, screens, "live")
    expect(a.get_by_role("heading", name="Your Deal")).to_be_visible()
    live.check("set up")

    # Proposals, from the phones; the console shows them as they come.
    for screen, pid, attributes in ((sa, pa, ("hand", "eye")), (sb, pb, ("guts", "heart"))):
        page = screen.page
        live.settle(screen)
        form = page.locator(f"#hand-{pid} form.act--propose")
        for attribute in attributes:
            form.locator(f"input[name=attributes][value={attribute}]").check()
        live.press(screen, button(page, "Propose my Deal", within=f"#hand-{pid}"))
        expect(page.locator(f"#hand-{pid}")).to_contain_text("Waiting for the Dealer")
        expect(dealer.locator(f"#seat-{pid} .seat__proposal")).to_contain_text(
            "Proposed", timeout=LIVE
        )
    expect(shared.locator(".roster-panel")).to_contain_text("Proposed", timeout=LIVE)
    live.check("proposals")

    # Approvals: each phone shows the Deal the Dealer set.
    for page, pid in ((a, pa), (b, pb)):
        live.press(sd, button(dealer, "Approve", within=f"#seat-{pid}"))
        expect(dealer.locator(f"#seat-{pid}")).to_contain_text("Set:")
        expect(page.locator(f"#hand-{pid} .deal-lines")).to_contain_text(
            "The Dealer set it", timeout=LIVE
        )
    live.check("approvals")

    # The Deal: each phone shows its own hand, and only that.
    live.press(sd, button(dealer, "Deal"))
    for page in (a, b):
        expect(page.get_by_role("heading", name=re.compile("Your hand"))).to_be_visible(
            timeout=LIVE
        )
    expect(shared.locator(".badge--phase")).to_have_text("The Draw", timeout=LIVE)
    live.check("the deal")

    # The Draw on each phone: Abe names his Shootin' and the Dealer approves it (R13), then
    # Abe throws two cards; Bess stands pat.
    live.press(sa, button(a, "Ask the Dealer", within=f"#hand-{pa}"))
    expect(dealer.locator(f"#seat-{pa}")).to_contain_text("asks for", timeout=LIVE)
    live.press(sd, button(dealer, "Approve", within=f"#seat-{pa}"))
    expect(a.locator(f"#hand-{pa}")).to_contain_text("approved by the Dealer", timeout=LIVE)
    live.check("knack approved")
    live.settle(sa)
    draw = a.locator(f"#hand-{pa} form.draw-form")
    draw.locator("label.pcard--pick").nth(0).click()
    draw.locator("label.pcard--pick").nth(1).click()
    expect(draw.locator("[data-pick-count]")).to_contain_text("2 of")
    live.press(sa, button(a, "Discard and draw", within=f"#hand-{pa}"))
    expect(a.locator(f"#hand-{pa} .discards")).to_be_visible()
    expect(dealer.locator(f"#seat-{pa} .seat__status")).to_contain_text(
        "done drawing", timeout=LIVE
    )
    live.check("abe drew")
    live.press(sb, button(b, "Stand pat", within=f"#hand-{pb}"))
    expect(dealer.locator(f"#seat-{pb} .seat__status")).to_contain_text(
        "done drawing", timeout=LIVE
    )
    expect(a.locator(".roster-panel")).not_to_contain_text("drawing…", timeout=LIVE)
    live.check("bess stood pat")

    # The Call; Abe picks his lay, Bess leaves hers to the app (the best hand goes down).
    live.press(sd, button(dealer, "Call"))
    for page in (a, b):
        expect(page.get_by_role("heading", name=re.compile("The Call"))).to_be_visible(timeout=LIVE)
    live.check("the call")
    live.press(
        sa, a.locator(f"#hand-{pa} .lay-options").get_by_role("button", name="Lay this").first
    )
    expect(a.locator(f"#hand-{pa} .current-lay")).to_be_visible()
    expect(dealer.locator(f"#seat-{pa} .seat__status")).to_contain_text("lay chosen", timeout=LIVE)
    live.check("abe laid")

    # The reveal: every screen shows the showdown; the lays are now public, nothing else.
    live.press(sd, button(dealer, "Reveal"))
    for screen in screens:
        expect(screen.page.get_by_role("heading", name="The showdown")).to_be_visible(timeout=LIVE)
    live.check("the reveal")
    state = live.state()
    winner = state.participant(state.winner).name if state.winner else ""
    for screen in screens:
        expect(screen.page.locator(".resolution .winner")).to_contain_text(winner)

    # Narration: a player who may bid takes it for a chip; the Dealer closes the bids.
    for screen in screens[2:]:
        live.settle(screen)
        bid = screen.page.get_by_role("button", name="Bid", exact=True)
        if bid.count():
            live.press(screen, bid.first)
            expect(dealer.locator(".narration .bids")).to_contain_text("bids 1 chip", timeout=LIVE)
            live.check(f"{screen.name} bid for the narration")
            break
    if not live.state().bids_closed:
        live.press(sd, button(dealer, "Close the bids"))
        for screen in screens[2:]:
            expect(screen.page.locator(".narration")).to_contain_text("narrates", timeout=LIVE)
        live.check("bids closed")

    # Difficulty: whoever owes it places it, on their own screen (players) or the console.
    owed = [o.pid for o in live.state().owed]
    for screen in (sd, sa, sb):
        while True:
            live.settle(screen)
            take = screen.page.get_by_role("button", name="Take the Difficulty", exact=True)
            if not take.count():
                break
            live.press(screen, take.first)
            live.settle()
            live.check(f"{screen.name} took difficulty")
    state = live.state()
    assert [o.pid for o in state.owed if o.allocation is None] == [], owed

    # Finish: every screen says it is over, and shows the shuffle can be checked.
    live.press(sd, button(dealer, "Finish"))
    for screen in screens:
        expect(screen.page.locator(".badge--phase")).to_have_text("Over", timeout=LIVE)
    expect(shared.locator("[data-audit]")).to_contain_text("It matches", timeout=LIVE)
    live.check("finished")
    assert live.state().phase == engine.Phase.DONE


@pytest.fixture
def dealt_conflict(campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Conflict:
    """Set up (through the service: this test is about the connection), not yet sized."""
    return conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Stampede at the river",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=3)],
    )


def test_it_catches_up_after_a_player_loses_the_connection(
    app_url: str,
    dealt_conflict: Conflict,
    pc_a: Any,
    pc_b: Any,
    people: dict[str, BrowserContext],
) -> None:
    conflict = dealt_conflict
    pa, pb = pid_of(pc_a), pid_of(pc_b)
    url = app_url + conflict.get_absolute_url()
    screens = []
    for who, mine in (("dealer", set()), ("player_a", {pa}), ("player_b", {pb})):
        page = people[who].new_page()
        page.goto(url)
        screens.append(Screen(who, page, people[who], mine=mine, dealer=who == "dealer"))
    live = LiveTable(conflict, screens, "reconnect")
    dealer, a, b = (s.page for s in screens)
    sd, sa, sb = screens
    live.check("all online")

    # Abe's phone drops off: offline, its stream (if any) cut, new stream requests refused.
    def refuse(route: Route) -> None:
        route.abort("internetdisconnected")

    people["player_a"].set_offline(True)
    a.route(re.compile(r"/stream/"), refuse)
    a.evaluate(CUT_EVENT_SOURCES)

    # Meanwhile the table moves on: both Deals set, and dealt.
    for pid in (pa, pb):
        live.settle(sd)
        dealer.locator(f"#seat-{pid} input[name=attributes][value=hand]").check()
        dealer.locator(f"#seat-{pid} input[name=attributes][value=eye]").check()
        live.press(sd, button(dealer, "Set the Deal", within=f"#seat-{pid}"))
        expect(dealer.locator(f"#seat-{pid}")).to_contain_text("Set:")
    live.press(sd, button(dealer, "Deal"))
    expect(b.get_by_role("heading", name=re.compile("Your hand"))).to_be_visible(timeout=LIVE)
    live.settle(screens[0], screens[2])
    # Abe's screen is stuck where it was (and still shows nobody's cards).
    expect(a.locator(".badge--phase")).to_have_text("Sizing the Deal")
    assert screens[1].cards() == set()
    assert screens[1].version() == 0
    live.shoot("abe offline")

    # Back online: the page catches up by itself (the reconnect snapshot, or the safety net).
    a.unroute(re.compile(r"/stream/"))
    people["player_a"].set_offline(False)
    expect(a.get_by_role("heading", name=re.compile("Your hand"))).to_be_visible(timeout=45_000)
    live.check("abe back online")
    state = live.state()
    assert screens[1].cards() == texts(state.participant(pa).hand)

    # And it is live again both ways: Abe stands pat, the Dealer sees it; the Dealer calls,
    # Abe sees it.
    live.press(sa, button(a, "Stand pat", within=f"#hand-{pa}"))
    expect(dealer.locator(f"#seat-{pa} .seat__status")).to_contain_text(
        "done drawing", timeout=LIVE
    )
    live.press(sb, button(b, "Stand pat", within=f"#hand-{pb}"))
    live.press(sd, button(dealer, "Call"))
    try:
        expect(a.get_by_role("heading", name=re.compile("The Call"))).to_be_visible(timeout=LIVE)
    except AssertionError as error:
        sources = a.evaluate("(window.__sources || []).map(s => s.readyState)")
        pill = a.locator("[data-live-status]").first.text_content()
        raise AssertionError(
            f"{error}\nEventSources' readyState: {sources}; pill: {pill}"
        ) from None
    live.check("live again")
