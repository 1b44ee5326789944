"""Issue 26, "No tap is lost": a move is refused as stale only when what it was based on
changed — its own hand or seat, the phase, or for the Dealer's table-wide moves the table. Each
page's move forms carry that basis (``tables.moves.Basis``); players acting at once all get
their moves through, in any order, once each."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Membership
from conflicts.engine import conflict as engine
from conflicts.models import Conflict, Event
from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of
from conflicts.services.moves import hand_basis
from tables.errors import StaleMove
from tests.conflicts.test_views import Table, dealt
from tests.kit import race

BASIS = re.compile(r'name="pid" value="([^"]+)"><input type="hidden" name="basis" value="(\w+)"')


def bases_on(page: str) -> dict[str, str]:
    """The basis each hand's forms carry on a rendered page, by pid."""
    return dict(BASIS.findall(page))


def version_on(page: str) -> int:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found is not None
    return int(found.group(1))


def test_two_players_drawing_from_the_same_page_version_both_draw(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    abe, bess = pid_of(pc_a), pid_of(pc_b)
    abe_page, bess_page = table.page(player_a), table.page(player_b)
    assert version_on(abe_page) == version_on(bess_page)
    assert set(bases_on(abe_page)) == {abe}  # each page carries its own hand's basis only
    assert set(bases_on(bess_page)) == {bess}

    table.ok(player_a, "draw", pid=abe, stand="on", version=version_on(abe_page),
             basis=bases_on(abe_page)[abe])  # fmt: skip
    # Bess's page is one version behind, but her hand and the phase are as she saw them.
    table.ok(player_b, "draw", pid=bess, stand="on", version=version_on(bess_page),
             basis=bases_on(bess_page)[bess])  # fmt: skip
    state = table.state()
    assert state.participant(abe).drew
    assert state.participant(bess).drew


def test_a_move_whose_own_hand_changed_is_still_refused_as_stale(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    abe = pid_of(pc_a)
    page = table.page(player_a)
    table.ok(player_a, "draw", pid=abe, stand="on")
    before = table.version
    response = table.post(player_a, "draw", pid=abe, stand="on", version=version_on(page),
                          basis=bases_on(page)[abe])  # fmt: skip
    assert response.status_code == 302
    assert table.version == before
    assert any("moved on" in m for m in table.messages(player_a))


def test_a_table_wide_move_needs_the_whole_table_unchanged(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    """The Dealer's Call is based on the whole table: a basis does not carry it over a move."""
    dealt(table, dealer, pc_a, pc_b)
    stale = table.version
    table.ok(player_a, "draw", pid=pid_of(pc_a), stand="on")
    before = table.version
    table.post(dealer, "call", version=stale, basis="anything")
    assert table.version == before


def test_a_forged_basis_changes_nothing(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    stale = table.version
    table.ok(player_a, "draw", pid=pid_of(pc_a), stand="on")
    before = table.version
    table.post(player_a, "draw", pid=pid_of(pc_b), stand="on", version=stale, basis="0" * 24)
    assert table.version == before  # not Abe's hand to play, and not its basis either


# --- Six players at once, on real PostgreSQL ------------------------------------------------------


@pytest.fixture
def six_at_the_draw(campaign: Any, dealer: User, django_user_model: type[User]) -> Conflict:
    from characters.services import character_create
    from tests.conftest import _legal_pc

    pcs = []
    for i in range(6):
        user = django_user_model.objects.create_user(f"gun{i}", first_name=f"Gun {i}")
        Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
        data, knacks = _legal_pc(f"Gunslinger {i}")
        pcs.append(
            character_create(campaign=campaign, kind="pc", player=user, data=data, knacks=knacks)
        )
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Six guns",
        hands=[*(HandSpec(character=pc) for pc in pcs), HandSpec(stud_size=5)],
    )  # fmt: skip
    boss = Membership.objects.get(user=dealer, campaign=campaign)
    for pc in pcs:
        conflict_move(conflict_id=conflict.pk, membership=boss, version=None,
                      move=engine.Approve(pid_of(pc), ("hand", "eye")))  # fmt: skip
    conflict_move(conflict_id=conflict.pk, membership=boss, version=None, move=engine.Deal(""))
    conflict.refresh_from_db()
    return conflict


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_six_players_drawing_within_milliseconds_all_draw_once_each(
    six_at_the_draw: Conflict, campaign: Any
) -> None:
    from conflicts.engine.serial import state_from_data

    conflict = six_at_the_draw
    state = state_from_data(conflict.state)
    players = [p for p in state.participants if p.kind == engine.Kind.PC]
    seats = {
        p.pid: Membership.objects.get(campaign=campaign, user__characters__pk=int(p.pid[1:]))
        for p in players
    }
    version = conflict.version  # every phone's page was rendered at this version

    def tap(i: int) -> object:
        p = players[i % 6]
        return conflict_move(
            conflict_id=conflict.pk, membership=seats[p.pid], move=engine.Draw(p.pid, ()),
            version=version, key=f"tap-{p.pid}", basis=hand_basis(state, p.pid),
        )  # fmt: skip

    results = race(12, tap)  # each player taps twice (a double tap): twelve requests at once
    assert [r for r in results if isinstance(r, Exception)] == []
    conflict.refresh_from_db()
    after = state_from_data(conflict.state)
    assert all(after.participant(p.pid).drew for p in players)
    assert conflict.version == version + 6  # six moves, once each
    assert Event.objects.filter(conflict=conflict, version__gt=version).count() >= 6
    seqs = list(Event.objects.filter(conflict=conflict).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_without_a_basis_the_same_taps_are_refused_but_one(
    six_at_the_draw: Conflict, campaign: Any
) -> None:
    """What the table felt before issue 26 (and what a form without a basis still gets)."""
    from conflicts.engine.serial import state_from_data

    conflict = six_at_the_draw
    players = [p for p in state_from_data(conflict.state).participants if p.kind == "pc"]
    seats = {
        p.pid: Membership.objects.get(campaign=campaign, user__characters__pk=int(p.pid[1:]))
        for p in players
    }

    def tap(i: int) -> object:
        p = players[i]
        return conflict_move(conflict_id=conflict.pk, membership=seats[p.pid],
                             move=engine.Draw(p.pid, ()), version=conflict.version)  # fmt: skip

    results = race(6, tap)
    assert sum(isinstance(r, StaleMove) for r in results) == 5
