"""The phone stays where the player is (issue 26), in Chromium at 390×844 (and a laptop at
1280×800), against the app served by uvicorn. The games' main panels are morphed in place
(idiomorph) by the answer to a move and by every live update, so:

- after a tap on a move, the mover's hand, result or next control is on the screen, and the page
  did not jump to its foot — also when the live update of the move reaches the phone before the
  answer to its own request does (a phone on a slow network: the tests hold the answer back), and
  the answer's message still arrives;
- a refused move says why next to the form, and what the player ticked is still there, also
  through the live updates that follow;
- a live update (another player's move) arriving while a player has ticked cards or typed a
  total or a text does not clear them;
- no Content-Security-Policy violation on the way (issue 27: inline styles at panel swaps).

For each kind of move: a conflict's draw with discards ticked, a fight's Quickness total and Act,
a saloon's "Discard my pairs" and answer. Screenshots of what each screen shows after the taps
go to tests/e2e/artifacts/stays-*.png.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect

from conflicts.services import HandSpec, conflict_create, pid_of
from fights.services import ExtrasSpec, cid_of, fight_create
from saloon.engine import game as g
from saloon.models import Saloon, SaloonLine
from tests.conflicts.test_views import Table as ConflictTable
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390
from tests.fights.conftest import FightTable, rig
from tests.kit import new_game
from tests.saloon.test_views import client_for, play_to

pytestmark = pytest.mark.e2e

LIVE = 20_000  # ms: a screen catches up within this
SLOW = 1.0  # s: how long a slow network holds the answer to a move back

# Every Content-Security-Policy violation the page meets (an inline style set by a swap, …).
WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + (e.sample || e.blockedURI || ""));
});
"""
# Where the page is scrolled, and where ``selector`` is on the screen.
WHERE = """(selector) => {
  const el = document.querySelector(selector);
  const r = el ? el.getBoundingClientRect() : null;
  return {
    y: Math.round(window.scrollY),
    max: Math.round(document.documentElement.scrollHeight - window.innerHeight),
    height: window.innerHeight,
    top: r ? Math.round(r.top) : null,
    bottom: r ? Math.round(r.bottom) : null,
  };
}"""
# The page follows the live stream (its SSE connection is open).
CONNECTED = """() => {
  const el = document.querySelector('[sse-connect]');
  const data = el && el['htmx-internal-data'];
  return !!(data && data.sseEventSource && data.sseEventSource.readyState === 1);
}"""


@pytest.fixture
def open_screen(
    chromium: Browser, login_cookie: Callable[[User], dict[str, str]]
) -> Iterator[Callable[..., Page]]:
    """``open_screen(user, url, laptop=False)``: that person's phone (or laptop) on ``url``,
    following the live stream."""
    contexts: list[BrowserContext] = []

    def open_(user: User, url: str, *, laptop: bool = False) -> Page:
        if laptop:
            context = chromium.new_context(viewport=DESKTOP)
        else:
            context = chromium.new_context(viewport=PHONE_390, is_mobile=True, has_touch=True)
        contexts.append(context)
        context.add_cookies([login_cookie(user)])  # type: ignore[list-item]
        context.add_init_script(WATCH_CSP)
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(CONNECTED, timeout=LIVE)
        return page

    yield open_
    for context in contexts:
        context.close()


def slow_answers(page: Page) -> None:
    """A slow network: the answer to each move reaches the phone ``SLOW`` s late, after the
    live update of that same move (which the server sends as the move commits)."""

    def hold(route: Route) -> None:
        response = route.fetch()
        time.sleep(SLOW)
        route.fulfill(response=response)

    page.route("**/move/**", hold)


def where(page: Page, selector: str) -> dict[str, Any]:
    return page.evaluate(WHERE, selector)  # type: ignore[no-any-return]


def bring_to_middle(page: Page, target: Locator) -> dict[str, Any]:
    """Scroll as a player does before tapping: ``target`` in the middle of the screen."""
    target.scroll_into_view_if_needed()
    target.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    return where(page, "body")


