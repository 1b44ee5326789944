"""The chip ledger (R15): every change of a character's chips is a ledger row, under a lock, with
an idempotency key so a double click is done once.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F

from campaigns import streams as campaign_page
from campaigns.models import GameSession
from characters.models import Character, ChipEntry
from characters.services.errors import AlreadyDone, CharacterError, NotEnoughChips
from conflicts.models import Conflict
from dustdevils.live import broadcast as live

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
