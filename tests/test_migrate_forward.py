"""Issue 25: the move of the fights into their own app kept their tables and data. A database
holding a finished conflict, a fight and a saloon game, taken back to the migrations of the old
layout (fights inside the conflicts app), migrates forward, and every page of them opens."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from campaigns.game_sessions import session_end, session_start
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create
from fights.models import Fight
from fights.services import ExtrasSpec, fight_create
from saloon.models import Saloon
from tests.kit import new_game

OLD_LAYOUT = [("conflicts", "0006_fight_from_conflict"), ("fights", None)]


def migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.mark.django_db(transaction=True)
def test_the_old_layout_migrates_forward_with_its_tables(
    campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any, pc_b: Any, npc: Any,
    client_as: Any,
) -> None:  # fmt: skip
    session = session_start(campaign=campaign, actor=dealer)
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Unfinished business", session=session,
        hands=[HandSpec(character=pc_a), HandSpec(stud_size=3)],
    )  # fmt: skip
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Shootout at the livery",
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
    assert session_end(session_id=session.pk, actor=dealer, in_play="fold").ended
    conflict.refresh_from_db()
    assert conflict.phase in Conflict.OVER
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()

    old = migrate(OLD_LAYOUT).loader.project_state(OLD_LAYOUT[:1]).apps
    # In the old layout the fight is the conflicts app's, on the very same rows.
    old_fight = old.get_model("conflicts", "Fight").objects.get(pk=fight.pk)
    assert old_fight.title == "Shootout at the livery"
    assert old.get_model("conflicts", "FightSeat").objects.filter(fight_id=fight.pk).count() == 4
    old_conflict = old.get_model("conflicts", "Conflict").objects.get(pk=conflict.pk)
    assert old_conflict.phase == conflict.phase

    migrate(leaves)
    assert Fight.objects.get(pk=fight.pk).seats.count() == 4
    for user in (dealer, player_a):
        browser: Client = client_as(user)
        for url in (
            conflict.get_absolute_url(),
            conflict.get_absolute_url() + "table/",
            fight.get_absolute_url(),
            fight.get_absolute_url() + "table/",
            Saloon.objects.get(pk=saloon.pk).get_absolute_url(),
            reverse("campaigns:session", args=[campaign.slug, session.number]),
        ):
            assert browser.get(url).status_code == 200, (user, url)
