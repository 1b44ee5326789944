"""The Dealer's first step leads the campaign page (issue 36; the first screen is measured in
Chromium by tests/e2e/test_first_five_minutes.py): before anyone has a character, invite the
players; then start the session; while one is played, set up a conflict or a fight. Players see
none of it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.game_sessions import session_start

pytestmark = pytest.mark.django_db


def first_step(client: Client, campaign: Any) -> str:
    html = client.get(f"/c/{campaign.slug}/").content.decode()
    found = re.search(r'<section class="first-step".*?</section>', html, re.S)
    return found.group(0) if found else ""


def test_the_first_step_follows_the_campaign(
    campaign: Any, dealer: User, player_a: User, client_as: Any
) -> None:
    step = first_step(client_as(dealer), campaign)
    assert "Start the next session" in step
    assert "Invite players" in step  # nobody has a character yet: invite them first
    assert first_step(client_as(player_a), campaign) == ""
    session = session_start(campaign=campaign, actor=dealer)
    step = first_step(client_as(dealer), campaign)
    assert "Start the next session" not in step
    assert f"/c/{campaign.slug}/conflicts/new/" in step
    assert f"/fights/new/?session={session.pk}" in step
