"""Issue 26: one client safety-net poll under every table's live stream (tables/_poll.html and
tables.views.version_answer): a conflict's, a fight's and a saloon game's pages carry it, and
each version endpoint answers 204 while the table stands still, its version and the table's
"<kind>-moved" event once it moved, and 404 to someone outside the campaign. Never a card."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fights.services import ExtrasSpec, fight_create
from tests.kit import new_game


def tables(campaign: Any, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any,
           npc: Any, posse: Any) -> list[tuple[Any, str]]:  # fmt: skip
    from campaigns.game_sessions import session_start

    session = session_start(campaign=campaign, actor=dealer)
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Shootout",
        characters=[pc_a, pc_b, npc], extras=[ExtrasSpec("3 Pinkertons", 3, "2d6")],
        rng=random.Random(3),
    )  # fmt: skip
    saloon = new_game(
        "saloon",
        campaign=campaign,
        actor=dealer,
        players=[dealer, player_a, player_b],
        rng=random.Random(3),
    )
    return [(posse, "conflict-moved"), (fight, "fight-moved"), (saloon, "saloon-moved")]


@pytest.mark.django_db
def test_every_table_has_the_one_poll(
    client_as: Any, campaign: Any, dealer: User, player_a: User, player_b: User, outsider: User,
    pc_a: Any, pc_b: Any, npc: Any, posse: Any,
) -> None:  # fmt: skip
    for table, event in tables(campaign, dealer, player_a, player_b, pc_a, pc_b, npc, posse):
        version_url = table.get_absolute_url() + "version/"
        browser: Client = client_as(player_a)
        page = browser.get(table.get_absolute_url()).content.decode()
        assert f'hx-get="{version_url}?v={table.version}" hx-trigger="every 30s"' in page, event
        assert browser.get(version_url, {"v": table.version}).status_code == 204
        type(table).objects.filter(pk=table.pk).update(version=table.version + 1)
        moved = browser.get(version_url, {"v": table.version})
        assert moved.status_code == 200
        assert json.loads(moved.content) == {"version": table.version + 1}
        assert event in moved["HX-Trigger"]
        assert client_as(outsider).get(version_url, {"v": 0}).status_code == 404
