"""Writing a checked campaign file into the database, all or nothing: as a new campaign
(``campaign_import``), over a campaign (``campaign_restore``), or into one (``campaign_fill``,
the starters)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaigns import streams as campaign_page
from campaigns.models import (
    Campaign,
    DevilRating,
    GameSession,
    Membership,
    Note,
    SessionEvent,
    WantedLink,
)
from campaigns.services import CampaignError, campaign_insert
from characters.models import Character, ChipEntry, Knack
from conflicts.models import Conflict, Event, Seat, Snapshot
from exchange.checks import campaign_plan
from exchange.games import games_cleared, games_written
from exchange.plan import RESTORER, Plan, redeal_line
from exchange.reading import MAX_PROBLEMS, ImportRefused
from exchange.showing import unshowable
from tables.codecs import WriteRefs, set_times


@dataclass(frozen=True)
class ImportResult:
    """The campaign written, and what the importing Dealer should know (people left out...)."""

    campaign: Campaign
    warnings: tuple[str, ...] = ()
    # What the import or restore did with each game of the file, in words (exchange.games).
    games: tuple[str, ...] = ()


def campaign_import(
    data: dict[str, Any], *, dealer: User, as_new: bool = True, seat_members: bool = False
) -> ImportResult:
    """Bring a campaign file in with ``dealer`` as its Dealer: checked first, then written in
    one transaction, so a refused file (``ImportRefused``) leaves the database as it was.

    ``as_new`` (the default) makes a new campaign, at the file's slug if it is free here. With
    ``as_new=False`` the file restores the campaign at its slug, which ``dealer`` must deal
    (see ``campaign_restore``).

    Nobody is seated without their consent: by default only ``dealer`` sits at the campaign,
    the file's other members are left out (said plainly, without saying who has an account
    here) and their characters are the Dealer's to hand on. ``seat_members=True`` — the
    operator's ``manage.py import_campaign``, or staff — seats those who have an account."""
    plan = campaign_plan(data)
    slug = plan.campaign["slug"]
    if not as_new:
        campaign = Campaign.objects.filter(
            slug=slug, memberships__user=dealer, memberships__role=Membership.Role.DEALER
        ).first()
        if campaign is None:
            raise ImportRefused(
                [f"campaign.slug: you deal no campaign at /c/{slug}/ to restore; import the "
                 "file as a new campaign instead"]
            )  # fmt: skip
        return _restore(plan, campaign=campaign, dealer=dealer, seat_members=seat_members)
    warnings: list[str] = []
    with transaction.atomic():
        try:  # at the file's slug, or numbered on: also when another import races for it
            campaign = campaign_insert(**plan.campaign)
        except CampaignError as error:
            raise ImportRefused([str(error)]) from None
        if campaign.slug != slug:
            warnings.append(
                f"The address /c/{slug}/ is taken here: this copy is at /c/{campaign.slug}/."
            )
        Membership.objects.create(campaign=campaign, user=dealer, role=Membership.Role.DEALER)
        games = _write(plan, campaign=campaign, dealer=dealer, warnings=warnings, seat=seat_members)
    return ImportResult(campaign, tuple(warnings), tuple(games))


def campaign_restore(
    data: dict[str, Any], *, campaign: Campaign, dealer: User, seat_members: bool = False
) -> ImportResult:
    """Put ``campaign`` back as the file has it: its characters (with their ledgers), links,
    notes, sessions (with their logs) and conflicts (with their seats, timelines and replay
    states) and every other game (fights, saloon, Saloon Showdown, The Gunfighter: a running
    one dealt again, ``exchange.games``) are replaced by the file's (a file before version 3
    has no game: the campaign then has none); its name, setting and pitch too. Seats at the
    table are kept
    (with ``seat_members``, the file's members who have an account here are seated too), and
    ``dealer`` stays the Dealer. The file must be a copy of this campaign (same slug), so a
    file meant for another table cannot overwrite this one. That ``dealer`` deals
    ``campaign`` is the caller's check.
    """
    plan = campaign_plan(data)
    if plan.campaign["slug"] != campaign.slug:
        raise ImportRefused(
            [f"campaign.slug: the file is a copy of /c/{plan.campaign['slug']}/, not of this "
             f"campaign (/c/{campaign.slug}/); import it as a new campaign instead"]
        )  # fmt: skip
    return _restore(plan, campaign=campaign, dealer=dealer, seat_members=seat_members)