def tap_move(page: Page, target: Locator) -> None:
    """Tap (or click, on a laptop) a move's button and wait for the answer to be settled."""
    with page.expect_response(
        lambda r: "/move/" in r.url and r.request.method == "POST", timeout=LIVE
    ):
        if page.evaluate("() => navigator.maxTouchPoints > 0"):
            target.tap()
        else:
            target.click()
    page.wait_for_timeout(600)  # htmx settles; a live update may follow


def caught_up(page: Page, panel: str, version: int) -> None:
    expect(page.locator(panel)).to_have_attribute("data-version", str(version), timeout=LIVE)
    page.wait_for_timeout(300)


def assert_on_screen(page: Page, selector: str, before: dict[str, Any], label: str) -> None:
    """``selector`` (the mover's hand, result or next control) is on the screen — all of it,
    or its top when it is taller than the screen — and the page did not jump to its foot."""
    now = where(page, selector)
    assert now["top"] is not None, f"{label}: no {selector} on the page"
    tall = now["bottom"] - now["top"] > now["height"]
    seen = (
        0 <= now["top"] < now["height"] - 40
        if tall
        else (now["top"] >= 0 and now["bottom"] <= now["height"])
    )
    assert seen, f"{label}: {selector} is not on the screen: {now} (before the tap: {before})"
    if before["y"] < before["max"] - 80:
        assert now["y"] < now["max"] - 40, (
            f"{label}: the page jumped to its foot: scrollY {before['y']} -> {now['y']} "
            f"(max {now['max']})"
        )
    print(
        f"{label}: scrollY {before['y']} -> {now['y']} (max {before['max']} -> {now['max']}); "
        f"{selector} at {now['top']}..{now['bottom']} of {now['height']}"
    )


def on_screen(page: Page, locator: Locator) -> bool:
    box = locator.bounding_box()
    height = page.evaluate("() => window.innerHeight")
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def no_csp_violations(*pages: Page) -> None:
    for page in pages:
        assert page.evaluate("() => window.__csp") == [], page.url


