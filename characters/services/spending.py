"""Spending chips between conflicts (R15): improving an attribute or a knack, buying a knack."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F

from characters.models import Character, ChipEntry, Knack
from characters.rules import (
    ATTRIBUTE_LABELS,
    ATTRIBUTE_MAX,
    ATTRIBUTES,
    KNACK_MAX,
    NEW_KNACK_COST,
    attribute_improvement_cost,
    knack_improvement_cost,
    max_knacks,
)
from characters.selectors import spend_hold
from characters.services.chips import chips_change, claim_key
from characters.services.errors import CharacterError, refuse_if_out

# --- Spending chips between conflicts (R15) ---------------------------------------------------


def attribute_improve(
    *, character_id: int, attribute: str, actor: User | None, key: str = ""
) -> Character:
    """Raise an attribute's rating by one for twice the new rating in chips (max 5). The
    current value rises by the same amount (R29)."""
    if attribute not in ATTRIBUTES:
        raise CharacterError(f"There is no attribute called {attribute!r}.")
    label = ATTRIBUTE_LABELS[attribute]
    with transaction.atomic():
        claim_key(character_id, key)
        character = Character.objects.select_for_update().get(pk=character_id)
        refuse_if_out(character)
        _refuse_if_held(character)
        new = character.rating(attribute) + 1
        if new > ATTRIBUTE_MAX:
            raise CharacterError(f"{label} is already {ATTRIBUTE_MAX}, the highest it can go.")
        cost = attribute_improvement_cost(new)
        chips_change(
            character_id=character.pk,
            amount=-cost,
            reason=ChipEntry.Reason.IMPROVE_ATTRIBUTE,
            actor=actor,
            note=f"{label} {new - 1} → {new}",
            key=key,
        )
        Character.objects.filter(pk=character.pk).update(
            **{attribute: F(attribute) + 1, f"{attribute}_current": F(f"{attribute}_current") + 1}
        )
        character.refresh_from_db()
        return character


def knack_improve(*, knack_id: int, actor: User | None, key: str = "") -> Knack:
    """Raise a knack by one for the new rating in chips (max 4)."""
    with transaction.atomic():
        claim_key(Knack.objects.values_list("character_id", flat=True).get(pk=knack_id), key)
        knack = Knack.objects.select_for_update().select_related("character").get(pk=knack_id)
        refuse_if_out(knack.character)
        _refuse_if_held(knack.character)
        new = knack.rating + 1
        if new > KNACK_MAX:
            raise CharacterError(f"{knack.name} is already {KNACK_MAX}, the highest a knack goes.")
        chips_change(
            character_id=knack.character_id,
            amount=-knack_improvement_cost(new),
            reason=ChipEntry.Reason.IMPROVE_KNACK,
            actor=actor,
            note=f"{knack.name} {new - 1} → {new}",
            key=key,
        )
        knack.rating = new
        knack.save(update_fields=["rating"])
        return knack


def knack_buy(*, character_id: int, name: str, actor: User | None, key: str = "") -> Knack:
    """Buy a new knack at 1 for two chips, within the knack limit."""
    name = " ".join(name.split())
    if not name:
        raise CharacterError("Name the new knack.")
    with transaction.atomic():
        claim_key(character_id, key)
        character = Character.objects.select_for_update().get(pk=character_id)
        refuse_if_out(character)
        _refuse_if_held(character)
        existing = list(character.knacks.values_list("name", flat=True))
        if name.lower() in {n.lower() for n in existing}:
            raise CharacterError(f"{character.name} already has {name}.")
        limit = max_knacks(character.hand, character.eye)
        if len(existing) >= limit:
            raise CharacterError(
                f"{character.name} already has {len(existing)} knacks, the most allowed "
                f"(Hand + Eye, or 6 if higher)."
            )
        chips_change(
            character_id=character.pk,
            amount=-NEW_KNACK_COST,
            reason=ChipEntry.Reason.NEW_KNACK,
            actor=actor,
            note=f"{name} 1",
            key=key,
        )
        return Knack.objects.create(character=character, name=name, rating=1)


def _refuse_if_held(character: Character) -> None:
    """R15: chips are spent between conflicts, never at a Call nor with a narration bid open
    (``selectors.spend_hold``). Checked under the character's lock, which every chip change
    takes, so a bid's payment and a spend never both count the same chips."""
    hold = spend_hold(character)
    if hold:
        raise CharacterError(hold)
