"""Writes to campaigns: creating one, invitations, seats at the table and the Dealer's role."""

from __future__ import annotations

import base64
import datetime
import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.text import slugify

from campaigns import streams as campaign_page
from campaigns.models import (
    Campaign,
    DevilRating,
    GameSession,
    Invite,
    Membership,
    Note,
    WantedLink,
    hash_token,
)
from characters.models import Character

INVITE_DAYS = 7
SLUG_TRIES = 5


class CampaignError(ValueError):
    """The action is refused; the message says why in plain words."""


def _unique_slug(base: str, *, raced: bool = False) -> str:
    """``base`` (a slug), numbered on ("deadwood-2") when it is taken. ``raced``: another table
    took the slug between the look-up and the insert; a random tail then, so twenty tables of
    one name opened at once do not race for each next number in turn."""
    if raced:
        base = f"{base[:120]}-{secrets.token_hex(3)}"
    slug, n = base, 2
    while Campaign.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def campaign_insert(*, slug: str, **fields: Any) -> Campaign:
    """A new campaign row at ``slug``, or numbered on from it when that is taken — also when
    another campaign takes it at the same moment (the create form's and an import's race):
    each try in a savepoint, the next look-up sees the winner. ``CampaignError`` after
    ``SLUG_TRIES`` lost races. Call it inside a transaction."""
    for attempt in range(SLUG_TRIES):
        try:
            with transaction.atomic():
                return Campaign.objects.create(slug=_unique_slug(slug, raced=attempt > 0), **fields)
        except IntegrityError:
            if attempt == SLUG_TRIES - 1:
                raise CampaignError("Too many tables are opening at once: try again.") from None
    raise AssertionError("unreachable")


def campaign_create(
    *,
    dealer: User,
    name: str,
    setting: str = "",
    pitch: str = "",
    kind: str = Campaign.Kind.CAMPAIGN,
) -> Campaign:
    """A new campaign (or a one-off table: ``kind``), with its creator seated as the Dealer."""
    name = " ".join(name.split())
    if not name:
        raise CampaignError("Give the campaign a name.")
    with transaction.atomic():
        campaign = campaign_insert(
            slug=slugify(name)[:120] or "campaign", name=name, setting=setting, pitch=pitch,
            kind=kind,
        )  # fmt: skip
        Membership.objects.create(campaign=campaign, user=dealer, role=Membership.Role.DEALER)
    return campaign


def invite_token(*, actor: User, key: str) -> str:
    """The token of the invitation made by ``actor``'s form ``key``: an HMAC under the server's
    secret key, so the same form sent again can show its link again (``tables.once``) while
    nobody without that secret can work a token out."""
    digest = salted_hmac("campaigns.invite", f"{actor.pk}:{key}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def invite_create(
    *, campaign: Campaign, actor: User, label: str = "", days: int = INVITE_DAYS, key: str = ""
) -> tuple[Invite, str]:
    """A single-use invitation link. Returns the invite and the raw token, which is shown once
    and never stored (only its hash is). With a form's ``key`` the token is ``invite_token``'s,
    else random."""
    token = invite_token(actor=actor, key=key) if key else secrets.token_urlsafe(24)
    invite = Invite.objects.create(
        campaign=campaign,
        token_hash=hash_token(token),
        label=label[:80],
        created_by=actor,
        expires_at=timezone.now() + timedelta(days=days),
    )
    return invite, token


def invite_revoke(*, invite: Invite) -> Invite:
    if invite.used_at:
        raise CampaignError("That invitation has already been used.")
    if not invite.revoked_at:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


def invite_lookup(token: str) -> Invite | None:
    return Invite.objects.select_related("campaign").filter(token_hash=hash_token(token)).first()


def invite_accept(*, token: str, user: User) -> Membership:
    """Seat ``user`` at the invitation's campaign. Single use: the invite row is locked, so two
    people following the same link at once cannot both get in."""
    with transaction.atomic():
        invite = (
            Invite.objects.select_for_update()
            .select_related("campaign")
            .filter(token_hash=hash_token(token))
            .first()
        )
        if invite is None:
            raise CampaignError("That invitation link is not valid. Ask for a new one.")
        existing = Membership.objects.filter(campaign=invite.campaign, user=user).first()
        if existing is not None:
            return existing  # already seated: following the link again changes nothing
        who = "The host" if invite.campaign.is_one_off else "The Dealer"
        if invite.status == "revoked":
            raise CampaignError(f"{who} has withdrawn that invitation.")
        if invite.status == "used":
            raise CampaignError("That invitation has already been used. Ask for a new one.")
        if invite.status == "expired":
            raise CampaignError(f"That invitation has expired. Ask {who.lower()} for a new one.")
        invite.used_at = timezone.now()
        invite.used_by = user
        invite.save(update_fields=["used_at", "used_by"])
        seat = Membership.objects.create(
            campaign=invite.campaign, user=user, role=Membership.Role.PLAYER
        )
        campaign_page.announce(invite.campaign_id)  # a one-off table's lobby shows the arrival
    return seat


def member_remove(*, membership: Membership) -> None:
    """Take a player's seat. Their characters stay in the campaign's records."""
    if membership.is_dealer:
        raise CampaignError("The Dealer cannot be removed; hand the Dealer role on first.")
    membership.delete()


