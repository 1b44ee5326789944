"""Chips are spent between conflicts (R15): never while the character is at a conflict's Call
or has a narration bid open (R16), and the ledger names who spent — the bidder's player for a
narration bid, though the Dealer's closing of the bidding is what pays it (issue 18)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from campaigns.models import Membership
from characters.models import ChipEntry
from characters.selectors import purchases, spend_hold
from characters.services import (
    CharacterError,
    attribute_improve,
    chips_grant,
    knack_buy,
    knack_improve,
)
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, conflict_move

pytestmark = pytest.mark.django_db


def seat(user: Any, campaign: Any) -> Membership:
    return Membership.objects.get(user=user, campaign=campaign)


def play(conflict: Conflict, who: Membership, move: engine.Move) -> None:
    conflict.refresh_from_db()
    conflict_move(
        conflict_id=conflict.pk, membership=who, move=move, version=conflict.version,
        rng=random.Random(7),
    )  # fmt: skip


@pytest.fixture
def called(campaign: Any, dealer: Any, pc_a: Any, pc_b: Any) -> Conflict:
    """Abe and Bess against the Dealer's stud, dealt and called: at the Call."""
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="The canyon",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip
    d = seat(dealer, campaign)
    for pc in (pc_a, pc_b):
        play(conflict, d, engine.Approve(f"c{pc.pk}", ("hand", "eye")))
    play(conflict, d, engine.Deal(salt=""))
    play(conflict, d, engine.Call(now=True))
    conflict.refresh_from_db()
    assert conflict.phase == "laying"
    return conflict


def test_a_spend_is_refused_at_the_call(called: Conflict, pc_a: Any, player_a: Any) -> None:
    chips_grant(character_id=pc_a.pk, amount=10, actor=None)
    pc_a.refresh_from_db()
    assert "at the Call of The canyon" in spend_hold(pc_a)
    with pytest.raises(CharacterError, match="Call"):
        attribute_improve(character_id=pc_a.pk, attribute="heart", actor=player_a)
    with pytest.raises(CharacterError, match="Call"):
        knack_improve(knack_id=pc_a.knacks.get(name="Ridin'").pk, actor=player_a)
    with pytest.raises(CharacterError, match="Call"):
        knack_buy(character_id=pc_a.pk, name="Ropin'", actor=player_a)
    pc_a.refresh_from_db()
    assert pc_a.chips == 13
    assert pc_a.heart == 3
    shown = purchases(pc_a)
    assert not any(p.allowed for p in [*shown.attributes, *shown.knacks, shown.new_knack])


def _to_bidding(called: Conflict, campaign: Any, dealer: Any) -> engine.ConflictState:
    play(called, seat(dealer, campaign), engine.Reveal())
    called.refresh_from_db()
    state = state_from_data(called.state)
    assert called.phase == "resolution"
    return state


def test_a_spend_is_refused_while_a_narration_bid_is_open_and_the_ledger_names_the_bidder(
    called: Conflict, campaign: Any, dealer: Any, player_a: Any, player_b: Any,
    pc_a: Any, pc_b: Any,
) -> None:  # fmt: skip
    chips_grant(character_id=pc_a.pk, amount=10, actor=None)
    chips_grant(character_id=pc_b.pk, amount=10, actor=None)
    state = _to_bidding(called, campaign, dealer)
    bidder, user = (pc_b, player_b) if state.narrator == f"c{pc_a.pk}" else (pc_a, player_a)
    other = pc_a if bidder == pc_b else pc_b
    bidder.refresh_from_db()
    assert spend_hold(bidder) == ""  # the bidding is open, but this character has not bid
    play(called, seat(user, campaign), engine.PlaceBid(f"c{bidder.pk}", 2, held=bidder.chips))
    bidder.refresh_from_db()
    assert "narration bid open in The canyon" in spend_hold(bidder)
    assert spend_hold(other) == ""  # in the same bidding, with no bid (nor answer) of its own
    with pytest.raises(CharacterError, match="narration bid"):
        attribute_improve(character_id=bidder.pk, attribute="heart", actor=user)

    play(called, seat(dealer, campaign), engine.CloseBids(held={f"c{bidder.pk}": bidder.chips}))
    bidder.refresh_from_db()
    assert spend_hold(bidder) == ""  # the bidding closed: chips are free again
    entry = ChipEntry.objects.get(character=bidder, reason=ChipEntry.Reason.NARRATION_BID)
    assert entry.amount == -2
    assert entry.actor == user  # the player who bid, not the Dealer who closed the bidding


def test_the_chips_page_says_between_conflicts_and_why_not(
    called: Conflict, campaign: Any, pc_a: Any, client_as: Any, player_a: Any
) -> None:
    chips_grant(character_id=pc_a.pk, amount=10, actor=None)
    page = client_as(player_a).get(f"/c/{campaign.slug}/characters/{pc_a.pk}/chips/")
    text = page.content.decode()
    assert "Between conflicts" in text
    assert "Outside conflicts" not in text
    assert "is at the Call of The canyon" in text
    response = client_as(player_a).post(
        f"/c/{campaign.slug}/characters/{pc_a.pk}/chips/attribute/", {"attribute": "heart"}
    )
    assert "at the Call" in response.content.decode()
    pc_a.refresh_from_db()
    assert pc_a.heart == 3


def test_a_finished_conflict_holds_nothing(
    campaign: Any, dealer: Any, pc_a: Any, pc_b: Any, player_a: Any
) -> None:
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Over",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip
    Conflict.objects.filter(pk=conflict.pk).update(phase="done")
    chips_grant(character_id=pc_a.pk, amount=10, actor=None)
    pc_a.refresh_from_db()
    assert spend_hold(pc_a) == ""
    attribute_improve(character_id=pc_a.pk, attribute="heart", actor=player_a)
