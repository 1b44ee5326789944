"""In a real browser (E2E=1): the sheet form's live tally answers as the player types (htmx,
R28), knack rows come and go, and a finished sheet saves."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tests.conftest import CAST_PASSWORD
from tests.e2e.conftest import app_url, page  # noqa: F401  (fixtures)

pytestmark = pytest.mark.e2e


@pytest.fixture
def seated_player(transactional_db: None, campaign: Any, player_a: User) -> User:
    """player_a at Dry Gulch, with a password the real server's hasher can check."""
    hasher = PBKDF2PasswordHasher()
    player_a.password = hasher.encode(CAST_PASSWORD, hasher.salt())
    player_a.save(update_fields=["password"])
    return player_a


def log_in(tab: Page, base: str) -> None:
    tab.goto(base + "/accounts/login/")
    tab.fill("input[name=username]", "player_a")
    tab.fill("input[name=password]", CAST_PASSWORD)
    tab.locator("main button[type=submit]").click()
    tab.wait_for_load_state("networkidle")


def test_it_tallies_the_sheet_as_the_player_types_R28(
    app_url: str,  # noqa: F811
    seated_player: User,
    page: Page,  # noqa: F811
) -> None:
    log_in(page, app_url)
    page.goto(app_url + "/c/dry-gulch/characters/new/")
    tally = page.locator("#sheet-summary")
    expect(tally).to_contain_text("Points left: 13 of 13")

    page.fill("#id_name", "Zeke Munroe")
    for attribute, value in (("hand", "5"), ("eye", "3"), ("guts", "3"), ("heart", "3")):
        page.fill(f"#id_{attribute}", value)
    expect(tally).to_contain_text("Points left: -1 of 13")
    expect(tally).to_contain_text("Spend 1 fewer point.")
    page.fill("#id_heart", "2")
    expect(tally).to_contain_text("Points left: 0 of 13")

    names = page.locator("#knack-rows input[name=knack_name]")
    ratings = page.locator("#knack-rows input[name=knack_rating]")
    knacks = [("Shootin'", "2"), ("Wrestlin'", "2"), ("Trackin'", "3"), ("Ridin'", "1")]
    for row, (name, rating) in enumerate(knacks):
        names.nth(row).fill(name)
        ratings.nth(row).fill(rating)
    expect(tally).to_contain_text("Knack points left: 3 of 11")
    expect(tally).to_contain_text("Knacks: 4 of 8")

    # With JavaScript, rows can be added and removed; the tally follows.
    rows = page.locator("#knack-rows .knack-row")
    count = rows.count()
    page.get_by_role("button", name="+ Add a knack").click()
    expect(rows).to_have_count(count + 1)
    rows.nth(3).get_by_role("button", name="Remove this knack").click()  # Ridin' 1
    expect(tally).to_contain_text("Knack points left: 4 of 11")
    names.nth(3).fill("Drinkin'")
    ratings.nth(3).fill("3")
    names.nth(4).fill("Ridin'")
    ratings.nth(4).fill("1")
    expect(tally).to_contain_text("Knack points left: 0 of 11")

    page.fill("#id_trait_1", "Strong as an ox.")
    page.fill("#id_trait_2", "Meaner than a new sheared sheep.")
    page.fill("#id_devil", "Zeke is a mean drunk.")
    page.select_option("#id_devil_rating", "2")
    expect(tally).to_contain_text("The sheet follows the rules")

    page.locator("#sheet-form button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Zeke Munroe")
    expect(page.locator(".knacks")).to_contain_text("Drinkin'")
