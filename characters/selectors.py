"""Reads for the character pages: who may do what with a sheet, what a viewer sees, the ledger
and what chips can buy right now (R15, R17, R28, R29). Writes live in ``services.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from campaigns.models import Campaign, DevilRating, Membership, WantedLink
from characters.models import Character, ChipEntry, Knack
from characters.rules import (
    ATTRIBUTE_LABELS,
    ATTRIBUTE_MAX,
    ATTRIBUTES,
    KNACK_MAX,
    NEW_KNACK_COST,
    attribute_improvement_cost,
    knack_improvement_cost,
)
from conflicts.models import Seat

# --- Loading and permissions -------------------------------------------------------------------


def character_for(membership: Membership, character_id: int) -> Character:
    """A character of the member's campaign; 404 for an id from another campaign (the viewer
    should not learn it exists)."""
    return get_object_or_404(
        Character.objects.select_related("campaign", "player"),
        pk=character_id,
        campaign=membership.campaign,
    )


def is_own(character: Character, membership: Membership) -> bool:
    return character.is_pc and character.player_id == membership.user_id


def may_see_all(character: Character, membership: Membership) -> bool:
    """Player characters are open to the whole table; a non-player character's sheet (beyond
    name, vocation and description) is the Dealer's secret."""
    return character.is_pc or membership.is_dealer


def may_edit(character: Character, membership: Membership) -> bool:
    """A player character: its player or the Dealer. A non-player character: the Dealer."""
    return membership.is_dealer or is_own(character, membership)


def may_spend(character: Character, membership: Membership) -> bool:
    """R15: players spend their own character's chips; the Dealer grants, never spends."""
    return is_own(character, membership)


def may_end(character: Character, membership: Membership) -> bool:
    """R17: the player writes the end. The Dealer may too (for a player who left the table, or
    for a non-player character)."""
    return may_edit(character, membership)


def in_play(campaign: Campaign) -> QuerySet[Character]:
    """The characters that may be seated in a conflict or a fight: never one whose last stand
    took it out of play (R17), nor a player's new character the Dealer has not approved yet.
    The one place set-up forms choose from."""
    return campaign.characters.filter(out_of_play=False, approved=True)


def seated_players(campaign: Campaign) -> QuerySet[User]:
    """Users who sit at the campaign as players (the Dealer can make a PC for one of them)."""
    return User.objects.filter(
        memberships__campaign=campaign, memberships__role=Membership.Role.PLAYER
    ).order_by("username")


# --- What the pages show -----------------------------------------------------------------------


def characters_of(membership: Membership) -> dict[str, list[Character]]:
    """The campaign's player characters and non-player characters, for the list page."""
    rows = list(
        Character.objects.filter(campaign=membership.campaign).select_related("player", "campaign")
    )
    return {
        "pcs": [c for c in rows if c.is_pc],
        "npcs": [c for c in rows if not c.is_pc],
    }


def latest_devil_rating(character: Character) -> DevilRating | None:
    """R21: the Devil rating set for the latest session, if any session set one."""
    return (
        DevilRating.objects.filter(character=character)
        .select_related("session")
        .order_by("-session__number")
        .first()
    )


def wanted_links(character: Character) -> list[WantedLink]:
    """Wanted! (the seed's sheet): important NPCs tied to this character's Devil, or the PCs an
    NPC is tied to. The Dealer's prep; players do not see it."""
    return list(
        WantedLink.objects.filter(Q(pc=character) | Q(npc=character)).select_related("npc", "pc")
    )


def ledger(character: Character) -> QuerySet[ChipEntry]:
    """Every chip earned and spent, oldest first (R15); the page shows it a page at a time."""
    return character.chip_entries.select_related("actor", "session")


def bought_points(character_id: int) -> tuple[int, int]:
    """Points bought with chips since creation (R15): attribute points, and knack points (each
    improvement adds one, each new knack one)."""
    counts = ChipEntry.objects.filter(character_id=character_id).aggregate(
        attribute=Count("id", filter=Q(reason=ChipEntry.Reason.IMPROVE_ATTRIBUTE)),
        knack=Count(
            "id",
            filter=Q(reason__in=[ChipEntry.Reason.IMPROVE_KNACK, ChipEntry.Reason.NEW_KNACK]),
        ),
    )
    return int(counts["attribute"]), int(counts["knack"])


# --- What chips can buy (R15) ------------------------------------------------------------------


