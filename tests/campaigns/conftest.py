"""Fixtures for the campaign pages: a planned session, a Dealer's note, a Wanted! link and an
open invitation, on top of the shared table (campaign, pc_a, pc_b, npc)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

NOTE_SECRET = "The mayor hanged the wrong man on purpose."
LINK_SECRET = "Crane holds the deed to the Slade family farm."
PLAN_SECRET = "Open on the gallows at dawn."


@pytest.fixture
def session_1(campaign: Any) -> Any:
    from campaigns.services import session_plan

    return session_plan(campaign=campaign, notes=PLAN_SECRET)


@pytest.fixture
def note(campaign: Any) -> Any:
    from campaigns.services import note_save

    return note_save(campaign=campaign, title="What really happened", body=NOTE_SECRET)


@pytest.fixture
def link(campaign: Any, npc: Any, pc_a: Any) -> Any:
    from campaigns.services import wanted_link_save

    return wanted_link_save(
        campaign=campaign, npc=npc, pc=pc_a, devil_touched="Running", notes=LINK_SECRET
    )


@pytest.fixture
def invite_token(campaign: Any, dealer: User) -> str:
    from campaigns.services import invite_create

    _, token = invite_create(campaign=campaign, actor=dealer, label="For Clara")
    return token


def url(name: str, *args: Any) -> str:
    return reverse(f"campaigns:{name}", args=args)
