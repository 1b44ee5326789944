"""The chip ledger under concurrent spends, on real PostgreSQL (R15): the row lock serialises
them and the database's own check (chips ≥ 0) is the last line. Never a negative balance."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.models import Sum

from characters.models import Character, ChipEntry
from characters.services import (
    CharacterError,
    NotEnoughChips,
    attribute_improve,
    chips_change,
    chips_grant,
)
from tests.kit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def outcomes(threads: int, action: Callable[[], Any]) -> list[str]:
    """``action`` in ``threads`` threads at once (tests.kit.race), each outcome in words."""

    def outcome(result: object) -> str:
        if isinstance(result, NotEnoughChips):
            return "not enough"
        if isinstance(result, CharacterError):
            return str(result)
        if isinstance(result, Exception):
            raise result
        return "ok"

    return [outcome(r) for r in race(threads, lambda _: action())]


def test_it_lets_exactly_three_of_eight_spends_through_R15(pc_a: Any) -> None:
    """8 threads each spend 1 chip from a character with 3: exactly 3 succeed."""
    assert connection.vendor == "postgresql"
    results = outcomes(
        8, lambda: chips_change(character_id=pc_a.pk, amount=-1, reason="extra_card")
    )
    assert sorted(results) == ["not enough"] * 5 + ["ok"] * 3
    assert Character.objects.get(pk=pc_a.pk).chips == 0
    entries = ChipEntry.objects.filter(character=pc_a)
    assert entries.aggregate(total=Sum("amount"))["total"] == 0
    assert min(entries.values_list("balance_after", flat=True)) == 0
    # Each spend saw the balance the one before left: 3 (granted), then 2, 1, 0.
    assert sorted(entries.values_list("balance_after", flat=True), reverse=True) == [3, 2, 1, 0]


def test_it_sells_an_attribute_point_once_when_players_click_together_R15(pc_a: Any) -> None:
    """Abe (Hand 4, 13 chips after a grant) double-clicks "Hand 4 → 5" on four devices: one
    sale of 10 chips; the rest are told Hand is at 5 or that the chips are gone."""
    chips_grant(character_id=pc_a.pk, amount=10, actor=None)
    results = outcomes(
        4, lambda: attribute_improve(character_id=pc_a.pk, attribute="hand", actor=None)
    )
    assert results.count("ok") == 1
    abe = Character.objects.get(pk=pc_a.pk)
    assert (abe.hand, abe.hand_current, abe.chips) == (5, 5, 3)
    assert ChipEntry.objects.filter(character=pc_a, reason="improve_attribute").count() == 1


@pytest.mark.parametrize("action", ["attribute", "grant"])
def test_it_applies_twenty_identical_requests_once_R15(action: str, pc_a: Any) -> None:
    """Twenty threads send the same form (the same key) at once: one change, one ledger row;
    the others are told it was done already (issue 19, double submission)."""
    from characters.services import AlreadyDone

    chips_grant(character_id=pc_a.pk, amount=20, actor=None)
    key = "twenty-at-once"

    def once() -> None:
        try:
            if action == "attribute":
                attribute_improve(character_id=pc_a.pk, attribute="heart", actor=None, key=key)
            else:
                chips_grant(character_id=pc_a.pk, amount=1, actor=None, key=key)
        except AlreadyDone as repeat:
            raise CharacterError("done already") from repeat

    results = outcomes(20, once)
    assert sorted(results) == ["done already"] * 19 + ["ok"]
    abe = Character.objects.get(pk=pc_a.pk)
    assert ChipEntry.objects.filter(character=pc_a, key=key).count() == 1
    if action == "attribute":
        assert (abe.heart, abe.chips) == (4, 23 - 8)
    else:
        assert abe.chips == 24