def shoot(page: Page, name: str) -> None:
    """What the screen shows now (not the full page: what the player sees)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"stays-{name}.png"))


# --- A conflict: the Draw ---------------------------------------------------------------------


@pytest.fixture
def drawing(
    transactional_db: None, campaign: Any, dealer: User, pc_a: Any, pc_b: Any
) -> ConflictTable:
    """Two players against a 5-card stud, dealt: the Draw. Abe's Shootin' 4 is approved (he
    may discard up to 4); Bess has no knack approved yet (she may discard none, R13)."""
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="The posse at the canyon",
        hands=[HandSpec(character=pc_a, goal="Jump into the river"),
               HandSpec(character=pc_b, goal="Hold off the posse"),
               HandSpec(stud_size=5, goal="The posse")],
        stakes=1,
    )  # fmt: skip
    table = ConflictTable(Client(), conflict)
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], trait="on", devil=0)
    table.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["guts", "heart"], devil=0)
    table.ok(dealer, "deal")
    shootin = pc_a.knacks.get(name="Shootin'")
    table.ok(dealer, "approve-knack", pid=pid_of(pc_a), knack=shootin.pk)
    return table


def tick(page: Page, hand: str, count: int) -> list[str]:
    """Tick the first ``count`` cards to discard in the draw form of ``hand``."""
    picks = page.locator(f"{hand} form.draw-form label.pcard--pick")
    for i in range(count):
        picks.nth(i).click()
    return [picks.nth(i).get_attribute("data-card") or "" for i in range(count)]


def ticked(page: Page, hand: str) -> list[str]:
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        f"{hand} form.draw-form input[name=discards]:checked", "els => els.map(e => e.value)"
    )


@pytest.mark.parametrize("laptop", [False, True], ids=["phone-slow-network", "laptop"])
def test_a_draw_keeps_the_players_new_hand_on_the_screen(
    app_url: str, drawing: ConflictTable, player_a: User, pc_a: Any, open_screen: Any,
    laptop: bool,
) -> None:  # fmt: skip
    hand = f"#hand-{pid_of(pc_a)}"
    page = open_screen(player_a, app_url + drawing.url, laptop=laptop)
    if not laptop:
        slow_answers(page)
    discard = page.locator(hand).get_by_role("button", name="Discard and draw")
    before = bring_to_middle(page, discard)
    tick(page, hand, 2)
    tap_move(page, discard)
    caught_up(page, "#conflict-main", drawing.version)
    shoot(page, f"conflict-draw-{'laptop' if laptop else 'phone'}")
    assert_on_screen(page, f"{hand} .hand", before, "conflict draw")
    assert_on_screen(page, f"{hand} .discards", before, "conflict draw")
    # The answer's message came too (it says what the move did).
    expect(page.locator("#conflict-main .notice-line")).to_contain_text("Abe Slade")
    no_csp_violations(page)


def test_a_refused_draw_says_why_and_keeps_the_ticked_cards(
    app_url: str, drawing: ConflictTable, dealer: User, player_a: User, player_b: User,
    pc_a: Any, pc_b: Any, open_screen: Any,
) -> None:  # fmt: skip
    hand = f"#hand-{pid_of(pc_b)}"
    page = open_screen(player_b, app_url + drawing.url)
    abe = open_screen(player_a, app_url + drawing.url)
    desk = open_screen(dealer, app_url + drawing.url, laptop=True)
    discard = page.locator(hand).get_by_role("button", name="Discard and draw")
    before = bring_to_middle(page, discard)
    chosen = tick(page, hand, 2)  # no knack approved: she may discard none (R13)
    version = drawing.version
    tap_move(page, discard)
    assert drawing.version == version  # refused: nothing written
    reason = page.locator("#conflict-main [role=alert]", has_text="discard")
    expect(reason).to_have_count(1)
    shoot(page, "conflict-refused-phone")
    assert on_screen(page, reason), "the reason is not on the screen"
    assert ticked(page, hand) == chosen
    assert_on_screen(page, f"{hand} form.draw-form", before, "refused draw")

    # Abe stands pat meanwhile: the live update keeps the reason and the ticks.
    abe.locator(f"#hand-{pid_of(pc_a)}").get_by_role("button", name="Stand pat").click()
    caught_up(page, "#conflict-main", version + 1)
    expect(reason).to_have_count(1)
    assert on_screen(page, reason), "the reason left the screen"
    assert ticked(page, hand) == chosen
    shoot(page, "conflict-refused-then-live-update-phone")

    # The Dealer approves her Ridin' 3 from the console; she sends the same ticks again.
    seat = desk.locator(f"#seat-{pid_of(pc_b)}")
    seat.locator("select[name=knack]").select_option(label="Ridin' 3")
    seat.get_by_role("button", name="Approve in advance").click()
    caught_up(page, "#conflict-main", version + 2)
    assert ticked(page, hand) == chosen
    expect(page.locator(f"{hand} [data-pick-count]")).to_contain_text("2 of 3")
    tap_move(page, discard)
    caught_up(page, "#conflict-main", version + 3)
    discarded = drawing.state().participant(pid_of(pc_b)).discarded
    assert sorted(c.text for c in discarded) == sorted(chosen)
    expect(reason).to_have_count(0)
    no_csp_violations(page, abe, desk)


def test_a_live_update_keeps_the_cards_ticked_and_the_knack_picked(
    app_url: str, drawing: ConflictTable, player_a: User, player_b: User, pc_a: Any, pc_b: Any,
    open_screen: Any,
) -> None:  # fmt: skip
    hand = f"#hand-{pid_of(pc_b)}"
    page = open_screen(player_b, app_url + drawing.url)
    abe = open_screen(player_a, app_url + drawing.url)
    knack = page.locator(f"{hand} select[name=knack]")
    knack.select_option(label="Ridin' 3")  # what her Draw plays to, before asking the Dealer
    stand = page.locator(hand).get_by_role("button", name="Stand pat")
    before = bring_to_middle(page, stand)
    chosen = tick(page, hand, 2)
    at = stand.bounding_box()
    # The select carries an empty style attribute, as a script or a browser extension that
    # set and reset a style leaves it (CSSOM: allowed); a swap must not copy it (issue 27).
    page.evaluate(f"""() => {{
      const el = document.querySelector("#name-knack-{pid_of(pc_b)}");
      el.style.color = "red"; el.style.color = ""; window.__csp = [];
    }}""")
    version = drawing.version
    abe.locator(f"#hand-{pid_of(pc_a)}").get_by_role("button", name="Stand pat").click()
    caught_up(page, "#conflict-main", version + 1)
    expect(page.locator("#conflict-main .roster-panel")).to_contain_text("done drawing")
    shoot(page, "conflict-live-update-phone")
    assert ticked(page, hand) == chosen
    expect(page.locator(f"{hand} [data-pick-count]")).to_contain_text("2 of 0")
    expect(knack).to_have_value(str(pc_b.knacks.get(name="Ridin'").pk))
    # What the player looks at stays put: the button below the cards has not moved.
    now = stand.bounding_box()
    assert at is not None
    assert now is not None
    assert abs(now["y"] - at["y"]) < 30, f"the live update moved the form: {at} -> {now}"
    assert_on_screen(page, f"{hand} form.draw-form button[name=stand]", before, "live update")
    # She asks the Dealer for Ridin': that form's move goes through; the cards stay ticked.
    tap_move(page, page.locator(hand).get_by_role("button", name="Ask the Dealer"))
    caught_up(page, "#conflict-main", version + 2)
    expect(page.locator(f"{hand} .knack-step")).to_contain_text("Waiting for the Dealer")
    assert ticked(page, hand) == chosen
    no_csp_violations(page, abe)


# --- A fight: Quickness and Act -----------------------------------------------------------------


@pytest.fixture
def gunfight(
    transactional_db: None, campaign: Any, dealer: User, pc_a: Any, pc_b: Any, npc: Any
) -> FightTable:
    """Abe and Bess against Mayor Crane and three Pinkertons: round 1's Quickness."""
    from campaigns.game_sessions import session_start

    session = session_start(campaign=campaign, actor=dealer)
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Shootout at the livery",
        characters=[pc_a, pc_b, npc], extras=[ExtrasSpec("3 Pinkertons", 3, "2d6")],
        rng=random.Random(3),
    )  # fmt: skip
    return FightTable(Client(), fight)


