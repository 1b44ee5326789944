"""Writes to characters: sheets, the chip ledger and spending chips between conflicts (R15).

Every function is keyword-only, runs in one transaction and raises a ``CharacterError`` (a
``ValueError`` with a plain-words message) when the rules say no; nothing is half-written.
Permission checks belong to the caller (the views use ``campaigns.access``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from campaigns.models import Campaign, GameSession
from characters.models import AttributeChange, Character, ChipEntry, Knack
from characters.rules import (
    ATTRIBUTE_LABELS,
    ATTRIBUTE_MAX,
    ATTRIBUTES,
    KNACK_MAX,
    NEW_KNACK_COST,
    Problem,
    attribute_improvement_cost,
    check_sheet,
    knack_improvement_cost,
    max_knacks,
)
from characters.selectors import bought_points, spend_hold
from conflicts.models import Conflict
from dustdevils.live import broadcast as live
from dustdevils.live import campaign_stream as campaign_page


class CharacterError(ValueError):
    """The rules refuse the change; ``problems`` lists each field's message, if several."""

    def __init__(self, message: str, problems: Sequence[Problem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


class NotEnoughChips(CharacterError):
    pass


class AlreadyDone(CharacterError):
    """The same form was sent again (its idempotency key is in the ledger): nothing more to do.
    Not a refusal: the first submit did what was asked."""


# --- The chip ledger -------------------------------------------------------------------------


def chips_change(
    *,
    character_id: int,
    amount: int,
    reason: str,
    actor: User | None = None,
    note: str = "",
    session: GameSession | None = None,
    conflict: Conflict | None = None,
    key: str = "",
) -> ChipEntry:
    """Add (or, negative, take) chips and write the ledger row, under a row lock.

    The lock serialises concurrent spends; the database's own check (chips ≥ 0) is the last
    line: a balance can never go below zero. ``key`` is the form's idempotency key: the row
    carries it, so the same form sent twice changes chips once (see ``claim_key``).

    The ledger names who spent: a narration bid is paid when the Dealer closes the bidding,
    but it is the bidder's spend (R16), so its row names the character's player.
    """
    if amount == 0:
        raise CharacterError("A chip change must add or take at least one chip.")
    with transaction.atomic():
        character = Character.objects.select_for_update().get(pk=character_id)
        balance = character.chips + amount
        if balance < 0:
            have = character.chips
            raise NotEnoughChips(
                f"{character.name} has {have} chip{'s' if have != 1 else ''}; this costs {-amount}."
            )
        try:
            with transaction.atomic():
                Character.objects.filter(pk=character_id).update(chips=F("chips") + amount)
        except IntegrityError as error:  # pragma: no cover - the lock above prevents it
            raise NotEnoughChips(f"{character.name} does not have enough chips.") from error
        live.publish_on_commit(f"character-{character_id}")  # open sheets refresh their chips
        campaign_page.announce(character.campaign_id)  # and the campaign page its chip counts
        actor_id = actor.pk if actor is not None else None
        if reason == ChipEntry.Reason.NARRATION_BID and character.player_id is not None:
            actor_id = character.player_id
        try:
            with transaction.atomic():
                return ChipEntry.objects.create(
                    character=character,
                    amount=amount,
                    balance_after=balance,
                    reason=reason,
                    note=note[:200],
                    actor_id=actor_id,
                    session=session,
                    conflict=conflict,
                    key=key[:KEY_MAX],
                )
        except IntegrityError as error:  # the key's constraint: claim_key was not called
            raise AlreadyDone(ALREADY_DONE) from error


KEY_MAX = 64
ALREADY_DONE = "That was done already: a second click changes nothing."


def claim_key(character_id: int, key: str) -> None:
    """Lock the character and refuse a form whose key its ledger already holds (a double
    click, a resent form): ``AlreadyDone``, and the caller's transaction writes nothing.

    Called first in a spend, so the repeat is recognised before any rule is checked again
    (a knack raised to 4 by the first click must not answer the second with "already 4").
    Every chip change locks the character row, so the first submit has committed before the
    second looks: the check cannot race."""
    Character.objects.select_for_update().only("pk").get(pk=character_id)
    if key and ChipEntry.objects.filter(character_id=character_id, key=key[:KEY_MAX]).exists():
        raise AlreadyDone(ALREADY_DONE)


def chips_grant(
    *,
    character_id: int,
    amount: int,
    actor: User | None,
    note: str = "",
    reason: str = ChipEntry.Reason.GRANT,
    session: GameSession | None = None,
    key: str = "",
) -> ChipEntry:
    """The Dealer gives chips (starting chips, rewards), with a reason."""
    if amount < 1:
        raise CharacterError("Grant at least one chip.")
    with transaction.atomic():
        claim_key(character_id, key)
        return chips_change(
            character_id=character_id,
            amount=amount,
            reason=reason,
            actor=actor,
            note=note,
            session=session,
            key=key,
        )


def chip_totals(character: Character) -> dict[str, int]:
    """Current, earned and spent, derived from the ledger (R15)."""
    earned = spent = 0
    for amount in character.chip_entries.values_list("amount", flat=True):
        if amount > 0:
            earned += amount
        else:
            spent -= amount
    return {"current": earned - spent, "earned": earned, "spent": spent}


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
        _refuse_if_out(character)
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
        _refuse_if_out(knack.character)
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
        _refuse_if_out(character)
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


def _refuse_if_out(character: Character) -> None:
    if character.out_of_play:
        raise CharacterError(f"{character.name} has left play; the sheet is kept as it was.")


def _refuse_if_held(character: Character) -> None:
    """R15: chips are spent between conflicts, never at a Call nor with a narration bid open
    (``selectors.spend_hold``). Checked under the character's lock, which every chip change
    takes, so a bid's payment and a spend never both count the same chips."""
    hold = spend_hold(character)
    if hold:
        raise CharacterError(hold)


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
        _refuse_if_out(character)
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


def _refuse_rating_moves(
    character: Character, data: Mapping[str, Any], knacks: Mapping[str, int]
) -> None:
    """A player's edit of an approved sheet: any attribute rating or knack changed is refused."""
    if any(int(data.get(n, 0)) != character.rating(n) for n in ATTRIBUTES):
        raise CharacterError(LOCKED_RATINGS, [Problem("attributes", LOCKED_RATINGS)])
    have = dict(character.knacks.values_list("name", "rating"))
    if dict(knacks) != have:
        raise CharacterError(LOCKED_RATINGS, [Problem("knacks", LOCKED_RATINGS)])


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
        _refuse_if_out(character)
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
            _refuse_if_out(character)
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
