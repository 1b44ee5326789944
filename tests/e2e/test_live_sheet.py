"""A character sheet follows the table live, in a real browser: the player keeps their sheet
open on a phone while the Dealer, on a laptop, grants chips and a conflict takes Difficulty —
the sheet's chips and attributes change without a reload (characters:stream, "changed")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from characters.services import chips_grant
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390

pytestmark = pytest.mark.e2e

LIVE = 20_000  # ms


def test_it_updates_an_open_sheet_when_the_dealer_grants_chips(
    app_url: str,
    transactional_db: None,
    dealer: User,
    player_a: User,
    pc_a: Any,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    chips_grant(character_id=pc_a.pk, amount=1, actor=None, note="Starting chips")
    pc_a.refresh_from_db()
    before = pc_a.chips
    sheet_url = f"{app_url}/c/{pc_a.campaign.slug}/characters/{pc_a.pk}/"
    phone = chromium.new_context(viewport=PHONE_390)
    laptop = chromium.new_context(viewport=DESKTOP)
    try:
        phone.add_cookies([login_cookie(player_a)])  # type: ignore[list-item]
        laptop.add_cookies([login_cookie(dealer)])  # type: ignore[list-item]
        sheet = phone.new_page()
        sheet.goto(sheet_url)
        current = sheet.locator("#live-chips .chip-totals__current dd")
        expect(current).to_have_text(str(before))
        # The stream is open before the Dealer acts (the live pill is not on sheets: wait for
        # the EventSource the page opened to be connected).
        sheet.wait_for_function(
            "() => document.querySelector('[sse-connect]')"
            " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource"
            " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource.readyState === 1",
            timeout=LIVE,
        )

        chips = laptop.new_page()
        chips.goto(f"{sheet_url}chips/")
        chips.fill("#grant-amount", "3")
        chips.get_by_role("button", name="Grant").click()
        expect(chips.locator("#chips-body")).to_contain_text(str(before + 3))

        # The phone never reloads: the sheet's chips section fetched itself again.
        expect(current).to_have_text(str(before + 3), timeout=LIVE)
        expect(sheet.locator("#live-chips")).to_contain_text("Chips earned")
        sheet.screenshot(path=str(ARTIFACTS / "sheet-live-chips-phone.png"), full_page=True)
    finally:
        phone.close()
        laptop.close()
