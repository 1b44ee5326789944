"""Migrating forward keeps every row, and every page of it opens.

Issue 25: the move of the fights into their own app kept their tables and data. A database
holding a finished conflict, a fight and a saloon game, taken back to the migrations of the old
layout (fights inside the conflicts app), migrates forward, and every page of them opens.

Issue 35: the games' models move onto the kit's bases (``tables.models``) with state-only
migrations. ``KIT_MOVES`` names, for every game app, the migration main held before its move
onto the kit (the target to go back to) and the state-only migrations since (``sqlmigrate``
prints no SQL for them). A database holding one game of each (seats, timeline lines and move
keys), taken back to those targets, migrates forward: every row is kept as it was, column for
column, and every page of each game opens for its members. A later move (conflicts, fights)
adds its state-only migration to its app's tuple; going back to the target exercises it anyway.

What the history holds (git log on each app's migrations): Death Enters the Saloon moved in
a51981e (0003, the campaign's related name: no SQL; before it, 0002); conflicts in 0008 (the
campaign's related name: no SQL; before it, 0007). Fights are at today's main (0001). Saloon
Showdown and The Gunfighter were born on the kit (a6437bf, bc4d504): their first migration is
their only one, so there is nothing to go back to that still holds their tables; their rows stay
in place while every other app goes back and comes forward, and are checked like the others."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import ManyToOneRel, Model
from django.test import Client
from django.urls import reverse

from campaigns.game_sessions import session_end, session_start
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create
from fights.models import Fight
from fights.services import ExtrasSpec, fight_create
from saloon.engine.serial import state_from_data
from saloon.engine.setup import proposed_keep
from saloon.models import Saloon
from tables.game import Game
from tables.site import site
from tests.kit import new_game, play

OLD_LAYOUT = [("conflicts", "0006_fight_from_conflict"), ("fights", None)]

# app label: (main's migration before the move onto the kit, the state-only migrations since).
KIT_MOVES: dict[str, tuple[str, tuple[str, ...]]] = {
    "saloon": ("0002_line_struck", ("0003_campaign_related_name_from_the_kit",)),
    "conflicts": ("0007_fights_moved_out", ("0008_campaign_related_name_from_the_kit",)),
    "fights": ("0001_initial", ()),
    "showdown": ("0001_initial", ()),  # born on the kit: its only migration
    "gunfighter": ("0001_initial", ()),  # born on the kit: its only migration
}
STATE_ONLY = [(app, name) for app, (_, names) in KIT_MOVES.items() for name in names]


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


# --- Issue 35: the moves onto the kit ---------------------------------------------------------
def tap(kind: str, row: Any, user: Any, pid: str, action: str, **fields: Any) -> None:
    """One move as ``pid``'s phone posts it (its version, basis and a move key of its own)."""
    game = site.get(kind)
    row.refresh_from_db()
    basis = game.basis(game.load(row.state), pid)
    key = f"{kind}-{row.version}-{pid}"
    play(kind, row, user, action, version=row.version, basis=basis, key=key, **fields)


def keep(row: Any, pid: str) -> dict[str, str]:
    """A saloon player's discard: one card kept of each three of a kind (``keep_<n>``)."""
    hand = state_from_data(row.state).player(pid).hand
    return {f"keep_{n}": card.text for n, card in enumerate(proposed_keep(hand))}


def one_of_each(campaign: Any, dealer: Any, a: Any, b: Any, pcs: list[Any]) -> dict[str, Any]:
    """A row of every game app in ``KIT_MOVES``; the declared games with a few moves made."""
    seats = {"p1": dealer, "p2": a, "p3": b}
    session = session_start(campaign=campaign, actor=dealer)
    rows = {
        "conflicts": conflict_create(
            campaign=campaign, actor=dealer, title="Unfinished business", session=session,
            hands=[HandSpec(character=pcs[0]), HandSpec(stud_size=3)],
        ),
        "fights": fight_create(
            campaign=campaign, actor=dealer, session=session, title="Shootout at the livery",
            characters=pcs, extras=[ExtrasSpec("3 Pinkertons", 3, "2d6")], rng=random.Random(3),
        ),
        "saloon": new_game("saloon", campaign=campaign, actor=dealer, players=[dealer, a, b],
                           rng=random.Random(3)),
        "showdown": new_game("showdown", campaign=campaign, actor=dealer, players=[dealer, a, b],
                             dealer=dealer.pk, events=True),
        "gunfighter": new_game("gunfighter", campaign=campaign, actor=dealer,
                               players=[dealer, a, b], rng=random.Random(3)),
    }  # fmt: skip
    for pid in ("p1", "p2"):
        tap("saloon", rows["saloon"], seats[pid], pid, "discard", **keep(rows["saloon"], pid))
    # Delia deals: Abe (p2) threatens Bess (p3), who calls his bluff; Abe's bullets (SS15).
    tap("showdown", rows["showdown"], a, "p2", "threaten", target="p3", pistol="red")
    tap("showdown", rows["showdown"], b, "p3", "bluff")
    tap("showdown", rows["showdown"], a, "p2", "bullets", count=7)
    for pid in ("p1", "p2"):
        tap("gunfighter", rows["gunfighter"], seats[pid], pid, "ready")
    return rows


def children(model: type[Model]) -> list[tuple[str, str]]:
    """The tables hanging off a game's row in its own app (seats, lines, keys, hands…), each
    with the column naming the row."""
    rels = [r for r in model._meta.get_fields(include_hidden=True) if type(r) is ManyToOneRel]
    return [
        (r.related_model._meta.db_table, r.field.column)
        for r in rels
        if r.related_model._meta.app_label == model._meta.app_label
    ]


