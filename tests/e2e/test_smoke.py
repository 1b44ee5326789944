"""A person opens the app on a phone, logs in and out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from tests.conftest import CAST_PASSWORD

pytestmark = pytest.mark.e2e


@pytest.fixture
def dealer_for_browser(transactional_db: None, dealer: User) -> User:
    """The dealer, with a password hashed the way the real server (not the MD5 test settings)
    can check it."""
    hasher = PBKDF2PasswordHasher()
    dealer.password = hasher.encode(CAST_PASSWORD, hasher.salt())
    dealer.save(update_fields=["password"])
    return dealer


def test_it_logs_in_from_a_phone(
    app_url: str,
    dealer_for_browser: User,
    page: Page,
    screenshot: Callable[[str], Path],
) -> None:
    page.goto(app_url + "/")
    expect(page).to_have_title("Dust Devils")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Deal the cards")
    # The vendored htmx and its SSE extension loaded (no CDN to fall back on).
    assert page.evaluate("window.htmx && htmx.version") == "2.0.11"
    # Our stylesheet applied: parchment, not the browser's white.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scroll
    screenshot("home-phone")

    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill("dealer")
    page.get_by_label("Password").fill(CAST_PASSWORD)
    screenshot("login-phone")
    page.get_by_role("button", name="Log in").click()

    expect(page).to_have_url(app_url + "/")
    expect(page.locator(".topbar__user")).to_have_text("dealer")
    expect(page.get_by_text("Welcome back")).to_be_visible()
    screenshot("logged-in-phone")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()


def test_it_shows_a_wrong_password(app_url: str, dealer_for_browser: User, page: Page) -> None:
    page.goto(app_url + "/accounts/login/")
    page.get_by_label("Username").fill("dealer")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
