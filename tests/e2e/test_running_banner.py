"""“In play now” is live on every page, in a real browser (issue 26 #4): a player waits on the
conflict's page on a phone; the Dealer, on a laptop, turns the conflict into a gunfight; the
fight appears in the player's ribbon within a second or two, without a reload (the person's
own stream, campaigns:running_stream, then the ribbon's own GET), and the conflict's screen
says it turned into a gunfight."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from campaigns.game_sessions import session_start
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390

pytestmark = pytest.mark.e2e

LIVE = 5_000  # ms: "within a second or so", with room for a slow machine


def test_a_gunfight_replaces_the_conflict_in_an_open_pages_ribbon(
    app_url: str, transactional_db: None, campaign: Any, dealer: User, player_a: User,
    pc_a: Any, npc: Any, login_cookie: Callable[[User], dict[str, str]], chromium: Browser,
) -> None:  # fmt: skip
    session = session_start(campaign=campaign, actor=dealer)
    standoff = conflict_create(
        campaign=campaign, actor=dealer, title="Standoff at the bank", session=session,
        hands=[HandSpec(character=pc_a), HandSpec(character=npc)],
    )  # fmt: skip
    phone = chromium.new_context(viewport=PHONE_390)
    laptop = chromium.new_context(viewport=DESKTOP)
    try:
        phone.add_cookies([login_cookie(player_a)])  # type: ignore[list-item]
        laptop.add_cookies([login_cookie(dealer)])  # type: ignore[list-item]
        abe = phone.new_page()
        # On the conflict's own page (its own stream open too): the ribbon lists the others.
        conflict_path = standoff.get_absolute_url()
        abe.goto(f"{app_url}{conflict_path}")
        ribbon = abe.locator("#running-ribbon")
        expect(ribbon.locator("a")).to_have_count(0)
        abe.wait_for_function(
            "() => document.documentElement.getAttribute('data-running') === 'live'",
            timeout=LIVE,
        )

        delia = laptop.new_page()
        delia.goto(f"{app_url}/c/{campaign.slug}/fights/new/?conflict={standoff.pk}")
        delia.get_by_role("button", name="Start the fight").click()
        delia.wait_for_url("**/fights/*/")
        fight_path = delia.url.removeprefix(app_url)

        # The phone never reloads: its ribbon fetched itself again on the stream's nudge.
        expect(ribbon.locator(f'a[href="{fight_path}"]')).to_be_visible(timeout=LIVE)
        expect(ribbon.locator("a")).to_have_count(1)
        expect(abe.locator("#conflict-main")).to_contain_text("a gunfight", timeout=LIVE)
        abe.screenshot(path=str(ARTIFACTS / "running-banner-gunfight-phone.png"))
        standoff.refresh_from_db()
        assert standoff.phase == Conflict.Phase.CANCELLED
    finally:
        phone.close()
        laptop.close()
