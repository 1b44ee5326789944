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


def _connected(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('[sse-connect]')"
        " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource"
        " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource.readyState === 1",
        timeout=LIVE,
    )


def test_the_dealers_approval_and_a_grant_reach_the_players_open_sheet_and_chips_page(
    app_url: str,
    transactional_db: None,
    dealer: User,
    player_a: User,
    pc_a: Any,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    """Issue 27: the Dealer's approval was not live on the player's open sheet, nor were the
    chips page's totals and ledger."""
    from characters.models import Character

    Character.objects.filter(pk=pc_a.pk).update(approved=False)
    base = f"{app_url}/c/{pc_a.campaign.slug}/characters/{pc_a.pk}/"
    phone = chromium.new_context(viewport=PHONE_390)
    phone_chips = chromium.new_context(viewport=PHONE_390)
    laptop = chromium.new_context(viewport=DESKTOP)
    try:
        for context, who in ((phone, player_a), (phone_chips, player_a), (laptop, dealer)):
            context.add_cookies([login_cookie(who)])  # type: ignore[list-item]
        sheet = phone.new_page()
        sheet.goto(base)
        expect(sheet.locator("#live-standing")).to_contain_text("Waiting for the Dealer")
        _connected(sheet)
        ledger = phone_chips.new_page()
        ledger.goto(f"{base}chips/")
        _connected(ledger)
        before = ledger.locator("#live-chip-totals .chip-totals__current dd").inner_text()

        dealer_sheet = laptop.new_page()
        dealer_sheet.goto(base)
        dealer_sheet.get_by_role("button", name=f"Approve {pc_a.name}").click()
        expect(sheet.locator("#live-standing")).not_to_contain_text(
            "Waiting for the Dealer", timeout=LIVE
        )

        grant = laptop.new_page()
        grant.goto(f"{base}chips/")
        grant.fill("#grant-amount", "2")
        grant.get_by_role("button", name="Grant").click()
        expect(ledger.locator("#live-chip-totals .chip-totals__current dd")).to_have_text(
            str(int(before) + 2), timeout=LIVE
        )
        expect(ledger.locator("#live-ledger tbody tr")).not_to_have_count(0)
    finally:
        phone.close()
        phone_chips.close()
        laptop.close()