def spend_hold(character: Character) -> str:
    """Why the character may not spend chips between conflicts right now, or "": chips are
    spent between conflicts (R15), never while the character is at a conflict's Call (its
    lay still to pick) or has a narration bid open (R16: the bid is paid from the chips held
    when the bidding closes). Read from each running conflict's ``phase`` and engine state:
    a bid is ``state["bids"]`` (``[pid, amount]`` rows) until ``bids_closed``, and the
    narration holder's answer is ``state["answer"]``."""
    seats = (
        Seat.objects.filter(character=character, conflict__phase__in=(CALL_PHASE, BIDDING_PHASE))
        .select_related("conflict")
        .only("pid", "conflict__title", "conflict__phase", "conflict__state")
        .order_by("conflict_id")
    )
    for seat in seats:
        conflict, pid = seat.conflict, seat.pid
        state = conflict.state or {}
        if conflict.phase == CALL_PHASE:
            return (
                f"{character.name} is at the Call of {conflict.title}: spend chips between "
                "conflicts."
            )
        if state.get("bids_closed"):
            continue
        bids = {str(bid[0]) for bid in state.get("bids") or ()}
        answered = state.get("narrator") == pid and int(state.get("answer") or 0) > 0
        if pid in bids or answered:
            return (
                f"{character.name} has a narration bid open in {conflict.title}: spend chips "
                "between conflicts, once the bidding closes."
            )
    return ""


# The engine's phases (conflicts.engine.conflict.Phase) that hold a character's chips.
CALL_PHASE, BIDDING_PHASE = "laying", "resolution"


@dataclass(frozen=True)
class Purchase:
    """One thing the chips could buy, its cost, and why not if it can't be bought now."""

    key: str  # the attribute's name, or the knack's id
    label: str
    cost: int
    why_not: str = ""

    @property
    def allowed(self) -> bool:
        return not self.why_not


@dataclass(frozen=True)
class Purchases:
    attributes: list[Purchase]
    knacks: list[Purchase]
    new_knack: Purchase


def _why_not(character: Character, cost: int) -> str:
    if character.chips < cost:
        return f"Needs {cost} chips; {character.name} has {character.chips}."
    return ""


def purchases(character: Character) -> Purchases:
    """R15: an attribute costs twice the new rating (max 5); a knack one more point costs the
    new rating (max 4); a new knack at 1 costs 2, within max(Hand + Eye, 6) knacks. Nothing
    while the character's chips are held at a conflict (``spend_hold``)."""
    hold = spend_hold(character)
    found = _purchases(character)
    if not hold:
        return found

    def held(p: Purchase) -> Purchase:
        return p if p.why_not else Purchase(p.key, p.label, p.cost, hold)

    return Purchases(
        attributes=[held(p) for p in found.attributes],
        knacks=[held(p) for p in found.knacks],
        new_knack=held(found.new_knack),
    )


def _purchases(character: Character) -> Purchases:
    attributes = []
    for name in ATTRIBUTES:
        label, rating = ATTRIBUTE_LABELS[name], character.rating(name)
        if rating >= ATTRIBUTE_MAX:
            attributes.append(Purchase(name, f"{label} {rating}", 0, f"{label} is at 5, the top."))
            continue
        cost = attribute_improvement_cost(rating + 1)
        attributes.append(
            Purchase(name, f"{label} {rating} → {rating + 1}", cost, _why_not(character, cost))
        )
    knacks = []
    owned: list[Knack] = list(character.knacks.all())
    for knack in owned:
        if knack.rating >= KNACK_MAX:
            why = f"{knack.name} is at {KNACK_MAX}, the top."
            knacks.append(Purchase(str(knack.pk), f"{knack.name} {knack.rating}", 0, why))
            continue
        cost = knack_improvement_cost(knack.rating + 1)
        label = f"{knack.name} {knack.rating} → {knack.rating + 1}"
        knacks.append(Purchase(str(knack.pk), label, cost, _why_not(character, cost)))
    limit = character.knack_limit
    if len(owned) >= limit:
        why = f"{character.name} has {len(owned)} knacks, the most allowed (Hand + Eye, or 6)."
    else:
        why = _why_not(character, NEW_KNACK_COST)
    new_knack = Purchase("new", "A new knack at 1", NEW_KNACK_COST, why)
    return Purchases(attributes=attributes, knacks=knacks, new_knack=new_knack)
