"""Live updates said politely (issue 36 #5): every table page — each game's screens and its
shared table screen — has one polite live region, empty when the page opens (static/js/live.js
fills it with the timeline's new lines, read from the page), outside the panel the live stream
replaces, and marks the timeline it reads and which end of it is the newest."""

from __future__ import annotations

import re

import pytest
from django.test import Client

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
from tests.test_every_url import objects, objects_once

pytestmark = pytest.mark.django_db
# The cast, Dry Gulch and its objects are made once for the module (tests/made_once.py).
__all__ = [
    "campaign", "dealer", "npc", "objects", "objects_once", "outsider", "pc_a", "pc_b",
    "player_a", "player_b", "rows_once",
]  # fmt: skip

PAGES = [
    ("conflicts", "conflict_id", "oldest-first"),
    ("fights", "fight_id", "oldest-first"),
    ("saloon", "saloon_id", "newest-first"),
    ("showdown", "showdown_id", "newest-first"),
    ("gunfighter", "gunfighter_id", "newest-first"),
]
REGION = re.compile(
    r'<p class="visually-hidden" data-news role="status" aria-live="polite" aria-atomic="true">'
    r"</p>\s*<div class=\"live__panel\""
)


@pytest.mark.parametrize(("game", "key", "order"), PAGES)
def test_every_table_page_has_one_polite_region_for_what_changed(
    game: str,
    key: str,
    order: str,
    objects: dict,
    dealer: object,
    player_a: object,
) -> None:
    url = f"/c/{objects['slug']}/{game}/{objects[key]}/"
    screens = [url] if game == "gunfighter" else [url, url + "table/"]
    for user in (dealer, player_a):
        client = Client()
        client.force_login(user)
        for screen in screens:
            html = client.get(screen).content.decode()
            assert len(REGION.findall(html)) == 1, screen
            assert html.count("data-news") == 1, screen
            assert f'data-timeline="{order}"' in html, screen