def test_a_typed_quickness_total_outlives_a_live_update_and_its_result_is_on_the_screen(
    app_url: str, gunfight: FightTable, player_a: User, player_b: User, pc_a: Any, pc_b: Any,
    open_screen: Any,
) -> None:  # fmt: skip
    mine = f'[data-mine="{cid_of(pc_a)}"]'
    page = open_screen(player_a, app_url + gunfight.url)
    bess = open_screen(player_b, app_url + gunfight.url)
    slow_answers(page)
    use = page.locator(mine).get_by_role("button", name="Use this total")
    before = bring_to_middle(page, use)
    page.locator(f"{mine} input[name=total]").fill("13")
    page.locator(f"{mine} input[name=bust]").check()
    # Bess types hers meanwhile: the live update keeps Abe's total and his tick.
    theirs = bess.locator(f'[data-mine="{cid_of(pc_b)}"]')
    theirs.locator("input[name=total]").fill("7")
    theirs.get_by_role("button", name="Use this total").click()
    caught_up(page, "#fight-main", gunfight.version)
    expect(page.locator(f"{mine} input[name=total]")).to_have_value("13")
    expect(page.locator(f"{mine} input[name=bust]")).to_be_checked()
    page.locator(f"{mine} input[name=bust]").uncheck()
    tap_move(page, use)
    caught_up(page, "#fight-main", gunfight.version)
    expect(page.locator(f"{mine} .fight-quick")).to_contain_text("13")
    expect(page.locator("#fight-main .notice-line")).to_contain_text("Abe Slade rolls 13")
    shoot(page, "fight-quickness-phone")
    assert_on_screen(page, f"{mine} .fight-quick", before, "fight quickness")
    no_csp_violations(page, bess)