def dealer_hand_over(*, campaign: Campaign, to_membership: Membership) -> Membership:
    """Make another member the Dealer; the old Dealer stays on as a player."""
    if to_membership.campaign_id != campaign.pk:
        raise CampaignError("That person is not at this table.")
    if to_membership.is_dealer:
        return to_membership
    with transaction.atomic():
        list(Membership.objects.select_for_update().filter(campaign=campaign))
        Membership.objects.filter(campaign=campaign, role=Membership.Role.DEALER).update(
            role=Membership.Role.PLAYER
        )
        to_membership.role = Membership.Role.DEALER
        to_membership.save(update_fields=["role"])
    return to_membership


def note_save(*, campaign: Campaign, title: str, body: str, note: Note | None = None) -> Note:
    title = " ".join(title.split())
    if not title:
        raise CampaignError("Give the note a title.")
    if note is None:
        position = campaign.notes.count()
        return Note.objects.create(campaign=campaign, title=title, body=body, position=position)
    note.title, note.body = title, body
    note.save(update_fields=["title", "body", "updated_at"])
    return note


def session_plan(
    *, campaign: Campaign, date: datetime.date | None = None, notes: str = ""
) -> GameSession:
    """Add the next numbered session."""
    with transaction.atomic():
        # The campaign's row, not its last session's: with no session yet there is no row to
        # lock, and two plans at once would both take number 1.
        Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk").first()
        last = GameSession.objects.filter(campaign=campaign).order_by("-number").first()
        number = (last.number + 1) if last else 1
        return GameSession.objects.create(campaign=campaign, number=number, date=date, notes=notes)


# --- Dealer prep: notes and Wanted! links --------------------------------------------------------


def note_delete(*, note: Note) -> None:
    note.delete()


def note_move(*, note: Note, direction: str) -> Note:
    """Move a note one place up or down the Dealer's list."""
    if direction not in {"up", "down"}:
        raise CampaignError("A note moves up or down.")
    with transaction.atomic():
        notes = list(Note.objects.select_for_update().filter(campaign_id=note.campaign_id))
        index = next(i for i, n in enumerate(notes) if n.pk == note.pk)
        other = index - 1 if direction == "up" else index + 1
        if 0 <= other < len(notes):
            notes[index], notes[other] = notes[other], notes[index]
        # Renumber the whole list: positions may have gaps or ties after deletions.
        for position, each in enumerate(notes):
            if each.position != position:
                each.position = position
                each.save(update_fields=["position"])
    note.refresh_from_db()
    return note


def wanted_link_save(
    *,
    campaign: Campaign,
    npc: Character,
    pc: Character,
    devil_touched: str = "",
    notes: str = "",
    link: WantedLink | None = None,
) -> WantedLink:
    """Tie a non-player character to a player character's Devil (WANTED!, RAW DEALER)."""
    if npc.campaign_id != campaign.pk or npc.is_pc:
        raise CampaignError("Pick a non-player character of this campaign.")
    if pc.campaign_id != campaign.pk or not pc.is_pc:
        raise CampaignError("Pick a player character of this campaign.")
    clash = WantedLink.objects.filter(npc=npc, pc=pc)
    if link is not None:
        clash = clash.exclude(pk=link.pk)
    if clash.exists():
        raise CampaignError(f"{npc.name} and {pc.name} are already linked: edit that link.")
    if link is None:
        link = WantedLink(campaign=campaign)
    link.npc, link.pc = npc, pc
    link.devil_touched, link.notes = devil_touched.strip(), notes.strip()
    try:
        with transaction.atomic():  # the same link saved at the same moment by another request
            link.save()
    except IntegrityError:
        linked = f"{npc.name} and {pc.name} are already linked: edit that link."
        raise CampaignError(linked) from None
    return link


def wanted_link_delete(*, link: WantedLink) -> None:
    link.delete()


# --- Sessions: Devil ratings (R21) ----------------------------------------------------------------


class NotYourCharacter(PermissionDenied):
    """A player tried to set the Devil rating of a character that is not theirs."""


def devil_rating_set(
    *, session: GameSession, character: Character, rating: int, actor: User
) -> DevilRating:
    """R21: each player sets their own character's Devil rating (1–3) for the session; the
    Dealer sets the non-player characters' and may set anyone's."""
    if character.campaign_id != session.campaign_id:
        raise CampaignError(f"{character.name} is not in this campaign.")
    seat = Membership.objects.filter(campaign_id=session.campaign_id, user=actor).first()
    is_dealer = seat is not None and seat.is_dealer
    if not is_dealer and not (seat and character.is_pc and character.player_id == actor.pk):
        who = "player character" if character.is_pc else "non-player character"
        raise NotYourCharacter(
            f"{character.name} is not your character: only their player or the Dealer can set "
            f"a {who}'s Devil rating."
        )
    if rating not in (1, 2, 3):
        raise CampaignError(f"A Devil rating is 1, 2 or 3 (R21), not {rating}.")
    if character.out_of_play:
        raise CampaignError(f"{character.name} is out of play.")
    if not character.is_pc and not character.is_important:
        raise CampaignError(f"{character.name} has no Devil to rate.")
    if session.status == GameSession.Status.ENDED:
        raise CampaignError(
            f"Session {session.number} has ended; its Devil ratings stay as they were."
        )
    record, _ = DevilRating.objects.update_or_create(
        session=session, character=character, defaults={"rating": rating, "set_by": actor}
    )
    campaign_page.announce(session.campaign_id)  # open session pages show it
    return record
