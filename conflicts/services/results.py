"""What a finished conflict does to the characters: Difficulty taken (R9, R19a), a won recovery
(R22), each in the characters' history, and a last stand leaving play (R17)."""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import (
    F,
)
from django.db.models.functions import Greatest

from characters.models import AttributeChange, Character
from characters.rules import ATTRIBUTES
from characters.services import characters_leave_play_now
from conflicts.engine import conflict as engine
from conflicts.models import Conflict, Seat


def apply_results(
    state: engine.ConflictState, seats: Mapping[str, Seat], conflict: Conflict | None = None
) -> list[str]:
    """The conflict is over: Difficulty taken (R9), a won recovery (R22) — both go into the
    characters' history (AttributeChange) — and a last stand's character leaves play (R17)."""
    leaving = [seats[pid].character for pid in engine.leaving_play(state)]
    characters_leave_play_now(character_ids=[c.pk for c in leaving if c is not None])
    lines: list[str] = []
    for pid, losses in engine.attribute_losses(state).items():
        character = seats[pid].character
        if character is None or not losses:
            continue
        before = _currents(character.pk)  # locked: the history's "before" is exact
        for a, n in losses.items():  # R19a: values changed since the points were placed
            if n > before[a]:
                lost = n - before[a]
                lines.append(
                    f"{character.name}: {lost} point{'s' if lost != 1 else ''} of Difficulty on "
                    f"{a.title()} could not be placed: {a.title()} is already {before[a]} (R9)."
                )
        Character.objects.filter(pk=character.pk).update(
            **{f"{a}_current": Greatest(F(f"{a}_current") - n, 0) for a, n in losses.items()}
        )
        _record(character, before, AttributeChange.Reason.DIFFICULTY, conflict)
    if engine.recovery_won(state) and state.recovery is not None:
        pid, points = state.recovery
        character = seats[pid].character
        if character is not None:
            before = _currents(character.pk)
            character = Character.objects.get(pk=character.pk)  # our own: the seat's is shared
            # The points go back where the most Difficulty was taken; an attribute at 0 does
            # not recover (R17, R22).
            for _ in range(points):
                hurt = [
                    a for a in ATTRIBUTES
                    if 0 < character.current(a) < character.rating(a)
                ]  # fmt: skip
                if not hurt:
                    break
                worst = max(hurt, key=lambda a: character.rating(a) - character.current(a))
                setattr(character, f"{worst}_current", character.current(worst) + 1)
            character.save(update_fields=[f"{a}_current" for a in ATTRIBUTES])
            _record(character, before, AttributeChange.Reason.RESTORE, conflict)
    return lines


def _currents(character_id: int) -> dict[str, int]:
    row = Character.objects.select_for_update().values(*(f"{a}_current" for a in ATTRIBUTES))
    values = row.get(pk=character_id)
    return {a: int(values[f"{a}_current"]) for a in ATTRIBUTES}


def _record(
    character: Character, before: Mapping[str, int], reason: str, conflict: Conflict | None
) -> None:
    """One history row per attribute that changed (characters.AttributeChange)."""
    after = _currents(character.pk)
    from dustdevils.live import broadcast as live

    live.publish_on_commit(f"character-{character.pk}")  # open sheets refresh
    AttributeChange.objects.bulk_create(
        AttributeChange(
            character_id=character.pk,
            session_id=conflict.session_id if conflict else None,
            conflict=conflict,
            attribute=a,
            before=before[a],
            after=after[a],
            reason=reason,
        )
        for a in ATTRIBUTES
        if before[a] != after[a]
    )
