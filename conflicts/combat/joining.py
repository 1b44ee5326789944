"""Reads for bringing a combatant into a fight under way (the Dealer's "Someone joins" form)."""

from __future__ import annotations

from collections.abc import Iterable

from characters.models import Character
from characters.selectors import in_play
from conflicts.combat.models import Fight, FightSeat


def join_choices(fight: Fight, seats: Iterable[FightSeat]) -> list[Character]:
    """The campaign's characters in play (R17) not already in the fight: PCs first, by name.
    One query; only the Dealer's console asks."""
    seated = {s.character_id for s in seats if s.character_id is not None}
    return sorted(
        (c for c in in_play(fight.campaign) if c.pk not in seated),
        key=lambda c: (not c.is_pc, c.name),
    )
