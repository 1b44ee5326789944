"""Nobody stranded (issue 18): the Dealer on a laptop and two players on phones (390×844) play a
conflict to the end; the Dealer deals again, and both phones land on the new hand by themselves
(no reload, no tap). On the way, each phone shows what matters first: the hand and what to do
now at the top, the result told plainly after the reveal. Screenshots of each screen go to
tests/e2e/artifacts/ (deal-again-*)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, expect

from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, pid_of
from tests.e2e.test_live_conflict import LIVE, LiveTable, Screen, button, cast_cookies, people

pytestmark = pytest.mark.e2e
__all__ = ["cast_cookies", "people"]


@pytest.fixture
def showdown(campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Conflict:
    return conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Showdown",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=3)],
    )


def test_it_takes_both_phones_to_the_next_hand_when_the_dealer_deals_again_R20(
    app_url: str,
    showdown: Conflict,
    pc_a: Any,
    pc_b: Any,
    people: dict[str, BrowserContext],
) -> None:
    conflict = showdown
    pa, pb = pid_of(pc_a), pid_of(pc_b)
    url = app_url + conflict.get_absolute_url()
    screens = []
    for who, mine in (("dealer", set()), ("player_a", {pa}), ("player_b", {pb})):
        page = people[who].new_page()
        page.goto(url)  # the only navigation a person makes in this test
        screens.append(Screen(who, page, people[who], mine=mine, dealer=who == "dealer"))
    live = LiveTable(conflict, screens, "deal-again")
    sd, sa, sb = screens
    dealer, a, b = (s.page for s in screens)
    expect(a).to_have_title(re.compile("Your turn"))  # propose your Deal
    live.check("set up")

    for pid in (pa, pb):
        live.settle(sd)
        dealer.locator(f"#seat-{pid} input[name=attributes][value=hand]").check()
        dealer.locator(f"#seat-{pid} input[name=attributes][value=eye]").check()
        live.press(sd, button(dealer, "Set the Deal", within=f"#seat-{pid}"))
    live.press(sd, button(dealer, "Deal"))
    for page in (a, b):
        expect(page.get_by_role("heading", name=re.compile("Your hand"))).to_be_visible(
            timeout=LIVE
        )
        expect(page).to_have_title(re.compile("Your turn"), timeout=LIVE)
        # What matters first: the cards and the Draw on the first screen of the phone.
        first = page.locator(".draw-form .pcard--pick").first
        assert first.bounding_box()["y"] < 844, "the hand starts below the first screen"  # type: ignore[index]
    live.check("the deal")

    live.press(sa, button(a, "Stand pat", within=f"#hand-{pa}"))
    expect(a).not_to_have_title(re.compile("Your turn"), timeout=LIVE)
    live.press(sb, button(b, "Stand pat", within=f"#hand-{pb}"))
    live.press(sd, button(dealer, "Call"))
    for page, pid in ((a, pa), (b, pb)):
        expect(page.get_by_role("heading", name=re.compile("The Call"))).to_be_visible(timeout=LIVE)
        lay = page.locator(f"#hand-{pid} .lay-options button").first
        assert lay.bounding_box()["y"] < 844, "the lay choices start below the first screen"  # type: ignore[index]
    live.check("the call")
    live.press(sd, button(dealer, "Reveal"))
    for page, pid in ((a, pa), (b, pb)):
        expect(page.locator(f"#result-{pid} .result__line").first).to_contain_text(
            re.compile("You won|Your side won|You lost"), timeout=LIVE
        )
        box = page.locator(f"#result-{pid}").bounding_box()
        assert box is not None
        assert box["y"] < 844, "the result starts below the phone's first screen"
    live.check("the reveal")

    if not live.state().bids_closed:
        live.press(sd, button(dealer, "Close the bids"))
    for screen in (sd, sa, sb):
        while True:
            live.settle(screen)
            take = screen.page.get_by_role("button", name="Take the Difficulty", exact=True)
            if not take.count():
                break
            live.press(screen, take.first)
    live.press(sd, button(dealer, "Finish"))
    for screen in screens:
        expect(screen.page.locator(".badge--phase")).to_have_text("Over", timeout=LIVE)
    live.check("finished")
    assert live.state().phase == engine.Phase.DONE

    # The Dealer deals again: every screen moves to the new hand by itself.
    button(dealer, "Deal again").click()
    fresh = None
    for page in (dealer, a, b):
        expect(page).to_have_url(re.compile(r"/conflicts/(\d+)/$"), timeout=LIVE)
        expect(page.locator(".conflict-head__title")).to_have_text(
            "Showdown — hand 2", timeout=LIVE
        )
    fresh = Conflict.objects.get(previous=conflict)
    for page in (dealer, a, b):
        assert page.url == app_url + fresh.get_absolute_url()
    for page in (a, b):
        expect(page.get_by_role("heading", name="Your Deal")).to_be_visible()
    next_hand = LiveTable(fresh, screens, "deal-again-hand-2")
    next_hand.check("next hand")
