"""Saloon Showdown's start form (issue 36): the dealer select follows the ticks (JavaScript,
in Chromium); without JavaScript, a dealer token given to someone not ticked is said next to
its field, not at the top of the page, and the form keeps what was ticked and chosen."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from showdown.models import Showdown
from tests.e2e.conftest import PHONE_390, app_url, chromium, login_cookie
from tests.showdown.conftest import state_of

__all__ = ["app_url", "chromium", "login_cookie"]


@pytest.mark.django_db
def test_an_unticked_dealer_is_said_next_to_the_field(
    client_as: Any, campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    data = {"player": [player_a.pk, player_b.pk], "dealer": dealer.pk, "key": "start-1"}
    html = client_as(dealer).post(f"/c/{campaign.slug}/showdown/new/", data).content.decode()
    assert not Showdown.objects.exists()
    field = re.search(r'<div class="field[^"]*"><label for="dealer">.*?</div>', html, re.S)
    assert field is not None
    assert 'role="alert"' in field.group(0)
    assert "The dealer token goes to one of the players" in field.group(0)
    assert "message--error" not in html  # nothing at the top of the page
    assert f'value="{dealer.pk}" checked' not in html  # the ticks are kept: Delia unticked
    assert f'value="{player_a.pk}" checked' in html


@pytest.mark.e2e
def test_the_dealer_select_offers_only_the_ticked_players(
    app_url: str,
    campaign: Any,
    dealer: User,
    player_a: User,
    player_b: User,
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    cookie = login_cookie(dealer)
    context = chromium.new_context(viewport=PHONE_390)  # type: ignore[arg-type]
    try:
        context.add_cookies([cookie])  # type: ignore[list-item]
        page = context.new_page()
        page.goto(f"{app_url}/c/{campaign.slug}/showdown/")
        select = page.get_by_label("Who saw a western last? (the dealer token)")
        expect(select).to_have_value(str(dealer.pk))  # the host first, ticked
        page.get_by_label("Delia", exact=True).uncheck()
        expect(select).not_to_have_value(str(dealer.pk))
        assert select.evaluate(
            "(s, v) => [...s.options].find(o => o.value === v).disabled", str(dealer.pk)
        )
        select.select_option(str(player_b.pk))
        page.get_by_role("button", name="Deal Saloon Showdown").click()
        expect(page).to_have_url(re.compile(r"/showdown/\d+/$"))
        state = state_of(Showdown.objects.get())
        assert [p.name for p in state.players] == ["Abe", "Bess"]
        assert state.player(state.dealer).name == "Bess"
    finally:
        context.close()
