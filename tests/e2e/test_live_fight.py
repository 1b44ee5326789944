"""A whole fight at a live table, in real browsers (issue 17): the Dealer on a laptop (1280×800)
with the shared table view open beside the console, and two players on phones (390×844), each
in a browser context of their own, against the app served by uvicorn (PostgreSQL and Redis when
DATABASE_URL / REDIS_URL are set, as in CI).

Three rounds with a stacked deck (the test puts the cards on top of the deck in the database
before each deal; round 3 is dealt as it comes): the red joker to Abe in round 1, played out of
turn from his phone; the black joker to Bess in round 2, taking her sleeved card with it; Abe's
Quickness rolled by the app in round 3. Every screen must catch up WITHOUT a reload, and at
every step every card written anywhere in every screen is one its viewer may see (R30): the
engine's ``visible_cards`` for that viewer at this step or an earlier one (the timeline keeps
the cards played before a reshuffle). Screenshots of every step go to tests/e2e/artifacts/.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from fights.engine import action_deck as engine
from fights.engine.serial import state_from_data
from fights.models import Fight
from fights.services import cid_of
from tests.conflicts.test_views import card_tokens, texts
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390
from tests.e2e.test_live_conflict import open_context
from tests.fights.conftest import rig

pytestmark = pytest.mark.e2e

LIVE = 20_000  # ms: a screen must catch up within this without a reload


@dataclass
class Screen:
    name: str
    page: Page
    mine: set[str] = field(default_factory=set)
    dealer: bool = False
    shared: bool = False
    may: set[str] = field(default_factory=set)  # every card this screen may have shown so far


class LiveFight:
    def __init__(self, fight: Fight, screens: list[Screen]) -> None:
        self.fight = fight
        self.screens = screens
        self.step = 0

    def state(self) -> engine.FightState:
        self.fight.refresh_from_db()
        return state_from_data(self.fight.state)

    def settle(self, *screens: Screen) -> None:
        self.fight.refresh_from_db()
        version = str(self.fight.version)
        for screen in screens or tuple(self.screens):
            expect(
                screen.page.locator("#fight-main"), f"{screen.name} caught up"
            ).to_have_attribute("data-version", version, timeout=LIVE)

    def press(self, screen: Screen, button: Locator) -> None:
        """Make a move from ``screen`` once it is current; it must go through."""
        self.settle(screen)
        before = self.fight.version
        for _ in range(3):
            # A page still settling under load: look whether it went through, then again.
            with contextlib.suppress(PlaywrightTimeout):
                button.click(timeout=15_000)
            deadline = time.monotonic() + 8
            while time.monotonic() < deadline:
                self.fight.refresh_from_db()
                if self.fight.version > before:
                    return
                time.sleep(0.1)
            alert = screen.page.locator("#fight-main .alert")
            if alert.count():
                raise AssertionError(f"{screen.name}: refused: {alert.first.text_content()}")
        raise AssertionError(f"{screen.name}: the move never went through")

    def check(self, label: str) -> None:
        """R30 on every screen (caught up without a reload), then a screenshot of each."""
        self.settle()
        state = self.state()
        self.step += 1
        for screen in self.screens:
            mine = set() if screen.shared else screen.mine
            screen.may |= texts(engine.visible_cards(state, mine, dealer=screen.dealer))
            written = card_tokens(screen.page.content())
            where = f"step {self.step} ({label}), {screen.name}"
            assert written <= screen.may, f"{where} shows {sorted(written - screen.may)}"
            if state.phase == engine.Phase.COUNTDOWN and not screen.shared:
                own = {
                    card.text
                    for c in state.combatants
                    if c.cid in mine or (screen.dealer and c.kind != engine.CombatantKind.PC)
                    for card in c.hand
                }
                assert own <= written, f"{where} misses its own cards {sorted(own - written)}"
        slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
        for screen in self.screens:
            path = ARTIFACTS / f"fight-{self.step:02d}-{slug}-{screen.name}.png"
            screen.page.screenshot(path=str(path), full_page=True)


@pytest.fixture
def session(transactional_db: None, campaign: Any, dealer: User) -> Any:
    from campaigns.game_sessions import session_start

    return session_start(campaign=campaign, actor=dealer)


@pytest.fixture
def cast_cookies(
    transactional_db: None,
    dealer: User,
    player_a: User,
    player_b: User,
    pc_a: Any,
    pc_b: Any,
    npc: Any,
    session: Any,
    login_cookie: Callable[[User], dict[str, str]],
) -> dict[str, dict[str, str]]:
    return {u.username: login_cookie(u) for u in (dealer, player_a, player_b)}


@pytest.fixture
def people(
    cast_cookies: dict[str, dict[str, str]], chromium: Browser
) -> Iterator[dict[str, BrowserContext]]:
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


def button(scope: Page | Locator, name: str) -> Locator:
    return scope.get_by_role("button", name=name, exact=True).first


def test_a_whole_fight_live_on_four_screens_r30(
    app_url: str,
    campaign: Any,
    session: Any,
    pc_a: Any,
    pc_b: Any,
    npc: Any,
    people: dict[str, BrowserContext],
) -> None:
    abe, bess, crane, gang = cid_of(pc_a), cid_of(pc_b), cid_of(npc), "x1"
    desk = people["dealer"].new_page()

    # The Dealer starts the fight from the session page.
    desk.goto(f"{app_url}/c/{campaign.slug}/sessions/{session.number}/")
    desk.get_by_role("link", name="Start a fight").click()
    desk.locator("#id_title").fill("Shootout at the livery")
    desk.locator(f"input[name=take_{npc.pk}]").check()
    desk.locator("#id_extras").fill("3 Pinkertons 2d6")
    desk.screenshot(path=str(ARTIFACTS / "fight-00-start-form-dealer.png"), full_page=True)
    button(desk, "Start the fight").click()
    expect(desk).to_have_url(re.compile(r"/fights/\d+/$"))
    fight = Fight.objects.get(title="Shootout at the livery")
    url = app_url + fight.get_absolute_url()

    shared = people["dealer"].new_page()
    shared.goto(url + "table/")
    a = people["player_a"].new_page()
    a.goto(url)  # the only navigation: from here on every screen updates itself
    b = people["player_b"].new_page()
    b.goto(url)
    sd = Screen("dealer", desk, dealer=True)
    st = Screen("table", shared, shared=True)
    sa = Screen("player_a", a, mine={abe})
    sb = Screen("player_b", b, mine={bess})
    live = LiveFight(fight, [sd, st, sa, sb])
    expect(a.locator(".next-step")).to_contain_text("waiting for")
    live.check("the fight starts")

    phones = {abe: sa, bess: sb}

    def typed(screen: Screen, cid: str, total: int) -> None:
        scope = screen.page.locator(f'li[data-cid="{cid}"]') if screen.dealer else screen.page
        form = scope.locator("form.act--quickness").first
        live.settle(screen)
        form.locator("input[name=total]").fill(str(total))
        live.press(screen, button(form, "Use this total"))

    def play(cid: str, action: str, text: str = "") -> None:
        """The holder of the card up acts, sleeves or passes: from their phone, or the console."""
        screen = phones.get(cid, sd)
        live.settle(screen)
        scope = screen.page.locator(
            f'li[data-cid="{cid}"] [data-up]' if screen.dealer else "#fight-main [data-up]"
        )
        if action == "Act" and text:
            scope.locator("form.act--act input[name=text]").first.fill(text)
        live.press(screen, button(scope, action))

    def play_out(choose: Callable[[int, engine.Combatant], str]) -> None:
        n = 0
        while (current := engine.up(live.state())) is not None:
            c, card = current
            action = choose(n, c)
            if action == "Up the sleeve" and c.sleeve is not None:
                action = "Act"
            play(c.cid, action, f"{c.name} acts on the {card.text}")
            live.check(f"round {live.state().round} {c.name} {action}")
            n += 1

    # --- Round 1: typed totals (Abe 13 → 3 cards, R23), the red joker to Abe.
    typed(sa, abe, 13)
    expect(a.locator(".fight-quick")).to_contain_text("3 cards coming")
    typed(sb, bess, 7)
    typed(sd, crane, 8)
    typed(sd, gang, 5)
    live.check("round 1 Quickness is in")
    rig(fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    live.press(sd, button(desk, "Deal the round"))
    expect(b.locator(".fight-up")).to_contain_text("Your card is up", timeout=LIVE)
    expect(b).to_have_title(re.compile("Your card is up"), timeout=LIVE)
    expect(a.locator(".fight-mine")).to_contain_text("Play the red joker", timeout=LIVE)
    live.check("round 1 dealt")
    play(bess, "Up the sleeve")
    expect(shared.locator(f'li[data-cid="{bess}"]')).to_contain_text("a card up the sleeve")
    live.check("Bess sleeves")
    play(crane, "Act", "The Mayor fires at Abe")
    live.settle(sa)
    joker = a.locator("form.fight-act--out").filter(has=a.locator('input[value="RJ"]'))
    joker.locator("input[name=text]").fill("Abe shoots the Mayor's hat off")
    live.press(sa, button(joker, "Play the red joker"))
    expect(shared.locator(".fight-played")).to_contain_text("out of turn", timeout=LIVE)
    live.check("Abe plays the red joker")
    play_out(lambda n, c: ("Act", "Pass", "Act")[n % 3])
    live.press(sd, button(desk, "End round 1"))
    live.check("round 1 ends")

    # --- Between rounds the Dealer brings in two more Pinkertons (the engine's Join): from the
    # console to the join page and back; every other screen catches up without a reload.
    live.settle(sd)
    desk.get_by_role("link", name="Someone joins").click()
    expect(desk).to_have_url(re.compile(r"/fights/\d+/join/$"))
    desk.locator("#id_extras").fill("2 more Pinkertons 2d6")
    desk.screenshot(path=str(ARTIFACTS / "fight-join-form-dealer.png"), full_page=True)
    button(desk, "Join the fight").click()
    expect(desk).to_have_url(re.compile(r"/fights/\d+/$"))
    expect(shared.locator('li[data-cid="x2"]')).to_contain_text("2 more Pinkertons", timeout=LIVE)
    live.check("2 more Pinkertons join")

    # --- Round 2: the black joker to Bess: her sleeved K♥ goes with it (R25).
    typed(sa, abe, 5)
    typed(sb, bess, 13)
    typed(sd, crane, 5)
    typed(sd, gang, 9)
    typed(sd, "x2", 7)
    rig(fight, "A♥ 5♠ BJ 10♠ 8♣ 6♦ K♠ 2♦ 8♥ 3♣ 4♦")
    live.press(sd, button(desk, "Deal the round"))
    expect(shared.locator(".timeline")).to_contain_text("black joker", timeout=LIVE)
    expect(desk.locator(".fight-head .badge--road")).to_contain_text("Reshuffle after this round")
    live.check("round 2 dealt with the black joker")
    assert live.state().combatant(bess).sleeve is None
    play_out(lambda n, c: ("Act", "Up the sleeve", "Pass")[n % 3])
    live.press(sd, button(desk, "End round 2"))
    live.check("round 2 ends and the deck is reshuffled")

    # --- Round 3: Abe rolls with the app (each die shown); the deck as it comes.
    live.settle(sa)
    live.press(sa, a.get_by_role("button", name=re.compile(r"^Roll Quickness")))
    expect(a.locator(".fight-quick .die").first).to_be_visible(timeout=LIVE)
    typed(sb, bess, 10)
    typed(sd, crane, 15)
    typed(sd, gang, 5)
    typed(sd, "x2", 5)
    live.check("round 3 Quickness is in")
    live.press(sd, button(desk, "Deal the round"))
    live.check("round 3 dealt")
    play_out(lambda n, c: ("Act", "Pass")[n % 2])
    live.press(sd, button(desk, "End round 3"))
    desk.once("dialog", lambda dialog: dialog.accept())
    live.press(sd, button(desk, "End the fight"))
    for screen in (sa, sb, st):
        expect(screen.page.locator(".next-step")).to_contain_text("The fight is over", timeout=LIVE)
    live.check("the fight is over")
    assert live.state().phase == engine.Phase.OVER
    assert live.step > 20
