"""Reads for the campaign pages. What a viewer may see is decided here, in one place: a player
gets public projections of non-player characters, never the Dealer's full rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, QuerySet
from django.urls import NoReverseMatch

from campaigns.models import (
    Campaign,
    DevilRating,
    GameSession,
    Invite,
    Membership,
    Note,
    WantedLink,
)
from characters.models import Character
from tables.running import running_for


def display_name(user: User | None) -> str:
    if user is None:
        return "nobody"
    return user.first_name or user.get_username()


def sheet_url(character: Character) -> str | None:
    """The character's sheet, or None while the characters app has no sheet page yet."""
    try:
        return character.get_absolute_url()
    except NoReverseMatch:
        return None


# --- Home ---------------------------------------------------------------------------------------


def tables_for(user: User) -> list[Membership]:
    """The campaigns ``user`` sits at, with their seat (role), by campaign name. Not the
    one-off tables (``oneoff_tables_for``)."""
    return list(
        Membership.objects.filter(user=user, campaign__kind=Campaign.Kind.CAMPAIGN)
        .select_related("campaign")
        .order_by("campaign__name", "campaign_id")
    )


def home_tables(user: User) -> dict[str, list[Membership]]:
    """The home page's two lists: campaigns (``tables``) and one-off tables (``oneoffs``)."""
    return {"tables": tables_for(user), "oneoffs": oneoff_tables_for(user)}


def oneoff_tables_for(user: User) -> list[Membership]:
    """The one-off tables ``user`` sits at (their seat: the host's is the Dealer's chair),
    newest first, each with ``campaign.seated``: how many sit there."""
    return list(
        Membership.objects.filter(user=user, campaign__kind=Campaign.Kind.ONE_OFF)
        .select_related("campaign")
        .annotate(seated=Count("campaign__memberships"))
        .order_by("-campaign__created_at", "-campaign_id")
    )


# --- The campaign page ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerCharacterRow:
    character: Character
    player_name: str
    seated: bool  # False once the player has left the table; the sheet stays
    url: str | None


@dataclass(frozen=True)
class PublicNpc:
    """What players may know of a non-player character: name, vocation and description."""

    name: str
    vocation: str
    description: str


@dataclass(frozen=True)
class DealerNpc:
    character: Character
    url: str | None


def player_characters(campaign: Campaign) -> list[PlayerCharacterRow]:
    seated = set(Membership.objects.filter(campaign=campaign).values_list("user_id", flat=True))
    pcs = campaign.characters.filter(kind=Character.Kind.PC).select_related("player", "campaign")
    return [
        PlayerCharacterRow(
            character=pc,
            player_name=display_name(pc.player),
            seated=pc.player_id in seated,
            url=sheet_url(pc),
        )
        for pc in pcs.order_by("out_of_play", "name")
    ]


def npcs_for_dealer(campaign: Campaign) -> list[DealerNpc]:
    """Every non-player character; the important ones (with a Devil, R12) first."""
    npcs = campaign.characters.filter(kind=Character.Kind.NPC).select_related("campaign")
    ordered = sorted(npcs, key=lambda c: (not c.is_important, c.out_of_play, c.name.lower()))
    return [DealerNpc(character=npc, url=sheet_url(npc)) for npc in ordered]


def npcs_for_player(campaign: Campaign) -> list[PublicNpc]:
    """Names, vocations and descriptions only, by name: not even which ones have a Devil."""
    rows = (
        campaign.characters.filter(kind=Character.Kind.NPC, out_of_play=False)
        .order_by("name")
        .values_list("name", "vocation", "description")
    )
    return [PublicNpc(name=n, vocation=v, description=d) for n, v, d in rows]


# The long lists are querysets: the page reads one page of each (dustdevils.paging).


def notes_of(campaign: Campaign) -> QuerySet[Note]:
    return campaign.notes.all()


def wanted_links_of(campaign: Campaign) -> QuerySet[WantedLink]:
    return (
        WantedLink.objects.filter(campaign=campaign)
        .select_related("npc", "pc")
        .order_by("npc__name", "pc__name")
    )


