"""The one read of a conflict's table (``conflicts.reads.table_read``): one ORM queryset, the
same on SQLite and PostgreSQL, a fixed number of queries however many hands, and under a lock
what the last move committed."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from campaigns.models import Membership
from characters.services import character_create
from conflicts.engine import conflict as engine
from conflicts.models import Conflict, Event
from conflicts.reads import table_read
from conflicts.services import HandSpec, conflict_create, conflict_move, pid_of
from conflicts.services.moves import CONFLICTS
from tables.moves import locked_read


@pytest.fixture
def posse(campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Conflict:
    return conflict_create(
        campaign=campaign, actor=dealer, title="The posse at the canyon",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip


def propose(conflict: Conflict, user: User, pc: Any, attributes: tuple[str, str]) -> Conflict:
    seat = Membership.objects.select_related("campaign", "user").get(
        campaign=conflict.campaign, user=user
    )
    return conflict_move(
        conflict_id=conflict.pk, membership=seat,
        move=engine.Propose(pid_of(pc), attributes), version=None,
    )  # fmt: skip


def test_it_reads_the_table_with_everything_its_screens_show(
    posse: Conflict, player_a: User, pc_a: Any, dealer: User, campaign: Any
) -> None:
    propose(posse, player_a, pc_a, ("hand", "eye"))
    read = table_read(posse.pk)
    assert read is not None
    assert read.version == 1
    assert read.campaign == campaign
    assert [s.pid for s in read.seats] == [s.pid for s in posse.seats.order_by("id")]
    mine = next(s for s in read.seats if s.pid == pid_of(pc_a))
    assert mine.character is not None
    assert mine.character.player == player_a
    assert [line.text for line in read.timeline][-1].endswith("proposes hand + eye.")
    assert [line.seq for line in read.timeline] == [1, 2]
    assert read.last_seq == 2
    assert read.timeline[-1].actor_name == (player_a.first_name or player_a.username)
    assert read.roles == dict(
        Membership.objects.filter(campaign=campaign).values_list("user_id", "role")
    )
    assert read.state.phase == engine.Phase.SIZING
    assert read.continued_by == ()


def test_it_finds_a_conflict_only_in_its_own_campaign(posse: Conflict) -> None:
    assert table_read(posse.pk, campaign_id=posse.campaign_id) is not None
    assert table_read(posse.pk, campaign_id=posse.campaign_id + 999) is None
    assert table_read(posse.pk + 999) is None


@pytest.mark.django_db(transaction=True)  # outside a transaction, as a request is
def test_a_locked_read_is_refused_outside_a_transaction(posse: Conflict) -> None:
    """As select_for_update() is: a lock released at once would protect nothing."""
    with pytest.raises(TransactionManagementError):
        locked_read(CONFLICTS, posse.pk, {})
    with transaction.atomic():
        assert locked_read(CONFLICTS, posse.pk, {}).conflict.pk == posse.pk


def test_it_costs_the_same_queries_for_three_hands_as_for_seven(
    campaign: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    def queries_for(hands: list[HandSpec]) -> int:
        conflict = conflict_create(campaign=campaign, actor=dealer, title="A brawl", hands=hands)
        with CaptureQueriesContext(connection) as queries:
            read = table_read(conflict.pk)
        assert read is not None
        assert len(read.seats) == len(hands)
        return len(queries.captured_queries)

    npcs = [
        character_create(
            campaign=campaign,
            kind="npc",
            player=None,
            knacks={"Shootin'": 2},
            data={
                "name": f"Pinkerton {n}",
                "trait_1": "Mean as a snake",
                "trait_2": "Loyal",
                "trait_3": "Greedy",
                "hand_rating": 2,
                "eye_rating": 2,
                "guts_rating": 2,
                "heart_rating": 2,
                "devil": "Money.",
                "devil_rating": 1,
            },
        )
        for n in range(4)
    ]
    few = queries_for([HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)])
    many = queries_for(
        [HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)]
        + [HandSpec(character=npc) for npc in npcs]
    )
    assert few == many <= 6


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_locked_read_that_waited_sees_what_the_move_before_it_committed(
    posse: Conflict, player_a: User, pc_a: Any
) -> None:
    """Two moves at once: the second's locked read waits for the first's commit, and then
    reads the lines (and seats) as the first left them — its own lines go on from there."""
    holding, release = threading.Event(), threading.Event()

    def first_move() -> None:
        try:
            with transaction.atomic():
                read = locked_read(CONFLICTS, posse.pk, {})
                Event.objects.create(conflict=posse, seq=read.last_seq + 1, version=1, text="A.")
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    mover = threading.Thread(target=first_move)
    mover.start()
    assert holding.wait(10)
    seen: list[int] = []

    def second_read() -> None:
        try:
            with transaction.atomic():
                read = locked_read(CONFLICTS, posse.pk, {})
                seen.extend(line.seq for line in read.timeline)
        finally:
            connection.close()

    waiter = threading.Thread(target=second_read)
    waiter.start()
    waiter.join(0.5)
    assert waiter.is_alive()  # waiting for the lock
    release.set()
    mover.join(10)
    waiter.join(10)
    assert seen == [1, 2]


def test_the_phase_choices_are_the_engines_phases() -> None:
    """``Conflict.phase`` mirrors the engine's state: the same values, each with its label."""
    assert [p.value for p in engine.Phase] == list(Conflict.Phase.values)
    over = {engine.Phase.DONE, engine.Phase.FOLDED, engine.Phase.CANCELLED}
    assert {p.value for p in Conflict.OVER} == over


SEATS_READ = 'SELECT "conflicts_seat"'  # (the stamp's sub-select inside the conflict's read is not)


@pytest.mark.postgres
def test_a_table_read_reads_the_seats_as_they_are_now(
    posse: Conflict, pc_a: Any, dealer: User
) -> None:
    """Every read of a table reads its seats afresh (no per-process copy shared by threads,
    issue 26): a grant made between two reads shows in the second."""
    from characters.services import chips_grant

    def chips(data: Any) -> int:
        return int(next(s.character for s in data.seats if s.pid == pid_of(pc_a)).chips)

    first = table_read(posse.pk)
    assert first is not None
    chips_grant(character_id=pc_a.pk, amount=2, actor=dealer, note="A reward")
    again = table_read(posse.pk)
    assert again is not None
    assert chips(again) == chips(first) + 2
