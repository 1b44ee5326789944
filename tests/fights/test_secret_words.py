"""Issue 36: on the Dealer's fight screen a player's secret line (their hand dealt, R30) is not
"only you see this": its player sees it too. The Dealer's own secrets (an NPC's hand) are."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User

from tests.fights.conftest import FightTable
from tests.fights.test_views import deal

pytestmark = pytest.mark.django_db


def said_of(html: str, name: str) -> str:
    # The cards between are marked up with their words (issue 36's card view).
    line = re.search(rf"Dealt to {name}:.*?<small class=\"muted\">\(([^)]*)\)", unescape(html))
    assert line is not None, name
    return line.group(1)


def test_a_players_secret_line_says_who_else_sees_it(
    table: FightTable, dealer: User, player_a: User, cids: dict[str, str]
) -> None:
    deal(table, dealer, cids)
    console = table.page(dealer)
    assert said_of(console, "Abe Slade") == "only you and its player see this"
    assert said_of(console, "Mayor Crane") == "only you see this"
    assert said_of(table.page(player_a), "Abe Slade") == "only you and the Dealer see this"
