"""Fight moves racing each other on real PostgreSQL: the fight row is locked for every move
(``select_for_update``), so six moves the Dealer made for the same version with no basis let
exactly one through; the others are refused as stale, with nothing written. (Two players'
taps at once and a double click under the race: the contract suite, tests/fights/contract.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.models import Membership
from fights.engine import action_deck as engine
from fights.models import Fight, FightMoveKey
from fights.services import cid_of, fight_create, fight_move
from tables.errors import StaleMove
from tests.kit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fight(campaign: Any, dealer: Any, pc_a: Any, pc_b: Any, npc: Any) -> Fight:
    from campaigns.game_sessions import session_start

    session = session_start(campaign=campaign, actor=dealer)
    return fight_create(
        campaign=campaign, actor=dealer, session=session, title="Race",
        characters=[pc_a, pc_b, npc],
    )  # fmt: skip


def test_one_of_many_moves_on_the_same_version_goes_through(
    fight: Fight, campaign: Any, dealer: Any, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    seat = Membership.objects.get(user=dealer, campaign=campaign)
    cids = [cid_of(pc_a), cid_of(pc_b), cid_of(npc)] * 2
    results = race(
        6,
        lambda i: fight_move(
            fight_id=fight.pk,
            membership=seat,
            move=engine.Quickness(cids[i], 9),
            version=0,
            key=f"k{i}",
        ),
    )
    assert sum(1 for r in results if isinstance(r, Fight)) == 1
    assert sum(1 for r in results if isinstance(r, StaleMove)) == 5
    fight.refresh_from_db()
    assert fight.version == 1
    assert FightMoveKey.objects.filter(fight=fight).count() == 1  # the refused keys rolled back
