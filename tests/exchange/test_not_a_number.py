"""Issue 37, B6: NaN or Infinity in an imported conflict's state was a 500 (the database
refused it half-way through the writing). JSON has no such numbers: the file is refused in
plain words, before anything is checked or written."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from campaigns.models import Campaign
from exchange.api import ImportRefused, campaign_export, campaign_file_dump, campaign_file_parse
from tests.conflicts.test_views import quick_odds
from tests.exchange.test_conflicts import at_table, at_table_once, counts
from tests.made_once import (
    campaign,
    dealer,
    npc,
    outsider,
    pc_a,
    pc_b,
    player_a,
    player_b,
    rows_once,
)

pytestmark = pytest.mark.django_db
# The cast, Dry Gulch and its evening are made once for the module (tests/made_once.py).
__all__ = [
    "at_table", "at_table_once", "campaign", "dealer", "npc", "outsider", "pc_a", "pc_b",
    "player_a", "player_b", "quick_odds", "rows_once",
]  # fmt: skip


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_a_conflict_state_holding_a_number_json_has_not_is_refused_nothing_written(
    at_table: Campaign, dealer: User, outsider: User, word: str,
    client_as: Callable[[Any], Client],
) -> None:  # fmt: skip
    raw = campaign_file_dump(campaign_export(at_table))
    raw, replaced = re.subn(r'"salt": "[^"]*"', f'"salt": {word}', raw, count=1)
    assert replaced == 1
    with pytest.raises(ImportRefused, match=f"holds {word}, which is not a number JSON knows"):
        campaign_file_parse(raw)
    before = counts()
    upload = SimpleUploadedFile("nan.json", raw.encode(), content_type="application/json")
    response = client_as(outsider).post("/import/", {"file": upload})
    assert response.status_code == 200
    assert "which is not a number JSON knows" in response.content.decode()
    assert counts() == before
