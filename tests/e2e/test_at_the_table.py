"""At the table (issue 18), in a real browser: a player's phone on the campaign page follows
play live — the session started, chips granted, a conflict set up — and the running conflict is
one tap away; the phone header keeps "Tables", the Dealer's tabs fit 390 px and the live pill
never covers a conflict's heading. Keeps a screenshot of each screen this work changed in
tests/e2e/artifacts/ (phone 390×844, some at 1280×800)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from characters.models import Character
from conflicts.services import HandSpec, conflict_create
from tests.e2e.conftest import ARTIFACTS, DESKTOP, PHONE_390

pytestmark = pytest.mark.e2e

LIVE = 20_000  # ms
CONNECTED = (
    "() => document.querySelector('[sse-connect]')"
    " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource"
    " && htmx.find('[sse-connect]')['htmx-internal-data'].sseEventSource.readyState === 1"
)


def shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_the_campaign_page_follows_play_and_leads_to_the_running_conflict(
    app_url: str,
    transactional_db: None,
    campaign: Any,
    dealer: User,
    player_a: User,
    pc_a: Any,
    pc_b: Any,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    phone = chromium.new_context(viewport=PHONE_390, is_mobile=True, has_touch=True)
    laptop = chromium.new_context(viewport=DESKTOP)
    try:
        phone.add_cookies([login_cookie(player_a)])  # type: ignore[list-item]
        laptop.add_cookies([login_cookie(dealer)])  # type: ignore[list-item]
        page = phone.new_page()
        page.goto(f"{app_url}/c/{campaign.slug}/")
        page.wait_for_function(CONNECTED, timeout=LIVE)
        expect(page.locator("#running")).not_to_contain_text("In play now")
        # The phone header keeps the way back to every table.
        expect(page.locator(".topbar").get_by_role("link", name="Tables")).to_be_visible()

        desk = laptop.new_page()
        desk.goto(f"{app_url}/c/{campaign.slug}/")
        # The Dealer starts the session: the phone's list says so, without a reload.
        desk.get_by_role("button", name="Start the next session").click()
        expect(page.locator("#sessions-list")).to_contain_text("Being played", timeout=LIVE)

        # Chips granted on the laptop: Abe's chip count on the phone follows.
        desk.goto(f"{app_url}/c/{campaign.slug}/characters/{pc_a.pk}/chips/")
        desk.fill("#grant-amount", "4")
        desk.get_by_role("button", name="Grant").click()
        pc_a.refresh_from_db()
        abe = page.locator("#pcs .card", has_text="Abe Slade")
        expect(abe.locator(".chips__count")).to_have_text(str(pc_a.chips), timeout=LIVE)

        # The Dealer sets up a conflict: "In play now" appears on the phone, one tap away.
        desk.goto(f"{app_url}/c/{campaign.slug}/conflicts/new/")
        desk.locator("#id_title").fill("Showdown at the Gallows")
        desk.get_by_role("button", name="Set up the conflict").click()
        expect(desk).to_have_url(re.compile(r"/conflicts/\d+/$"))
        join = page.locator("#running").get_by_role("link", name=re.compile("Showdown"))
        expect(join).to_be_visible(timeout=LIVE)
        shot(page, "campaign-running-phone")
        desk.goto(f"{app_url}/c/{campaign.slug}/characters/")
        expect(desk.locator("#running-ribbon")).to_contain_text("Showdown at the Gallows")
        shot(desk, "ribbon-desktop")
        join.click()
        expect(page).to_have_url(re.compile(r"/conflicts/\d+/$"))
        expect(page.get_by_role("heading", level=1)).to_have_text("Showdown at the Gallows")
    finally:
        phone.close()
        laptop.close()


def _no_overlap(page: Page, above: str, text: str) -> None:
    """No line of ``text``'s words lies under the ``above`` element (a block's own box may;
    what matters is that no word is covered)."""
    covered = page.evaluate(
        """([above, text]) => {
            const a = document.querySelector(above).getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(document.querySelector(text));
            return [...range.getClientRects()].filter(r =>
                r.width > 0 && r.left < a.right - 0.5 && a.left < r.right - 0.5
                && r.top < a.bottom - 0.5 && a.top < r.bottom - 0.5
            ).map(r => [r.left, r.top, r.width, r.height]);
        }""",
        [above, text],
    )
    assert covered == [], covered


def test_the_screens_this_work_changed_fit_a_phone(
    app_url: str,
    transactional_db: None,
    campaign: Any,
    dealer: User,
    player_a: User,
    pc_a: Any,
    pc_b: Any,
    npc: Any,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    from campaigns.game_sessions import session_start

    Character.objects.filter(pk=npc.pk).update(secrets="Paid the lynch mob in gold.")
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="A very long title for the showdown at the gallows",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
        session=session_start(campaign=campaign, actor=dealer),
    )  # fmt: skip
    slug = campaign.slug
    contexts = []
    try:
        for who, viewport in (("player", PHONE_390), ("dealer", PHONE_390), ("desk", DESKTOP)):
            context = chromium.new_context(viewport=viewport)
            user = player_a if who == "player" else dealer
            context.add_cookies([login_cookie(user)])  # type: ignore[list-item]
            contexts.append(context)
        player, dealer_phone, desk = (c.new_page() for c in contexts)

        def fits(page: Page, name: str) -> None:
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], (name, width)  # type: ignore[index]
            shot(page, name)

        # The Dealer's four tabs fit 390 px, nothing cut off.
        dealer_phone.goto(f"{app_url}/c/{slug}/")
        tabs = dealer_phone.locator(".tabs")
        assert tabs.evaluate("t => t.scrollWidth <= t.clientWidth")
        last = dealer_phone.get_by_role("link", name="Invitations").bounding_box()
        assert last is not None
        assert last["x"] + last["width"] <= 390 - 16  # inside the page's margin
        fits(dealer_phone, "campaign-dealer-phone")

        # The live pill sits beside the heading, never over it (a long title wraps).
        player.goto(f"{app_url}/c/{slug}/conflicts/{conflict.pk}/")
        pill = player.locator("[data-live-status]")
        expect(pill).to_be_visible(timeout=LIVE)
        _no_overlap(player, "[data-live-status]", ".conflict-head__title")
        _no_overlap(player, "[data-live-status]", ".conflict-head .eyebrow")
        fits(player, "conflict-player-phone")
        # The Dealer's console on a small phone: the longest eyebrow ("Dealer's console ·
        # Session 1") beside the pill.
        dealer_phone.set_viewport_size({"width": 360, "height": 780})
        dealer_phone.goto(f"{app_url}/c/{slug}/conflicts/{conflict.pk}/")
        expect(dealer_phone.locator("[data-live-status]")).to_be_visible(timeout=LIVE)
        _no_overlap(dealer_phone, "[data-live-status]", ".conflict-head__title")
        _no_overlap(dealer_phone, "[data-live-status]", ".conflict-head .eyebrow")
        dealer_phone.set_viewport_size(PHONE_390)

        player.goto(f"{app_url}/c/{slug}/characters/{pc_a.pk}/chips/")
        expect(player.get_by_text("Between conflicts")).to_be_visible()
        fits(player, "chips-player-phone")

        player.goto(f"{app_url}/c/{slug}/characters/{pc_a.pk}/edit/")
        expect(player.locator("#id_hand")).to_have_attribute("readonly", "")
        # Issue 27: once approved, the traits are locked like the ratings (a trait is +1 card, R11).
        expect(player.locator("#id_trait_1")).to_have_attribute("readonly", "")
        player.locator("#id_trait_1").scroll_into_view_if_needed()
        fits(player, "sheet-form-locked-player-phone")

        player.goto(f"{app_url}/rulings/")
        fits(player, "rulings-phone")

        dealer_phone.goto(f"{app_url}/c/{slug}/characters/{npc.pk}/")
        expect(dealer_phone.get_by_text("Paid the lynch mob in gold.")).to_be_visible()
        dealer_phone.locator("#h-secrets").scroll_into_view_if_needed()
        fits(dealer_phone, "npc-sheet-secrets-dealer-phone")

        dealer_phone.goto(f"{app_url}/c/{slug}/characters/new/npc/")
        dealer_phone.locator("#id_secrets").scroll_into_view_if_needed()
        fits(dealer_phone, "npc-form-secrets-dealer-phone")

        desk.goto(f"{app_url}/c/{slug}/")
        fits(desk, "campaign-dealer-desktop")

        player.goto(f"{app_url}/c/{slug}/sessions/1/")
        player.wait_for_function(CONNECTED, timeout=LIVE)
        fits(player, "session-player-phone")
    finally:
        for context in contexts:
            context.close()


def test_a_players_new_character_waits_on_the_campaign_page(
    app_url: str,
    transactional_db: None,
    campaign: Any,
    dealer: User,
    player_b: User,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    from characters.services import character_create
    from tests.conftest import _legal_pc

    data, knacks = _legal_pc("Cole Brody")
    cole = character_create(
        campaign=campaign, kind="pc", player=player_b, data=data, knacks=knacks, approved=False
    )
    phone = chromium.new_context(viewport=PHONE_390)
    try:
        phone.add_cookies([login_cookie(dealer)])  # type: ignore[list-item]
        page = phone.new_page()
        page.goto(f"{app_url}/c/{campaign.slug}/#pcs")
        card = page.locator("#pcs .card", has_text="Cole Brody")
        expect(card).to_contain_text("Waiting for the Dealer")
        card.scroll_into_view_if_needed()
        shot(page, "campaign-approve-dealer-phone")
        card.get_by_role("button", name="Approve Cole Brody").click()
        expect(page.locator("#pcs .card", has_text="Cole Brody")).not_to_contain_text("Waiting")
        cole.refresh_from_db()
        assert cole.approved
    finally:
        phone.close()