def campaign_fill(
    data: dict[str, Any], *, campaign: Campaign, dealer: User, players: Sequence[User] = ()
) -> None:
    """Add a file's characters (with their knacks and chip ledgers), Wanted! links and notes to
    ``campaign``, which ``dealer`` deals: a starter (``exchange.starters``). The campaign takes
    the file's setting and pitch where it has none. ``players`` run the file's player
    characters in the file's order, ``dealer`` the others (the file's own players are not
    looked up); the ledger rows of the file's Dealer are ``dealer``'s, dated now: the
    characters are new here. The file's sessions and conflicts would have nothing to hang on
    here: a file with any is refused. Checked first, then written in one transaction; that
    each of ``players`` sits at the campaign is the caller's check."""
    plan = campaign_plan(data)
    if plan.sessions or plan.conflicts or plan.games:
        raise ImportRefused(
            ["sessions: filling a campaign brings characters, links and notes; this file also "
             "has sessions, conflicts or games: import it as a new campaign instead"]
        )  # fmt: skip
    hands = iter(players)
    owners = [
        next(hands, dealer) if ch.kind == Character.Kind.PC else None for ch in plan.characters
    ]
    dealers = [username for username, role in plan.members if role == Membership.Role.DEALER]
    with transaction.atomic():
        fields = [name for name in ("setting", "pitch") if not getattr(campaign, name)]
        for name in fields:
            setattr(campaign, name, plan.campaign[name])
        campaign.save(update_fields=fields)
        made = write_characters(
            plan, campaign=campaign, owners=owners, known=dict.fromkeys(dealers, dealer),
            sessions={}, dated=timezone.now(),
        )  # fmt: skip
        write_links_and_notes(plan, campaign=campaign, made=made)
        campaign_page.announce(campaign.pk)


def _restore(plan: Plan, *, campaign: Campaign, dealer: User, seat_members: bool) -> ImportResult:
    warnings: list[str] = []
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        # The file's conflicts replace these, which point at characters about to go.
        campaign.conflicts.all().delete()
        games_cleared(campaign)  # likewise: the file's games replace them (exchange.games)
        # Characters take their knacks, ledgers, Wanted! links and Devil ratings with them.
        campaign.characters.all().delete()
        campaign.links.all().delete()
        campaign.notes.all().delete()
        campaign.sessions.all().delete()
        fields = ["name", "setting", "pitch", "winner_bonus"]
        for name in fields:
            setattr(campaign, name, plan.campaign[name])
        campaign.save(update_fields=fields)
        games = _write(plan, campaign=campaign, dealer=dealer, warnings=warnings, seat=seat_members)
    return ImportResult(campaign, tuple(warnings), tuple(games))


