"""Sheets: making, editing and approving a character, and leaving play (R17)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaigns import streams as campaign_page
from campaigns.models import Campaign, GameSession
from characters.models import AttributeChange, Character, Knack
from characters.rules import (
    ATTRIBUTES,
    Problem,
    check_sheet,
)
from characters.selectors import bought_points
from characters.services.errors import CharacterError, refuse_if_out
from dustdevils.live import broadcast as live

# --- Sheets -----------------------------------------------------------------------------------


def _sheet_problems(
    *,
    is_pc: bool,
    data: Mapping[str, Any],
    knacks: Mapping[str, int],
    bought: tuple[int, int] = (0, 0),
) -> tuple[Problem, ...]:
    summary = check_sheet(
        is_pc=is_pc,
        ratings={name: int(data.get(name, 0)) for name in ATTRIBUTES},
        traits=[data.get("trait_1", ""), data.get("trait_2", "")],
        knacks=knacks,
        devil=data.get("devil", ""),
        devil_rating=data.get("devil_rating"),
        bought_attribute_points=bought[0],
        bought_knack_points=bought[1],
    )
    return summary.problems


SHEET_FIELDS = (
    "name", "vocation", "description", "back_story", "trait_1", "trait_2", "devil", "devil_rating",
    "secrets",
)  # fmt: skip


def character_create(
    *,
    campaign: Campaign,
    kind: str,
    player: User | None,
    data: Mapping[str, Any],
    knacks: Mapping[str, int],
    currents: Mapping[str, int] | None = None,
    check_rules: bool = True,
    approved: bool = True,
) -> Character:
    """Create a character from checked sheet data. Player characters follow R28; non-player
    characters are free. ``currents`` (R29) default to the ratings. A player making their
    own character passes ``approved=False``: it waits for the Dealer (``character_approve``)
    before it can be seated. Only a non-player character keeps ``secrets``."""
    is_pc = kind == Character.Kind.PC
    if not str(data.get("name", "")).strip():
        raise CharacterError("Give the character a name.", [Problem("name", "A name is needed.")])
    if check_rules:
        problems = _sheet_problems(is_pc=is_pc, data=data, knacks=knacks)
        if problems:
            raise CharacterError("The sheet does not follow the rules yet.", problems)
    if is_pc and player is None:
        raise CharacterError("A player character needs a player.")
    values = {field: data.get(field, "") for field in SHEET_FIELDS}
    values["devil_rating"] = data.get("devil_rating") or None
    if is_pc:
        values["secrets"] = ""
    for name in ATTRIBUTES:
        values[name] = int(data.get(name, 0))
        current = (currents or {}).get(name, values[name])
        values[f"{name}_current"] = min(int(current), values[name])
    with transaction.atomic():
        character = Character.objects.create(
            campaign=campaign,
            kind=kind,
            player=player if is_pc else None,
            approved=approved or not is_pc,
            **values,
        )
        Knack.objects.bulk_create(
            Knack(character=character, name=name, rating=rating) for name, rating in knacks.items()
        )
        campaign_page.announce(campaign.pk)
    return character


def character_update(
    *,
    character_id: int,
    data: Mapping[str, Any],
    knacks: Mapping[str, int],
    check_rules: bool = True,
    currents: Mapping[str, int] | None = None,
    by_dealer: bool = True,
) -> Character:
    """Rewrite a sheet (the editing form). Changing a rating keeps the Difficulty taken: the
    current value moves with the rating (R29). ``currents`` sets the current values outright
    (the Dealer editing a non-player character); each is kept within 0 and its rating.

    A player character's point totals are R28's 13 and 11 plus whatever its player has bought
    with chips since (R15), so an improved sheet can still be edited.

    Once the Dealer has approved a player character, its player (``by_dealer=False``) no
    longer moves rating points: attributes change by Difficulty, recovery, chips and the
    Dealer's edits only, and knacks by chips. The Dealer's edits of an approved sheet go into
    its history (``AttributeChange``, "Set by the Dealer")."""
    with transaction.atomic():
        character = Character.objects.select_for_update().get(pk=character_id)
        refuse_if_out(character)
        if not str(data.get("name", "")).strip():
            raise CharacterError(
                "Give the character a name.", [Problem("name", "A name is needed.")]
            )
        if check_rules:
            bought = bought_points(character.pk) if character.is_pc else (0, 0)
            problems = _sheet_problems(
                is_pc=character.is_pc, data=data, knacks=knacks, bought=bought
            )
            if problems:
                raise CharacterError("The sheet does not follow the rules yet.", problems)
        if not by_dealer and character.is_pc and character.approved:
            _refuse_rating_moves(character, data, knacks)
        before = {name: (character.rating(name), character.current(name)) for name in ATTRIBUTES}
        for field in SHEET_FIELDS:
            setattr(character, field, data.get(field, ""))
        character.devil_rating = data.get("devil_rating") or None
        if character.is_pc:
            character.secrets = ""
        for name in ATTRIBUTES:
            taken = character.rating(name) - character.current(name)
            new = int(data.get(name, 0))
            setattr(character, name, new)
            if currents is not None and name in currents:
                setattr(character, f"{name}_current", max(0, min(int(currents[name]), new)))
            else:
                setattr(character, f"{name}_current", max(0, new - taken))
        character.save()
        if by_dealer and character.approved:
            _record_dealer_edit(character, before)
        character.knacks.all().delete()
        Knack.objects.bulk_create(
            Knack(character=character, name=name, rating=rating) for name, rating in knacks.items()
        )
        return character


LOCKED_RATINGS = (
    "Once the Dealer has approved a sheet its ratings are set: attributes change by Difficulty, "
    "recovery, chips and the Dealer only, knacks by chips. Ask the Dealer for a change."
)


LOCKED_TRAITS = (
    "Once the Dealer has approved a sheet its traits are set: a trait is an extra card in the "
    "Deal (R11). Ask the Dealer for a change."
)


def _refuse_rating_moves(
    character: Character, data: Mapping[str, Any], knacks: Mapping[str, int]
) -> None:
    """A player's edit of an approved sheet: any attribute rating, knack or trait changed is
    refused."""
    if any(int(data.get(n, 0)) != character.rating(n) for n in ATTRIBUTES):
        raise CharacterError(LOCKED_RATINGS, [Problem("attributes", LOCKED_RATINGS)])
    have = dict(character.knacks.values_list("name", "rating"))
    if dict(knacks) != have:
        raise CharacterError(LOCKED_RATINGS, [Problem("knacks", LOCKED_RATINGS)])
    if [data.get("trait_1", ""), data.get("trait_2", "")] != [character.trait_1, character.trait_2]:
        raise CharacterError(LOCKED_TRAITS, [Problem("traits", LOCKED_TRAITS)])


def _record_dealer_edit(character: Character, before: Mapping[str, tuple[int, int]]) -> None:
    """One history row per attribute the Dealer changed: the rating's change, or (the rating
    kept) the current value's."""
    session = GameSession.objects.filter(
        campaign_id=character.campaign_id, status=GameSession.Status.OPEN
    ).first()
    rows = []
    for name in ATTRIBUTES:
        (rating, current), now = before[name], (character.rating(name), character.current(name))
        if now[0] != rating:
            was, after = rating, now[0]
        elif now[1] != current:
            was, after = current, now[1]
        else:
            continue
        rows.append(
            AttributeChange(
                character=character, session=session, attribute=name, before=was, after=after,
                reason=AttributeChange.Reason.DEALER_EDIT,
            )
        )  # fmt: skip
    if rows:
        AttributeChange.objects.bulk_create(rows)
        live.publish_on_commit(f"character-{character.pk}")