def snapshot(row: Any) -> dict[tuple[str, str], list[tuple[Any, ...]]]:
    """Every stored column of the row and of the rows hanging off it, read in SQL: what a
    state-only migration may not change, whatever Django's models are at the time."""
    model = type(row)
    quote = connection.ops.quote_name
    out = {}
    with connection.cursor() as cursor:
        for table, column in [(model._meta.db_table, model._meta.pk.column), *children(model)]:
            cursor.execute(
                f"SELECT * FROM {quote(table)} WHERE {quote(column)} = %s ORDER BY 1", [row.pk]
            )
            kept = [i for i, c in enumerate(cursor.description) if c[0] not in AFTER_THE_KIT]
            out[table, column] = [tuple(r[i] for i in kept) for r in cursor.fetchall()]
    return out


# Columns added after the move onto the kit: a timeline line's message and values (issue 39),
# dropped when the schema goes back before the kit (a line without them is shown as its text).
AFTER_THE_KIT = frozenset({"message", "values"})


def counts(game: Game, row: Any) -> tuple[int, int, int]:
    """A declared game's seats, timeline lines and move keys."""
    return tuple(
        model._default_manager.filter(**{game.fk: row.pk}).count()
        for model in (game.seat_model, game.line_model, game.key_model)
    )


def pages(row: Any) -> list[str]:
    """Every page of a game row: a declared game's by its URL names (``tables.site``), the
    others' (conflicts: not yet declared) their own."""
    declared = {game.model: game for game in site.games()}
    game = declared.get(type(row))
    if game is None:
        one = row.get_absolute_url()
        return [one, one + "table/", one + "version/"]
    slug, one = row.campaign.slug, {f"{game.kind}_id": row.pk}
    names = ["detail", "version"] + ["table"] * game.shared_screen + ["story"] * game.has_story
    return [reverse(f"{game.namespace}:list", kwargs={"slug": slug})] + [
        reverse(f"{game.namespace}:{name}", kwargs={"slug": slug, **one}) for name in names
    ]


@pytest.mark.django_db(transaction=True)
def test_every_game_from_before_the_kit_migrates_forward_with_every_row(
    campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any, pc_b: Any, npc: Any,
    client_as: Any,
) -> None:  # fmt: skip
    rows = one_of_each(campaign, dealer, player_a, player_b, [pc_a, pc_b, npc])
    assert set(rows) == set(KIT_MOVES)
    for row in rows.values():
        row.refresh_from_db()
    before = {app: snapshot(row) for app, row in rows.items()}
    states = {app: row.state for app, row in rows.items()}
    played = {kind: counts(site.get(kind), rows[kind]) for kind in ("saloon", "showdown",
                                                                     "gunfighter")}  # fmt: skip
    for kind, (seats, lines, keys) in played.items():
        assert (seats, lines > 1, keys >= 2) == (3, True, True), (kind, seats, lines, keys)
    assert [rows[kind].version for kind in played] == [2, 3, 2]
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()

    back = [(app, target) for app, (target, _) in KIT_MOVES.items()]
    old = migrate(back).loader.project_state(back).apps
    applied = MigrationExecutor(connection).loader.applied_migrations
    for app, name in STATE_ONLY:
        assert (app, name) not in applied, (app, name)
    assert {app: snapshot(row) for app, row in rows.items()} == before
    old_saloon = old.get_model("saloon", "Saloon").objects.get(pk=rows["saloon"].pk)
    assert old_saloon.state == states["saloon"]
    old_lines = old.get_model("saloon", "SaloonLine").objects.filter(saloon=old_saloon)
    assert old_lines.count() == played["saloon"][1]

    migrate(leaves)
    assert {app: snapshot(row) for app, row in rows.items()} == before
    for app, row in rows.items():
        assert type(row)._default_manager.get(pk=row.pk).state == states[app], app
    for kind, seen in played.items():
        assert counts(site.get(kind), rows[kind]) == seen, kind
    # The pages that read every game's rows ("In play now", the campaign's) and each game's.
    shared = [reverse("campaigns:detail", args=[campaign.slug]), reverse("campaigns:running"),
              reverse("conflicts:list", args=[campaign.slug])]  # fmt: skip
    for user in (dealer, player_a, player_b):
        browser: Client = client_as(user)
        for app, row in [("", None), *rows.items()]:
            for url in pages(row) if row else shared:
                assert browser.get(url).status_code == 200, (user, app, url)


@pytest.mark.django_db(transaction=True)  # SQLite's schema editor: outside a transaction
@pytest.mark.parametrize(("app", "name"), STATE_ONLY)
def test_a_move_onto_the_kit_writes_no_sql(app: str, name: str) -> None:
    out = io.StringIO()
    call_command("sqlmigrate", app, name, stdout=out)
    said = [
        line for line in out.getvalue().splitlines()
        if line.strip() and not line.startswith("--") and line not in ("BEGIN;", "COMMIT;")
    ]  # fmt: skip
    assert said == [], (app, name, said)


@pytest.mark.django_db
def test_the_moves_are_listed_for_every_game_and_describe_the_models() -> None:
    graph = MigrationExecutor(connection).loader.graph
    games = {g.model._meta.app_label for g in site.games() if not g.model.__module__.startswith(
        "tests.")}  # fmt: skip
    assert games <= set(KIT_MOVES), games - set(KIT_MOVES)
    for app, (target, names) in KIT_MOVES.items():
        for name in names:  # each state-only migration comes after the target
            assert (app, target) in graph.forwards_plan((app, name)), (app, target, name)
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # no model left behind
    assert "No changes detected" in out.getvalue()
