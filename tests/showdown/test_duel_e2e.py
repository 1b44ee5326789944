"""The duel in reach (issue 36), in Chromium on two 390×844 phones: each duellist chooses the
pistol, the zone and the noise BEFORE Ready (the choices survive every live update); after
"Via!" one large Fire! stands under the countdown, inside the first screen of both phones; both
fire, and the shot that lost the race is on the timeline with its lag. Needs E2E=1."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from campaigns.models import Membership
from campaigns.services import campaign_create
from showdown.engine import moves as m
from showdown.models import Showdown
from tests.e2e.conftest import ARTIFACTS, PHONE_390, app_url, chromium, login_cookie
from tests.kit import engine_move, new_game
from tests.saloon.test_e2e import LIVE, OVERFLOW
from tests.showdown.conftest import state_of

pytestmark = pytest.mark.e2e
__all__ = ["app_url", "chromium", "login_cookie"]

SHOTS = {"Ruth": ("blue", "the chest", "Boom"), "Cole": ("green", "the leg", "Bang")}


@pytest.fixture
def duel(transactional_db: None, django_user_model: type[User]) -> tuple[Showdown, dict[str, User]]:
    """Ruth threatens Cole, who answers "E tu?": a duel, nobody ready yet."""
    users = {n: django_user_model.objects.create_user(n.lower(), first_name=n)
             for n in ("Hank", "Ruth", "Cole")}  # fmt: skip
    table = campaign_create(dealer=users["Hank"], name="Noon at the Last Chance")
    for name in ("Ruth", "Cole"):
        Membership.objects.create(campaign=table, user=users[name], role=Membership.Role.PLAYER)
    showdown = new_game(
        "showdown", campaign=table, actor=users["Hank"], players=[users["Ruth"], users["Cole"]],
        dealer=users["Ruth"].pk,
    )  # fmt: skip
    pid = {p.name: p.pid for p in state_of(showdown).players}
    turn = state_of(showdown).turn
    first, second = ("Ruth", "Cole") if pid["Ruth"] == turn else ("Cole", "Ruth")

    def play(name: str, made: Callable[[str], m.Move]) -> None:
        engine_move("showdown", showdown, users[name], made(pid[name]))

    play(first, lambda p: m.Threaten(p, pid[second], "red"))
    play(second, lambda p: m.AndYou(p))
    return showdown, users


@pytest.fixture
def phones(
    duel: tuple[Showdown, dict[str, User]],
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> Iterator[dict[str, BrowserContext]]:
    contexts = {}
    for name in SHOTS:
        contexts[name] = chromium.new_context(viewport=PHONE_390, is_mobile=True, has_touch=True)
        contexts[name].add_cookies([login_cookie(duel[1][name])])  # type: ignore[list-item]
    try:
        yield contexts
    finally:
        for context in contexts.values():
            context.close()


def in_first_screen(page: Page, name: str) -> None:
    """The Fire! button is whole inside the phone's first screen (its place on the page, not
    only where the page happens to be scrolled)."""
    fire = page.locator("#showdown-main").get_by_role("button", name="Fire!", exact=True)
    expect(fire).to_be_visible(timeout=LIVE)
    box = fire.bounding_box()
    assert box is not None
    top = box["y"] + page.evaluate("window.scrollY")
    bottom = top + box["height"]
    assert bottom <= PHONE_390["height"], f"{name}: Fire! at y {top:.0f}–{bottom:.0f} of 844"
    assert box["y"] >= 0, name  # and on the screen now
    assert box["y"] + box["height"] <= PHONE_390["height"], name
    assert box["height"] >= 56, f"{name}: Fire! is {box['height']:.0f} px high: make it large"


def test_both_duellists_choose_before_ready_and_fire_from_the_first_screen(
    app_url: str, duel: tuple[Showdown, dict[str, User]], phones: dict[str, BrowserContext]
) -> None:
    showdown = duel[0]
    url = app_url + showdown.get_absolute_url()
    pages = {name: phones[name].new_page() for name in SHOTS}
    for name, page in pages.items():
        page.goto(url)
        main = page.locator("#showdown-main")
        pistol, zone, noise = SHOTS[name]
        # Chosen before Ready: Ready is the last thing on the way to "Via!".
        main.get_by_label(pistol, exact=True).check()
        main.get_by_label(zone, exact=True).check()
        main.get_by_label(noise, exact=True).check()
    for page in pages.values():
        page.locator("#showdown-main").get_by_role("button", name="Ready", exact=True).click()
        expect(page.locator("#showdown-main")).not_to_contain_text("tap Ready", timeout=LIVE)
    for name, page in pages.items():
        expect(page.locator(".fire__button")).to_be_visible(timeout=LIVE)
        page.screenshot(path=str(ARTIFACTS / f"showdown-duel-fire-{name}.png"))
        in_first_screen(page, name)
        assert not page.evaluate(OVERFLOW), f"{name}: wider than the screen"
        for chosen in SHOTS[name]:  # what was chosen before Ready is still chosen
            expect(page.locator("#showdown-main").get_by_label(chosen, exact=True)).to_be_checked()
    # Both tap Fire! at once: one claim stands, the other is on the timeline with its lag.
    # Both shots are held on their way until both are sent (on a loaded machine the first
    # claim's live update could otherwise reach the other phone before its tap).
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    for page in pages.values():
        page.route(lambda url: "/move/fire/" in url, hold)
    for page in pages.values():
        page.evaluate("document.querySelector('.fire__button').click()")
    for _ in range(100):
        if len(held) == len(pages):
            break
        pages["Ruth"].wait_for_timeout(50)
    assert len(held) == len(pages), "a Fire! tap was never sent"
    for route in held:
        route.continue_()
    for page in pages.values():
        expect(page.locator("[data-claim]")).to_be_visible(timeout=LIVE)
    fight = state_of(showdown).fight
    deadline = 50
    while fight is not None and not fight.late and deadline:
        pages["Ruth"].wait_for_timeout(100)
        fight, deadline = state_of(showdown).fight, deadline - 1
    assert fight is not None
    assert fight.claim is not None
    assert fight.late, "the losing shot was lost"
    winner = next(p.name for p in state_of(showdown).players if p.pid == fight.claim.shooter)
    loser = next(n for n in SHOTS if n != winner)
    assert (fight.claim.pistol, fight.claim.noise) == (SHOTS[winner][0], SHOTS[winner][2])
    for page in pages.values():
        expect(page.locator("#showdown-main")).to_contain_text(f"{loser} fired too, ", timeout=LIVE)
    pages[loser].screenshot(path=str(ARTIFACTS / "showdown-duel-late.png"), full_page=True)
