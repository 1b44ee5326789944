"""Issue 38: Saloon Showdown's and The Gunfighter's live screens are made from the streams'
one read per version (``Game.screen_row``: the row, its seats, its campaign's members,
its newest lines) with no query per viewer — the same screen, word for word, as the page makes
from a bare row with its own reads."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext

from dustdevils.live.tables import Viewer
from tables.site import site
from tests.kit import new_game

FRESH_KEY = re.compile(r'name="key" value="[0-9a-f]+"')  # each form's own key, new each render


@pytest.mark.parametrize("kind", ["showdown", "gunfighter"])
def test_every_screen_comes_from_the_one_read_with_no_query(
    kind: str, campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    extra = {"dealer": player_a.pk, "events": True} if kind == "showdown" else {}
    row = new_game(kind, campaign=campaign, actor=dealer, players=[dealer, player_a, player_b],
                   rng=random.Random(3), **extra)  # fmt: skip
    game, live = site.get(kind), site.live(kind)
    assert not live.panel_reads_db  # rendered in the event loop: it must not query
    with CaptureQueriesContext(connection) as read_queries:
        read = live.load(row.pk)
    assert read is not None
    assert len(read_queries.captured_queries) == 4  # once per version, whoever looks
    viewers = [(dealer, False), (player_a, False), (player_b, False)]
    if game.shared_screen:
        viewers.append((player_a, True))
    with CaptureQueriesContext(connection) as queries:
        panels = [
            live.panel(Viewer(user.pk, campaign.slug, row.pk, as_table, "t"), read)
            for user, as_table in viewers
        ]
    assert queries.captured_queries == []
    bare = type(row)._default_manager.select_related("campaign").get(pk=row.pk)
    for (user, as_table), panel in zip(viewers, panels, strict=True):
        context = game.view(bare, user, as_table=as_table)  # the page's reads, per viewer
        context.update(csrf_token="t", notice="", error="")
        page = render_to_string(game.template("table" if as_table else "detail") + "#main",
                                context)  # fmt: skip
        assert FRESH_KEY.sub("", str(panel)) == FRESH_KEY.sub("", page)
    # The host's screen (the Dealer, from the members read once) is the host's; a player's not.
    host_only = {"showdown": "An event card drawn?", "gunfighter": "Act for a gunfighter (host)"}
    assert host_only[kind] in str(panels[0])
    assert host_only[kind] not in str(panels[1]) + str(panels[2])
