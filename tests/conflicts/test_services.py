"""The conflict service: one locked, versioned, idempotent move at a time
(docs/architecture.md), with chips written to the ledger and Difficulty applied to the sheets
(R9, R15, R18)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from campaigns.models import Membership
from cards.deck import assert_conserved, verify_commitment
from characters.models import ChipEntry
from characters.services import chips_grant
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict, Event
from conflicts.services import ConflictError, HandSpec, conflict_create, conflict_move
from tables.errors import StaleMove

pytestmark = pytest.mark.django_db


def seat_of(user: Any, campaign: Any) -> Membership:
    return Membership.objects.get(user=user, campaign=campaign)


@pytest.fixture
def table(campaign: Any, dealer: Any, pc_a: Any, pc_b: Any) -> Conflict:
    return conflict_create(
        campaign=campaign,
        actor=dealer,
        title="The posse at the canyon",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
        stakes=1,
    )


def move(conflict: Conflict, who: Membership, m: engine.Move, key: str = "") -> Conflict:
    conflict.refresh_from_db()
    return conflict_move(
        conflict_id=conflict.pk, membership=who, move=m, version=conflict.version, key=key,
        rng=random.Random(7),
    )  # fmt: skip


def state(conflict: Conflict) -> engine.ConflictState:
    conflict.refresh_from_db()
    return state_from_data(conflict.state)


def test_it_plays_a_whole_conflict_and_pays_the_stakes_R18(
    table: Conflict, campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any
) -> None:
    d, a, b = seat_of(dealer, campaign), seat_of(player_a, campaign), seat_of(player_b, campaign)
    pa = f"c{pc_a.pk}"
    pb = next(s.pid for s in table.seats.all() if s.pid not in (pa, "stud"))
    chips_grant(character_id=int(pb[1:]), amount=1, actor=None)  # enough to fold
    move(table, a, engine.Propose(pa, ("hand", "eye"), trait=True))
    move(table, d, engine.Approve(pa, ("hand", "eye"), trait=True))
    move(table, d, engine.Approve(pb, ("guts", "heart")))
    move(table, a, engine.SpendExtraCard(pa))
    move(table, d, engine.Deal(salt=""))
    s = state(table)
    assert len(s.participant(pa).hand) == 4 + 3 + 1 + 1
    assert verify_commitment(s.order, s.salt, s.commitment)
    move(table, a, engine.NameKnack(pa, "Shootin'", 4))
    move(table, d, engine.ApproveKnack(pa, "Shootin'", 4))
    move(table, a, engine.Draw(pa, s.participant(pa).hand[:2]))
    move(table, b, engine.Fold(pb))
    move(table, d, engine.Call(now=True))
    move(table, d, engine.Reveal())
    s = state(table)
    for owed in s.owed:
        p = s.participant(owed.pid)
        move(table, a, engine.Allocate(owed.pid, engine.default_allocation(owed, p.currents)))
    move(table, d, engine.Finish())
    s = state(table)
    assert s.phase == engine.Phase.DONE
    assert_conserved(s.deck, *(p.hand for p in s.participants))  # type: ignore[arg-type]
    ledger = list(ChipEntry.objects.filter(conflict=table).values_list("reason", "amount"))
    assert ("extra_card", -1) in ledger
    assert ("fold", -1) in ledger
    if s.participant(s.winner).side == "players":  # type: ignore[arg-type]
        assert ("stakes", 1) in ledger  # only player_a: player_b folded
    pc_a.refresh_from_db()
    taken = {o.pid: sum((o.allocation or {}).values()) for o in s.owed}
    assert sum(pc_a.rating(x) - pc_a.current(x) for x in ("hand", "eye", "guts", "heart")) == (
        taken.get(pa, 0)
    )
    assert Event.objects.filter(conflict=table).count() > 8


def test_it_refuses_a_players_dealer_move_and_a_foreign_hand(
    table: Conflict, campaign: Any, player_a: Any, pc_b: Any
) -> None:
    a = seat_of(player_a, campaign)
    with pytest.raises(ConflictError, match="Only the Dealer"):
        move(table, a, engine.Deal(salt=""))
    with pytest.raises(ConflictError, match="not your hand"):
        move(table, a, engine.Propose(f"c{pc_b.pk}", ("hand", "eye")))
    table.refresh_from_db()
    assert table.version == 0


def test_it_ignores_a_double_click_and_refuses_a_stale_form(
    table: Conflict, campaign: Any, player_a: Any, pc_a: Any
) -> None:
    a = seat_of(player_a, campaign)
    pa = f"c{pc_a.pk}"
    move(table, a, engine.SpendExtraCard(pa), key="click-1")
    again = conflict_move(
        conflict_id=table.pk, membership=a, move=engine.SpendExtraCard(pa), version=0,
        key="click-1",
    )  # fmt: skip
    assert again.version == 1
    assert ChipEntry.objects.filter(conflict=table).count() == 1
    with pytest.raises(StaleMove):
        conflict_move(
            conflict_id=table.pk, membership=a, move=engine.Propose(pa, ("hand", "eye")),
            version=0,
        )  # fmt: skip


def test_it_refuses_a_chip_the_player_does_not_have_and_changes_nothing_R15(
    table: Conflict, campaign: Any, player_b: Any, pc_b: Any
) -> None:
    b = seat_of(player_b, campaign)  # pc_b starts with no chips
    with pytest.raises(ConflictError, match="chip"):
        move(table, b, engine.SpendExtraCard(f"c{pc_b.pk}"))
    table.refresh_from_db()
    assert table.version == 0
    assert not state(table).participant(f"c{pc_b.pk}").extra_card
