"""The closing screens of issue 18 in a real browser, on a phone (390×844) and a laptop
(1280×800): the Dealer cancels a conflict before the Deal, ends a session with a conflict still in
play (asked what to do with it), and the narrator writes the narration down — each without
JavaScript's help needed, each screenshot kept in tests/e2e/artifacts/ (closing-*)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from campaigns.game_sessions import session_start
from campaigns.models import Membership
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390

pytestmark = pytest.mark.e2e


def _shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"closing-{name}.png"), full_page=True)


@pytest.fixture
def tables(transactional_db: None, campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Any:
    """A session in play with a conflict set up by mistake, and one at its narration."""
    session = session_start(campaign=campaign, actor=dealer)
    mistake = conflict_create(
        campaign=campaign, actor=dealer, title="Wrong posse", session=session,
        hands=[HandSpec(character=pc_a), HandSpec(stud_size=3)],
    )  # fmt: skip
    told = conflict_create(
        campaign=campaign, actor=dealer, title="Dust at the well",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=3)],
    )  # fmt: skip
    seat = {u.pk: Membership.objects.get(campaign=campaign, user=u) for u in (dealer,)}
    for pc in (pc_a, pc_b):
        move = engine.Approve(pid_of(pc), ("hand", "eye"))
        conflict_move(conflict_id=told.pk, membership=seat[dealer.pk], move=move, version=None)
    for move in (engine.Deal(""), engine.Call(now=True), engine.Reveal()):
        conflict_move(conflict_id=told.pk, membership=seat[dealer.pk], move=move, version=None)
    told.refresh_from_db()
    if not state_from_data(told.state).bids_closed:
        move = engine.CloseBids(held={})
        conflict_move(conflict_id=told.pk, membership=seat[dealer.pk], move=move, version=None)
    return session, mistake, told


def test_it_closes_cleanly_on_a_phone_and_a_laptop(
    app_url: str,
    tables: Any,
    campaign: Any,
    dealer: User,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    session, mistake, told = tables
    cookie = login_cookie(dealer)
    for size, viewport in (("phone", PHONE_390), ("laptop", DESKTOP)):
        context = chromium.new_context(viewport=viewport, device_scale_factor=1)
        context.add_cookies([cookie])  # type: ignore[list-item]
        page = context.new_page()

        # The session's end asks about the conflict in play.
        page.goto(f"{app_url}/c/{campaign.slug}/sessions/{session.number}/")
        page.locator("summary", has_text="End the session").click()
        expect(page.locator(".in-play")).to_contain_text("Still in play: Wrong posse")
        _shoot(page, f"{size}-session-end-asks")

        # The narration form after the bids close (the Dealer may write it down).
        page.goto(app_url + told.get_absolute_url())
        expect(page.locator(".narrate-form")).to_be_visible()
        _shoot(page, f"{size}-narration-form")

        # The console at set-up offers to cancel.
        page.goto(app_url + mistake.get_absolute_url())
        expect(page.get_by_role("button", name="Cancel the conflict")).to_be_visible()
        _shoot(page, f"{size}-cancel-offered")
        context.close()

    # The laptop cancels it and writes the narration down; the phone ends the session.
    context = chromium.new_context(viewport=DESKTOP, device_scale_factor=1)
    context.add_cookies([cookie])  # type: ignore[list-item]
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(app_url + mistake.get_absolute_url())
    page.get_by_role("button", name="Cancel the conflict").click()
    expect(page.locator(".badge--phase")).to_have_text("Cancelled before the Deal")
    expect(page.locator(".timeline")).to_contain_text("cancels the conflict before the Deal")
    _shoot(page, "laptop-cancelled")
    page.goto(app_url + told.get_absolute_url())
    page.locator("#narrate-text").fill("The well caves in; Abe climbs out with the map.")
    page.get_by_role("button", name="Put it on the timeline").click()
    expect(page.locator(".timeline")).to_contain_text(re.compile(r"Narration \(.+\): The well"))
    _shoot(page, "laptop-narration-written")
    context.close()
    assert Conflict.objects.get(pk=mistake.pk).phase == Conflict.Phase.CANCELLED