def test_acting_keeps_the_players_line_on_the_screen(
    app_url: str, gunfight: FightTable, dealer: User, player_b: User, pc_a: Any, pc_b: Any,
    npc: Any, open_screen: Any,
) -> None:  # fmt: skip
    cids = {"abe": cid_of(pc_a), "bess": cid_of(pc_b), "crane": cid_of(npc), "gang": "x1"}
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        gunfight.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(gunfight.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    gunfight.ok(dealer, "deal")  # K♥ (Bess) comes up first
    mine = f'[data-mine="{cids["bess"]}"]'
    page = open_screen(player_b, app_url + gunfight.url)
    slow_answers(page)
    act = page.locator(f"{mine} [data-up]").get_by_role("button", name="Act", exact=True)
    before = bring_to_middle(page, act)
    page.locator(f"{mine} [data-up] input[name=text]").fill("Bess shoots the lamp out")
    tap_move(page, act)
    caught_up(page, "#fight-main", gunfight.version)
    shoot(page, "fight-act-phone")
    assert_on_screen(page, mine, before, "fight act")
    expect(page.locator("#fight-main .notice-line")).to_contain_text("Bess shoots the lamp out")
    no_csp_violations(page)


# --- The saloon: discard, answer --------------------------------------------------------------


@pytest.fixture
def saloon(
    transactional_db: None, campaign: Any, dealer: User, player_a: User, player_b: User,
    monkeypatch: pytest.MonkeyPatch,
) -> Saloon:  # fmt: skip
    rng = random.Random(9)
    monkeypatch.setattr("tables.play.system_rng", lambda: rng)
    return new_game(
        "saloon",
        campaign=campaign, actor=dealer, players=[dealer, player_a, player_b],
        rng=random.Random(4),
    )  # fmt: skip


def test_discarding_pairs_keeps_the_players_next_step_on_the_screen(
    app_url: str, saloon: Saloon, player_a: User, open_screen: Any
) -> None:
    page = open_screen(player_a, app_url + saloon.get_absolute_url())
    slow_answers(page)
    button = page.locator("#saloon-main").get_by_role("button", name="Discard my pairs")
    before = bring_to_middle(page, button)
    tap_move(page, button)
    saloon.refresh_from_db()
    caught_up(page, "#saloon-main", saloon.version)
    expect(page.locator("#saloon-main .now")).to_contain_text("Waiting for")
    shoot(page, "saloon-discard-phone")
    assert_on_screen(page, "#saloon-main .now", before, "saloon discard")
    expect(page.locator("#saloon-main .message--success")).to_be_attached()
    no_csp_violations(page)


def test_an_answer_typed_outlives_a_live_update_and_the_next_step_is_on_the_screen(
    app_url: str, saloon: Saloon, dealer: User, player_a: User, player_b: User,
    open_screen: Any,
) -> None:  # fmt: skip
    people = {"p1": dealer, "p2": player_a, "p3": player_b}
    seated = {pid: client_for(user) for pid, user in people.items()}
    state = play_to(saloon, seated, lambda s: s.turn is not None and s.turn.step == g.Step.ANSWER)
    assert state.turn is not None
    answerer = state.turn.answerer
    other = next(pid for pid in people if pid != answerer)
    url = app_url + saloon.get_absolute_url()
    page = open_screen(people[answerer], url)
    them = open_screen(people[other], url)
    button = page.locator("#saloon-main .now").get_by_role("button", name="I answered")
    before = bring_to_middle(page, button)
    page.locator("#answer-text").fill("It was for the gold, and for my sister.")
    # Someone else names their character meanwhile: the live update keeps the text typed.
    them.locator(".me__name summary").click()
    them.locator(".me__name input[name=name]").fill("Calamity")
    them.locator(".me__name").get_by_role("button", name="Save").click()
    saloon.refresh_from_db()
    caught_up(page, "#saloon-main", saloon.version)
    expect(page.locator("#saloon-main")).to_contain_text("Calamity")
    expect(page.locator("#answer-text")).to_have_value("It was for the gold, and for my sister.")
    slow_answers(page)
    tap_move(page, button)
    saloon.refresh_from_db()
    caught_up(page, "#saloon-main", saloon.version)
    shoot(page, "saloon-answer-phone")
    assert_on_screen(page, "#saloon-main .now", before, "saloon answer")
    said = SaloonLine.objects.filter(saloon=saloon, kind=SaloonLine.Kind.ANSWER)
    assert said.filter(said__contains="for my sister").exists()
    no_csp_violations(page, them)
