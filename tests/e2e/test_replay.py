"""The replay in a real browser (issue 18): a finished conflict stepped through on a phone
(390×844) with Next, Previous and the slider, and on a laptop (1280×800); each step shows
every hand (the conflict is over, R10) and never the deck. Screenshots go to
tests/e2e/artifacts/ (replay-*)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from campaigns.models import Membership
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict, Snapshot
from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of
from tests.conflicts.test_views import card_tokens, texts
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390

pytestmark = pytest.mark.e2e


@pytest.fixture
def finished(transactional_db: None, campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Conflict:
    """A conflict played to the end through the services (this test is about the replay)."""
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Shootout at the mill",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip
    seats = {
        u.pk: Membership.objects.get(campaign=campaign, user=u)
        for u in (dealer, pc_a.player, pc_b.player)
    }

    def move(user: User, m: engine.Move) -> None:
        conflict_move(conflict_id=conflict.pk, membership=seats[user.pk], move=m, version=None)

    for pc in (pc_a, pc_b):
        move(dealer, engine.Approve(pid_of(pc), ("hand", "eye")))
    move(dealer, engine.Deal(""))
    move(dealer, engine.ApproveKnack(pid_of(pc_a), "Shootin'", 4))
    conflict.refresh_from_db()
    hand = state_from_data(conflict.state).participant(pid_of(pc_a)).hand
    move(pc_a.player, engine.Draw(pid_of(pc_a), hand[:2]))
    move(pc_b.player, engine.Draw(pid_of(pc_b), ()))
    move(dealer, engine.Call())
    move(dealer, engine.Reveal())
    conflict.refresh_from_db()
    state = state_from_data(conflict.state)
    if not state.bids_closed:
        move(dealer, engine.CloseBids(held={}))
    for o in state.owed:
        p = state.participant(o.pid)
        who = pc_a.player if o.pid == pid_of(pc_a) else pc_b.player
        if o.pid not in (pid_of(pc_a), pid_of(pc_b)):
            who = dealer
        move(who, engine.Allocate(o.pid, engine.default_allocation(o, p.currents)))
    move(dealer, engine.Finish())
    conflict.refresh_from_db()
    assert conflict.phase == Conflict.Phase.DONE
    return conflict


def test_it_steps_through_a_replay_on_a_phone_and_a_laptop_R10(
    app_url: str,
    finished: Conflict,
    player_a: User,
    pc_a: Any,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    cookie = login_cookie(player_a)
    snapshots = list(Snapshot.objects.filter(conflict=finished).order_by("version"))
    states = [state_from_data(s.state) for s in snapshots]
    url = app_url + finished.get_absolute_url()

    for size, viewport in (("phone", PHONE_390), ("laptop", DESKTOP)):
        context = chromium.new_context(viewport=viewport, device_scale_factor=1)
        context.add_cookies([cookie])  # type: ignore[list-item]
        page = context.new_page()
        page.goto(url)
        page.get_by_role("link", name="Replay, move by move").click()
        expect(page.locator(".replay__where")).to_contain_text(f"Step 1 of {len(snapshots)}")
        page.screenshot(path=str(ARTIFACTS / f"replay-{size}-01-set-up.png"), full_page=True)
        for number in range(2, len(snapshots) + 1):
            page.get_by_role("link", name=re.compile("Next")).click()
            expect(page.locator(".replay__where")).to_contain_text(f"Step {number} of")
            state = states[number - 1]
            in_hands = {c.text for p in state.participants for c in (*p.hand, *p.discarded)}
            written = card_tokens(page.content())
            assert written == in_hands, f"step {number}: {sorted(written ^ in_hands)}"
            may = texts(engine.visible_cards(state, {pid_of(pc_a)}, dealer=False, ended=True))
            assert written <= may
            if state.phase == engine.Phase.DRAW and states[number - 2].phase != state.phase:
                page.screenshot(
                    path=str(ARTIFACTS / f"replay-{size}-02-the-deal.png"), full_page=True
                )
        page.screenshot(path=str(ARTIFACTS / f"replay-{size}-03-the-end.png"), full_page=True)
        expect(page.locator("[data-replay-next]")).to_have_count(0)
        page.get_by_role("link", name=re.compile("Previous")).click()
        expect(page.locator(".replay__where")).to_contain_text(f"Step {len(snapshots) - 1} of")
        # The slider: sliding to the first step goes there.
        slider = page.locator("input[type=range][name=step]")
        slider.fill("2")
        slider.dispatch_event("change")
        expect(page.locator(".replay__where")).to_contain_text("Step 2 of")
        assert page.url.endswith("?step=2")
        context.close()


def test_the_replay_takes_the_narration_written_after_the_end_live(
    app_url: str,
    finished: Conflict,
    dealer: User,
    player_a: User,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    """Issue 27: the replay page was not live. A finished hand still takes its narration until
    it is dealt again; the replay open on a phone shows it at the last step, without a reload
    (the Dealer writes it down on a laptop)."""
    context = chromium.new_context(viewport=PHONE_390, device_scale_factor=1)
    context.add_cookies([login_cookie(player_a)])  # type: ignore[list-item]
    laptop = chromium.new_context(viewport=DESKTOP, device_scale_factor=1)
    laptop.add_cookies([login_cookie(dealer)])  # type: ignore[list-item]
    try:
        page = context.new_page()
        page.goto(app_url + finished.get_absolute_url() + "replay/")
        expect(page.locator(".replay__where")).to_contain_text("Step ")
        page.wait_for_function(
            "() => document.querySelector('[sse-connect]')"
            " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource"
            " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource.readyState === 1",
            timeout=20_000,
        )
        console = laptop.new_page()
        console.goto(app_url + finished.get_absolute_url())
        console.fill("#narrate-text", "The mill burned till dawn.")
        console.get_by_role("button", name="Put it on the timeline").click()
        expect(page.locator(".replay__label")).to_contain_text(
            "The mill burned till dawn.", timeout=20_000
        )
    finally:
        context.close()
        laptop.close()


def test_a_panel_swap_never_copies_a_style_attribute_under_the_csp(
    app_url: str,
    finished: Conflict,
    dealer: User,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    """Issue 27: CSP "inline style" errors at panel swaps. A tool that touches an input's style
    (Playwright's screenshots hide the caret and leave style="") left the attribute behind, and
    htmx's settle copied it onto the swapped-in element, which the CSP refuses. The app settles
    class, width and height only (base.html's htmx-config): it never uses an inline style."""
    context = chromium.new_context(viewport=DESKTOP, device_scale_factor=1)
    context.add_cookies([login_cookie(dealer)])  # type: ignore[list-item]
    try:
        console = context.new_page()
        console.add_init_script(
            "window.__csp = [];"
            "document.addEventListener('securitypolicyviolation',"
            " function (e) { window.__csp.push(e.violatedDirective); });"
        )
        console.goto(app_url + finished.get_absolute_url())
        console.wait_for_function(
            "() => document.querySelector('[sse-connect]')"
            " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource"
            " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource.readyState === 1",
            timeout=20_000,
        )
        console.eval_on_selector("#narrate-text", "el => el.setAttribute('style', '')")
        console.wait_for_timeout(100)
        console.evaluate("window.__csp = []")  # setting it here is itself refused: not counted
        other = context.new_page()
        other.goto(app_url + finished.get_absolute_url())
        other.fill("#narrate-text", "Smoke over the mill.")
        other.get_by_role("button", name="Put it on the timeline").click()
        expect(console.locator(".timeline")).to_contain_text("Smoke over the mill.", timeout=20_000)
        console.wait_for_timeout(300)  # the settle runs 20 ms after the swap
        assert console.evaluate("window.__csp") == []
    finally:
        context.close()
