"""The conflict's declaration on the site (conflicts/game.py): where its pages are, what it
overrides, and its per-viewer ``view`` (R10) as the kit's tools read it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from conflicts.engine import conflict as engine
from conflicts.game import CONFLICT
from conflicts.services import pid_of
from tables import tablegames
from tables.running import running_for
from tables.site import site
from tests.conflicts.test_views import Table, dealt, posse, table

__all__ = ["posse", "table"]  # fixtures

pytestmark = pytest.mark.django_db


def test_it_is_the_sites_conflicts_game_at_the_urls_it_always_had() -> None:
    assert site.get("conflict") is CONFLICT
    assert reverse("conflicts:detail", args=["dry-gulch", 7]) == "/c/dry-gulch/conflicts/7/"
    assert reverse("conflicts:stream", args=["dry-gulch", 7]) == "/c/dry-gulch/conflicts/7/stream/"
    assert reverse("conflicts:advice", args=["dry-gulch", 7]) == "/c/dry-gulch/conflicts/7/advice/"
    assert reverse("conflicts:rulings") == "/rulings/"
    # Set up by the Dealer from the campaign's pages: not one of the lobby's games.
    assert "conflict" not in {g.kind for g in tablegames.games()}


def test_its_tables_keep_their_names_in_play_now_and_on_the_live_channel(
    table: Table, player_a: User
) -> None:
    conflict = table.conflict
    assert [t.key for t in running_for(player_a)] == [f"conflict-{conflict.pk}"]
    assert CONFLICT.table.channel_of(conflict.pk) == f"conflict-{conflict.pk}"
    assert CONFLICT.event_name == "conflict-moved"


def test_its_view_shows_each_viewer_what_they_may_see_R10(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    table.conflict.refresh_from_db()
    state = table.state()
    hands = {p.pid: {c.text for c in p.hand} for p in state.participants}

    def shown(user: User | None, *, as_table: bool = False) -> set[str]:
        context = CONFLICT.view(table.conflict, user, as_table=as_table)
        return {c.text for row in context["hands"] for c in row.cards}

    assert shown(player_a) == hands[pid_of(pc_a)]
    assert shown(player_b) == hands[pid_of(pc_b)]
    assert shown(dealer) == set().union(*hands.values())
    assert shown(dealer, as_table=True) == set()  # the shared screen: public facts only
    assert state.phase == engine.Phase.DRAW