def _seat(
    plan: Plan, *, campaign: Campaign, dealer: User, warnings: list[str], seat: bool
) -> dict[str, User]:
    """Seat the file's members who have an account here (as players: ``dealer`` deals) when
    ``seat``; otherwise nobody new. Returns username → user for everyone seated at the
    campaign afterwards."""
    seated = {m.user.get_username(): m.user for m in campaign.memberships.select_related("user")}
    if not seat:
        # No account is looked up, so no message can tell who exists here.
        left_out = [u for u, _ in plan.members if u not in seated]
        if left_out:
            theirs = [ch.values["name"] for ch in plan.characters if ch.player in set(left_out)]
            also = f" Their characters ({', '.join(theirs)}) are yours" if theirs else ""
            warnings.append(
                f"The file's other members ({', '.join(left_out)}) are not seated: an import "
                "seats nobody but you. Invite whom you want with an invitation link."
                + (f"{also}; hand each over once its player has joined." if theirs else "")
            )
        return seated
    wanted = [username for username, _ in plan.members]
    known = {u.get_username(): u for u in User.objects.filter(username__in=wanted)}
    for username, role in plan.members:
        user = known.get(username)
        if user is None:
            theirs = [ch.values["name"] for ch in plan.characters if ch.player == username]
            also = f"; their characters ({', '.join(theirs)}) are yours now" if theirs else ""
            warnings.append(f"Nobody here has the username {username!r}: left out{also}.")
            continue
        if role == Membership.Role.DEALER and user != dealer:
            warnings.append(
                f"{username} was the Dealer in the file; here you deal and {username} plays."
            )
        if username not in seated:
            Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
            seated[username] = user
    return seated


def _write(
    plan: Plan, *, campaign: Campaign, dealer: User, warnings: list[str], seat: bool
) -> list[str]:
    seated = _seat(plan, campaign=campaign, dealer=dealer, warnings=warnings, seat=seat)
    sessions = {
        s.values["number"]: GameSession.objects.create(campaign=campaign, **s.values)
        for s in plan.sessions
    }
    actors = {e.actor for ch in plan.characters for e in ch.ledger if e.actor}
    lines = (
        [line for s in plan.sessions for line in s.log]
        + [line for conflict in plan.conflicts for line in conflict.timeline]
        + [line for games in plan.games.values() for game in games for line in game.lines]
    )
    writers = {line.actor for line in lines if line.actor}
    if not seat:
        # Rows are credited only to people seated here: a file must not put words in the
        # mouth of an account, nor tell whether one exists.
        known = {name: user for name, user in seated.items() if name in actors}
        if others := sorted(actors - set(known)):
            warnings.append(
                f"Ledger rows written by people not seated here ({', '.join(others)}) keep no name."
            )
        known.update((name, user) for name, user in seated.items() if name in writers)
        if others := sorted(writers - set(known)):
            warnings.append(
                f"Timeline and session log lines written by people not seated here "
                f"({', '.join(others)}) keep no name."
            )
    else:
        known = {u.get_username(): u for u in User.objects.filter(username__in=actors | writers)}
    if seat and (unknown := sorted(actors - set(known))):
        warnings.append(
            f"Ledger rows written by people without an account here ({', '.join(unknown)}) "
            "keep no name."
        )
    if seat and (unknown := sorted(writers - set(known))):
        warnings.append(
            f"Timeline and session log lines written by people without an account here "
            f"({', '.join(unknown)}) keep no name."
        )

    # An unknown player's character goes to the importing Dealer, who can hand it on.
    owners = [seated.get(ch.player, dealer) if ch.player else None for ch in plan.characters]
    made = write_characters(plan, campaign=campaign, owners=owners, known=known,
                            sessions=sessions)  # fmt: skip
    write_links_and_notes(plan, campaign=campaign, made=made)
    DevilRating.objects.bulk_create(
        DevilRating(session=sessions[s.values["number"]], character=made[key], rating=rating)
        for s in plan.sessions
        for key, rating in s.devil_ratings.items()
    )
    SessionEvent.objects.bulk_create(
        SessionEvent(
            session=sessions[s.values["number"]],
            at=line.at,
            actor=known.get(line.actor or ""),
            text=line.text,
        )
        for s in plan.sessions
        for line in s.log
    )
    _write_conflicts(plan, campaign=campaign, dealer=dealer, made=made, sessions=sessions,
                     known=known)  # fmt: skip
    # Every page of every conflict shows, for every viewer, or nothing is written (issue 28).
    if problems := unshowable(campaign, dealer):
        raise ImportRefused(problems[:MAX_PROBLEMS])
    refs = WriteRefs(dealer=dealer, seated=seated, credited=known, characters=made,
                     sessions=sessions)  # fmt: skip
    return games_written(plan.games, campaign, refs)