def sessions_of(campaign: Campaign) -> QuerySet[GameSession]:
    return campaign.sessions.order_by("-number")


def campaign_page(membership: Membership) -> dict[str, object]:
    """Everything the campaign page shows to this member."""
    campaign = membership.campaign
    pcs = player_characters(campaign)
    context: dict[str, object] = {
        "campaign": campaign,
        "membership": membership,
        "pcs": pcs,
        "has_pc_in_play": any(
            row.character.player_id == membership.user_id and not row.character.out_of_play
            for row in pcs
        ),
        "sessions": sessions_of(campaign),
        "running": running_for(membership.user, campaign),
    }
    if membership.is_dealer:
        context |= {
            "npcs": npcs_for_dealer(campaign),
            "links": wanted_links_of(campaign),
            "notes": notes_of(campaign),
        }
    else:
        context["public_npcs"] = npcs_for_player(campaign)
    return context


# --- Members and invitations ----------------------------------------------------------------------


def members_of(campaign: Campaign) -> list[Membership]:
    return list(
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .order_by("role", "joined_at")  # "dealer" sorts before "player"
    )


def invites_of(campaign: Campaign) -> list[Invite]:
    return list(campaign.invites.select_related("created_by", "used_by"))


# --- A session's Devil ratings (R21) --------------------------------------------------------------


@dataclass(frozen=True)
class DevilRatingRow:
    character: Character
    rating: int | None  # None until someone sets it for this session
    set_by: str
    can_set: bool


def devil_ratings(session: GameSession, membership: Membership) -> list[DevilRatingRow]:
    """Player characters in play for everyone; important NPCs for the Dealer only."""
    kinds = [Character.Kind.PC, Character.Kind.NPC] if membership.is_dealer else [Character.Kind.PC]
    in_play = session.campaign.characters.filter(kind__in=kinds, out_of_play=False)
    characters = [
        c
        for c in in_play.select_related("player").order_by("-kind", "name")  # "pc" first
        if c.is_pc or c.is_important
    ]
    open_for_ratings = session.status != GameSession.Status.ENDED
    records = {
        r.character_id: r
        for r in DevilRating.objects.filter(session=session).select_related("set_by")
    }
    rows = []
    for character in characters:
        record = records.get(character.pk)
        rows.append(
            DevilRatingRow(
                character=character,
                rating=record.rating if record else None,
                set_by=display_name(record.set_by) if record else "",
                can_set=open_for_ratings
                and (membership.is_dealer or character.player_id == membership.user_id),
            )
        )
    return rows


def devils_to_set(session: GameSession | None, membership: Membership) -> list[Character]:
    """R21: the member's own player characters in play with no Devil rating yet for the
    session being played (the campaign page's call at a session's start)."""
    if session is None or session.status != GameSession.Status.OPEN:
        return []
    return list(
        session.campaign.characters.filter(
            kind=Character.Kind.PC, player_id=membership.user_id, out_of_play=False,
            approved=True,
        )
        .exclude(devil_ratings__session=session)
        .order_by("name")
    )  # fmt: skip


# --- Following an invitation link -----------------------------------------------------------------


def join_page(invite: Invite | None, user: User | AnonymousUser) -> dict[str, Any]:
    """What the invitation page may say. The campaign's name only for a link that still
    works (or for someone already seated there): a dead link reveals nothing."""
    seated = None
    if invite is not None and user.is_authenticated:
        seated = Membership.objects.filter(campaign=invite.campaign, user=user).first()
    state = "invalid" if invite is None else ("seated" if seated else invite.status)
    context: dict[str, Any] = {
        "state": state,
        "status_code": {"invalid": 404, "open": 200, "seated": 200}.get(state, 410),
    }
    if invite is not None and state in {"open", "seated"}:
        context |= {
            "campaign": invite.campaign,
            "inviter": display_name(invite.created_by),
            "expires_at": invite.expires_at,
        }
    return context
