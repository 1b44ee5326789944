"""Issue 26, "No tap is lost", in real browsers: two players' phones (390×844) tap "Stand pat"
within 50 ms of each other, at the moment the table says everybody draws. Both draws apply,
once each, and neither phone is told the table moved on."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from campaigns.models import Membership
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of
from tests.e2e.test_live_conflict import LIVE, button, cast_cookies, people

pytestmark = pytest.mark.e2e
__all__ = ["cast_cookies", "people"]


@pytest.fixture
def drawing(campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Conflict:
    """Abe and Bess against a 3-card stud, sized and dealt: everybody draws now."""
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Both at once",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=3)],
    )  # fmt: skip
    boss = Membership.objects.get(user=dealer, campaign=campaign)
    for pc in (pc_a, pc_b):
        conflict_move(conflict_id=conflict.pk, membership=boss, version=None,
                      move=engine.Approve(pid_of(pc), ("hand", "eye")))  # fmt: skip
    conflict_move(conflict_id=conflict.pk, membership=boss, version=None, move=engine.Deal(""))
    conflict.refresh_from_db()
    return conflict


def tap_at(page: Page, selector: str, at_ms: float) -> None:
    """Arm a tap on ``selector`` for the wall-clock instant ``at_ms`` (both phones share this
    machine's clock), without waiting for it."""
    page.evaluate(
        """([selector, at]) => {
            const target = document.querySelector(selector);
            window.__tapped = null;
            setTimeout(() => { window.__tapped = Date.now(); target.click(); },
                       Math.max(0, at - Date.now()));
        }""",
        [selector, at_ms],
    )


def test_two_phones_tapping_within_50_ms_both_draw(
    app_url: str, drawing: Conflict, pc_a: Any, pc_b: Any,
    people: dict[str, BrowserContext],
) -> None:  # fmt: skip
    conflict = drawing
    url = app_url + conflict.get_absolute_url()
    phones = {}
    for who, pc in (("player_a", pc_a), ("player_b", pc_b)):
        page = people[who].new_page()
        page.goto(url)
        stand = button(page, "Stand pat", within=f"#hand-{pid_of(pc)}")
        expect(stand).to_be_visible(timeout=LIVE)
        phones[who] = (page, pid_of(pc))
    selector = 'button[name="stand"]'
    at = time.time() * 1000 + 800
    for page, _ in phones.values():
        tap_at(page, selector, at)
    for page, _ in phones.values():
        page.wait_for_function("() => window.__tapped !== null", timeout=LIVE)
    taps = [page.evaluate("() => window.__tapped") for page, _ in phones.values()]
    assert abs(taps[0] - taps[1]) <= 50, taps

    def both_drew() -> bool:
        conflict.refresh_from_db()
        from conflicts.engine.serial import state_from_data

        state = state_from_data(conflict.state)
        return all(state.participant(pid).drew for _, pid in phones.values())

    deadline = time.monotonic() + LIVE / 1000
    while not both_drew() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert both_drew()
    for page, _ in phones.values():
        expect(page.locator("#conflict-main")).not_to_contain_text("moved on", timeout=LIVE)
