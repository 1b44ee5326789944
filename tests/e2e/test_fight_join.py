"""A conflict turns into a gunfight and someone joins it mid-fight, in real browsers (issue 17):
the Dealer on a laptop (1280×800), the two players on phones (390×844). The Dealer presses
"This turns into a gunfight" on the conflict's console, starts the fight with the conflict's
characters ticked, deals round 1 and, mid-countdown, brings Bess and two more Pinkertons in from
the console. Every screen catches up without a reload and shows only the cards its viewer may
see (R30). Screenshots (laptop and phone) of the changed screens go to tests/e2e/artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, expect

from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create
from fights.engine import action_deck as engine
from fights.models import Fight
from fights.services import cid_of
from tests.e2e.conftest import ARTIFACTS, PHONE_390
from tests.e2e.test_live_conflict import open_context
from tests.e2e.test_live_fight import (  # noqa: F401 (fixtures)
    LIVE,
    LiveFight,
    Screen,
    button,
    cast_cookies,
    people,
    session,
)
from tests.fights.conftest import rig

pytestmark = pytest.mark.e2e


@pytest.fixture
def standoff(
    session: Any,  # noqa: F811
    campaign: Any,
    dealer: User,
    pc_a: Any,
    npc: Any,
) -> Conflict:
    hands = [
        HandSpec(character=pc_a, goal="Get the deed"),
        HandSpec(character=npc, goal="Keep it"),
        HandSpec(stud_size=3, goal="The hired guns"),
    ]
    return conflict_create(
        campaign=campaign, actor=dealer, title="Standoff at the bank", session=session, hands=hands
    )


def test_a_conflict_turns_into_a_gunfight_and_bess_joins_mid_countdown_r30(
    app_url: str,
    campaign: Any,
    standoff: Conflict,
    pc_a: Any,
    pc_b: Any,
    npc: Any,
    people: dict[str, BrowserContext],  # noqa: F811
    cast_cookies: dict[str, dict[str, str]],  # noqa: F811
    chromium: Browser,
) -> None:
    abe, bess, crane = cid_of(pc_a), cid_of(pc_b), cid_of(npc)
    desk = people["dealer"].new_page()
    pocket = open_context(chromium, cast_cookies["dealer"], PHONE_390).new_page()  # Dealer's phone

    def shoot(name: str, url: str | None = None) -> None:
        desk.screenshot(path=str(ARTIFACTS / f"join-{name}-laptop.png"), full_page=True)
        pocket.goto(url or desk.url)
        pocket.screenshot(path=str(ARTIFACTS / f"join-{name}-phone.png"), full_page=True)

    # The conflict's console: "This turns into a gunfight".
    desk.goto(app_url + standoff.get_absolute_url())
    shoot("00-conflict-console")
    desk.get_by_role("link", name="This turns into a gunfight").click()
    expect(desk.locator(f"input[name=take_{npc.pk}]")).to_be_checked()
    expect(desk.locator(f"input[name=take_{pc_b.pk}]")).not_to_be_checked()
    desk.locator("#id_extras").fill("3 hired guns 2d6")
    shoot("01-start-form")
    button(desk, "Start the fight").click()
    expect(desk).to_have_url(re.compile(r"/fights/\d+/$"))
    fight = Fight.objects.get(from_conflict=standoff)
    url = app_url + fight.get_absolute_url()
    expect(desk.locator(".fight-head")).to_contain_text("broke out of")

    a = people["player_a"].new_page()
    a.goto(url)
    b = people["player_b"].new_page()
    b.goto(url)  # Bess watches: she is not in the fight yet
    sd = Screen("dealer", desk, dealer=True)
    sa = Screen("player_a", a, mine={abe})
    sb = Screen("player_b", b, mine={bess})
    live = LiveFight(fight, [sd, sa, sb])

    for cid, total in ((abe, 13), (crane, 8), ("x1", 5)):
        form = desk.locator(f'li[data-cid="{cid}"] form.act--quickness').first
        live.settle(sd)
        form.locator("input[name=total]").fill(str(total))
        live.press(sd, button(form, "Use this total"))
    rig(fight, "RJ 9♣ 3♦ Q♠ 7♦ K♥ 4♣")
    live.press(sd, button(desk, "Deal the round"))
    live.check("join round 1 dealt")

    # Mid-countdown, the Dealer brings Bess in, then two more Pinkertons: from the console to
    # the join page and back.
    def join_page() -> None:
        live.settle(sd)
        desk.get_by_role("link", name="Someone joins").click()
        expect(desk).to_have_url(re.compile(r"/fights/\d+/join/$"))

    def join_submit() -> None:
        before = live.state()
        button(desk, "Join the fight").click()
        expect(desk).to_have_url(re.compile(r"/fights/\d+/$"))
        assert live.state() != before

    join_page()
    desk.locator(f'input[name=character][value="{pc_b.pk}"]').check()
    join_submit()
    expect(b.locator(".timeline")).to_contain_text("Bess Doyle joins the fight", timeout=LIVE)
    live.check("join bess joins")
    join_page()
    desk.locator("#id_extras").fill("2 Pinkertons 2d6")
    shoot("02-join-page")
    join_submit()
    expect(a.locator(".timeline")).to_contain_text("2 Pinkertons join the fight", timeout=LIVE)
    live.check("join pinkertons join")
    assert {c.cid for c in live.state().combatants} >= {bess, "x2"}
    shoot("03-console-after-join")
    b.screenshot(path=str(ARTIFACTS / "join-04-bess-phone.png"), full_page=True)

    # A bad dice spec is refused in plain words, nothing written.
    before = live.state()
    join_page()
    desk.locator("#id_extras").fill("2 Deputies 3d7")
    button(desk, "Join the fight").click()
    expect(desk.locator(".field__error")).to_contain_text("d7", timeout=LIVE)
    assert live.state() == before
    desk.get_by_role("link", name="Back to the fight").click()
    expect(desk).to_have_url(re.compile(r"/fights/\d+/$"))

    # The next round deals Bess in: her phone shows her own cards, nobody else's.
    live.press(sd, button(desk, "End round 1"))
    for cid, total in ((abe, 5), (crane, 8), ("x1", 5), ("x2", 5)):
        form = desk.locator(f'li[data-cid="{cid}"] form.act--quickness').first
        live.settle(sd)
        form.locator("input[name=total]").fill(str(total))
        live.press(sd, button(form, "Use this total"))
    live.settle(sb)
    b.locator("form.act--quickness input[name=total]").first.fill("13")
    live.press(sb, button(b.locator("form.act--quickness").first, "Use this total"))
    live.press(sd, button(desk, "Deal the round"))
    live.check("join round 2 dealt with bess")
    assert live.state().combatant(bess).hand
    assert live.state().phase == engine.Phase.COUNTDOWN
    b.screenshot(path=str(ARTIFACTS / "join-05-bess-round-2-phone.png"), full_page=True)