def character_approve(*, character_id: int, actor: User | None) -> Character:
    """The Dealer approves a player's new character: from now on it can be seated in a
    conflict (``selectors.in_play``) and its player no longer moves rating points."""
    with transaction.atomic():
        character = Character.objects.select_for_update().get(pk=character_id)
        refuse_if_out(character)
        if not character.approved:
            character.approved = True
            character.save(update_fields=["approved", "updated_at"])
            live.publish_on_commit(f"character-{character.pk}")
            campaign_page.announce(character.campaign_id)
        return character


# --- Leaving play (R17) ------------------------------------------------------------------------


def characters_leave_play_now(*, character_ids: Sequence[int]) -> None:
    """R17: the conflict that used a 0 attribute is over — these characters leave play at
    once, in the same transaction as its end; their players write the end afterwards
    (``character_leave_play``). Nothing can seat them again (``selectors.in_play``)."""
    if character_ids:
        Character.objects.filter(pk__in=character_ids, out_of_play=False).update(
            out_of_play=True, left_play_at=timezone.now()
        )
        for pk in character_ids:
            live.publish_on_commit(f"character-{pk}")


def character_leave_play(
    *, character_id: int, fate: str, epitaph: str, actor: User | None
) -> Character:
    """R17: a character on the Road to Hell (an attribute at 0) leaves play; the player writes
    the end: a fate (dies, retires, goes mad, settles down, moves on, or their own words) and an
    epitaph. The sheet is kept, read-only. ``actor`` is who wrote it (the caller checks that
    they may). A character whose last conflict already took it out of play writes its end
    here too, once."""
    epitaph = epitaph.strip()
    if fate not in Character.Fate.values:
        raise CharacterError(
            "Choose how the story ends.", [Problem("fate", "Choose one of the fates.")]
        )
    if not epitaph:
        raise CharacterError(
            "Write the epitaph.",
            [Problem("epitaph", "Write a few words for the headstone, or the last word.")],
        )
    with transaction.atomic():
        character = Character.objects.select_for_update().get(pk=character_id)
        if not character.awaiting_epitaph:
            refuse_if_out(character)
        if not character.road_to_hell_attributes:
            raise CharacterError(
                f"{character.name} is not on the Road to Hell: a character leaves play only "
                "once an attribute is at 0."
            )
        character.out_of_play = True
        character.fate = fate
        character.epitaph = epitaph
        character.left_play_at = character.left_play_at or timezone.now()
        character.save(update_fields=["out_of_play", "fate", "epitaph", "left_play_at"])
        return character
