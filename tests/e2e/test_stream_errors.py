"""Issue 36: a live stream that fails says so in the console in words (which stream, and that
it reconnects), not ``[object Event]``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser

from tests.e2e.conftest import PHONE_390

pytestmark = pytest.mark.e2e


def test_a_failed_stream_is_logged_in_words(
    app_url: str,
    campaign: Any,
    dealer: User,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    cookie = login_cookie(dealer)
    context = chromium.new_context(viewport=PHONE_390)  # type: ignore[arg-type]
    try:
        context.add_cookies([cookie])  # type: ignore[list-item]
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        stream = f"/c/{campaign.slug}/stream/"
        page.route(lambda url: url.endswith(stream), lambda route: route.abort())
        page.goto(f"{app_url}/c/{campaign.slug}/")
        page.wait_for_timeout(1500)
        said = [e for e in errors if "ERR_FAILED" not in e]  # Chromium's own network line
        assert said, errors
        assert not [e for e in said if "[object Event]" in e or e.strip() == "Event"], said
        assert any("live updates" in e and stream in e for e in said), said
    finally:
        context.close()