def write_characters(
    plan: Plan,
    *,
    campaign: Campaign,
    owners: list[User | None],
    known: dict[str, User],
    sessions: dict[int, GameSession],
    dated: dt.datetime | None = None,
) -> dict[str, Character]:
    """The plan's characters (``owners[i]`` runs the i-th), their knacks and chip ledgers (rows
    credited to ``known`` people, at their own times or all at ``dated``); key → character."""
    made: dict[str, Character] = {}
    for ch, player in zip(plan.characters, owners, strict=True):
        character = Character.objects.create(
            campaign=campaign, kind=ch.kind, player=player, **ch.values
        )
        made[ch.key] = character
        Knack.objects.bulk_create(
            Knack(character=character, name=name, rating=rating)
            for name, rating in ch.knacks.items()
        )
        balance = 0
        rows: list[ChipEntry] = []
        for entry in ch.ledger:
            balance += entry.amount
            rows.append(
                ChipEntry(
                    character=character,
                    amount=entry.amount,
                    balance_after=balance,
                    reason=entry.reason,
                    note=entry.note,
                    actor=known.get(entry.actor or ""),
                    session=sessions.get(entry.session) if entry.session else None,
                    created_at=dated or entry.at,  # the row keeps its own time
                )
            )
        # In bulk, in order: a ledger of the size limit is written in seconds, not a query a row.
        ChipEntry.objects.bulk_create(rows, batch_size=500)
    return made


def write_links_and_notes(plan: Plan, *, campaign: Campaign, made: dict[str, Character]) -> None:
    """The plan's Wanted! links and notes, the notes after any the campaign has."""
    WantedLink.objects.bulk_create(
        WantedLink(
            campaign=campaign,
            npc=made[link["npc"]],
            pc=made[link["pc"]],
            devil_touched=link["devil_touched"],
            notes=link["notes"],
        )
        for link in plan.links
    )
    first = campaign.notes.count()
    Note.objects.bulk_create(
        Note(campaign=campaign, title=title, body=body, position=first + position)
        for position, (title, body) in enumerate(plan.notes)
    )


def _write_conflicts(
    plan: Plan,
    *,
    campaign: Campaign,
    dealer: User,
    made: dict[str, Character],
    sessions: dict[int, GameSession],
    known: dict[str, User],
) -> None:
    """The file's conflicts, in order ("Deal again" points back), with their seats, timelines
    and replay states. Their times are the file's: set after creating, as the model stamps
    ``created_at`` itself."""
    written: list[Conflict] = []
    for planned in plan.conflicts:
        if planned.redealt:  # R10: a running conflict's hidden cards were dealt again; say so
            planned.values["version"] += 1
            planned.timeline.append(redeal_line(planned, at=timezone.now()))
            planned.snapshots = [(planned.values["version"], planned.values["state"])]
        conflict = Conflict.objects.create(
            campaign=campaign,
            session=sessions.get(planned.session) if planned.session else None,
            previous=written[planned.previous] if planned.previous is not None else None,
            created_by=dealer,
            **planned.values,
        )
        written.append(conflict)
        if planned.created_at is not None:
            Conflict.objects.filter(pk=conflict.pk).update(
                created_at=planned.created_at, last_move_at=planned.created_at
            )
        Seat.objects.bulk_create(
            Seat(conflict=conflict, pid=pid, character=made[key] if key else None, goal=goal)
            for pid, key, goal in planned.seats
        )
        Event.objects.bulk_create(
            Event(
                conflict=conflict,
                seq=line.seq,
                version=line.version,
                actor=dealer if line.actor == RESTORER else known.get(line.actor or ""),
                text=line.text,
            )
            for line in planned.timeline
        )
        set_times(Event.objects.filter(conflict=conflict),
                  [(line.seq, line.at) for line in planned.timeline])  # fmt: skip
        Snapshot.objects.bulk_create(
            Snapshot(conflict=conflict, version=version, state=state)
            for version, state in planned.snapshots
        )
