"""Writing a campaign out as the exchange format's data (see the package docstring)."""

from __future__ import annotations

import datetime as dt
import json
import re
import secrets
from typing import Any

from django.utils.text import slugify

from campaigns.models import Campaign
from characters.models import Character
from characters.rules import ATTRIBUTES
from conflicts.engine.restore import sealed
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict
from exchange.games import games_export
from exchange.reading import FORMAT, VERSION


def _when(value: dt.datetime | None) -> str | None:
    return value.astimezone(dt.UTC).isoformat() if value else None


def character_keys(characters: list[Character]) -> dict[int, str]:
    """Stable keys from the names, in the given order: "clara-hardin", then "jim", "jim-2"."""
    keys: dict[int, str] = {}
    used: set[str] = set()
    for character in characters:
        base = slugify(character.name) or "character"
        key, n = base, 2
        while key in used:
            key, n = f"{base}-{n}", n + 1
        used.add(key)
        keys[character.pk] = key
    return keys


def campaign_export(campaign: Campaign) -> dict[str, Any]:
    """The whole campaign as plain JSON data. Lists are sorted in Python, not by the database,
    so the order (and the keys made from it) is the same on SQLite and PostgreSQL."""
    characters = sorted(
        campaign.characters.select_related("player").prefetch_related(
            "knacks", "chip_entries__actor", "chip_entries__session"
        ),
        key=lambda c: (c.kind, c.name, c.pk),
    )
    keys = character_keys(characters)
    members = sorted(
        campaign.memberships.select_related("user"),
        key=lambda m: (not m.is_dealer, m.user.get_username()),
    )
    links = [
        {
            "npc": keys[link.npc_id],
            "pc": keys[link.pc_id],
            "devil_touched": link.devil_touched,
            "notes": link.notes,
        }
        for link in campaign.links.all()
        if link.npc_id in keys and link.pc_id in keys  # never point outside the file
    ]
    sessions = campaign.sessions.prefetch_related("devil_ratings", "events__actor")
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "name": campaign.name,
            "slug": campaign.slug,
            "setting": campaign.setting,
            "pitch": campaign.pitch,
            "winner_bonus": campaign.winner_bonus,
            **({"kind": campaign.kind} if campaign.is_one_off else {}),  # a one-off table
        },
        "members": [{"username": m.user.get_username(), "role": m.role} for m in members],
        "characters": [_character(c, keys[c.pk]) for c in characters],
        "links": sorted(links, key=lambda link: (link["npc"], link["pc"])),
        "notes": [
            {"title": note.title, "body": note.body}
            for note in sorted(campaign.notes.all(), key=lambda n: (n.position, n.pk))
        ],
        "sessions": [
            {
                "number": session.number,
                "date": session.date.isoformat() if session.date else None,
                "status": session.status,
                "notes": session.notes,
                "started_at": _when(session.started_at),
                "ended_at": _when(session.ended_at),
                "devil_ratings": dict(
                    sorted(
                        (keys[r.character_id], r.rating)
                        for r in session.devil_ratings.all()
                        if r.character_id in keys
                    )
                ),
                "log": [
                    {
                        "at": _when(event.at),
                        "actor": event.actor.get_username() if event.actor else None,
                        "text": event.text,
                    }
                    for event in sorted(session.events.all(), key=lambda e: (e.at, e.pk))
                ],
            }
            for session in sorted(sessions, key=lambda s: s.number)
        ],
        "conflicts": conflicts_export(campaign, keys),
        # Every other game, sealed (since version 3): exchange.games, through each one's codec.
        "games": games_export(campaign, keys),
    }
    return data


def conflicts_export(campaign: Campaign, keys: dict[int, str]) -> list[dict[str, Any]]:
    """Every conflict, oldest first, with its seats, timeline and, once it is over, its replay
    states.

    Hidden information (R10, issue 28): a file never carries a running conflict's secrets. A
    conflict still being played is written ``sealed`` (``conflicts.engine.restore``): each
    hidden card is "??" (how many, never which), and there is no stock order, no shuffle
    order, no salt and no replay; only its public cards stay (the lays after the reveal). Not
    even the Dealer's file holds them: the Dealer never sees the salt or the stock, and a file
    travels. A restore or an import deals such a conflict's hidden cards again from a fresh
    shuffle under a new commitment, said on its timeline (``exchange.conflict_checks``), so no
    file can choose a card either. A finished conflict (done, folded, cancelled) is written
    whole, replay included: R10 makes all of its cards public once it ends.
    "Deal again" (``previous``) points at an earlier conflict by its index in this list."""
    conflicts = sorted(
        Conflict.objects.filter(campaign=campaign)
        .select_related("session")
        .prefetch_related("seats", "events__actor", "snapshots"),
        key=lambda c: (c.created_at, c.pk),
    )
    index = {conflict.pk: i for i, conflict in enumerate(conflicts)}
    return [
        {
            "title": conflict.title,
            "phase": conflict.phase,
            "version": conflict.version,
            "session": conflict.session.number if conflict.session else None,
            "previous": index.get(conflict.previous_id) if conflict.previous_id else None,
            "created_at": _when(conflict.created_at),
            "abandoned_at": _when(conflict.abandoned_at),
            "state": _state(conflict),  # sealed while it runs: see above
            "seats": [
                {
                    "pid": seat.pid,
                    "character": keys.get(seat.character_id) if seat.character_id else None,
                    "goal": seat.goal,
                }
                for seat in sorted(conflict.seats.all(), key=lambda s: s.pk)
            ],
            "timeline": [
                {
                    "seq": event.seq,
                    "version": event.version,
                    "at": _when(event.created_at),
                    "actor": event.actor.get_username() if event.actor else None,
                    "text": event.text,
                }
                for event in sorted(conflict.events.all(), key=lambda e: e.seq)
            ],
            "snapshots": [
                {"version": snap.version, "state": snap.state}
                for snap in sorted(conflict.snapshots.all(), key=lambda s: s.version)
                if conflict.is_over  # a running conflict's replay holds every hand
            ],
        }
        for conflict in conflicts
    ]


def _state(conflict: Conflict) -> dict[str, Any]:
    """The conflict's engine state as the file carries it: whole once it is over, sealed while
    it runs (R10)."""
    if conflict.is_over:
        return dict(conflict.state)
    return sealed(state_from_data(conflict.state))


def _character(character: Character, key: str) -> dict[str, Any]:
    knacks = sorted(character.knacks.all(), key=lambda k: (-k.rating, k.name))
    ledger = sorted(character.chip_entries.all(), key=lambda e: (e.created_at, e.pk))
    data: dict[str, Any] = {
        "key": key,
        "name": character.name,
        "kind": character.kind,
        "player": character.player.get_username() if character.player else None,
        "vocation": character.vocation,
        "description": character.description,
        "back_story": character.back_story,
        "attributes": {
            name: {"rating": character.rating(name), "current": character.current(name)}
            for name in ATTRIBUTES
        },
        "traits": character.traits,
        "knacks": {knack.name: knack.rating for knack in knacks},
        "devil": {"description": character.devil, "rating": character.devil_rating},
        "secrets": character.secrets,
        "approved": character.approved,
        "chips": {
            "current": character.chips,
            "ledger": [
                {
                    "amount": entry.amount,
                    "reason": entry.reason,
                    "note": entry.note,
                    "actor": entry.actor.get_username() if entry.actor else None,
                    "at": _when(entry.created_at),
                    "session": entry.session.number if entry.session else None,
                }
                for entry in ledger
            ],
        },
        "out_of_play": character.out_of_play,
        "fate": character.fate,
        "epitaph": character.epitaph,
        "left_play_at": _when(character.left_play_at),
    }
    if character.quickness_dice:  # R27 (house rule): only when the Dealer set them
        data["quickness_dice"] = character.quickness_dice
    return data


def campaign_file_dump(data: dict[str, Any]) -> str:
    """The file's text: indented, and UTF-8 as it is (names keep their quotes and accents).
    The engine states of conflicts and games (``state``, each snapshot's) are written on one
    line each: their 54 cards, one a line, would make a campaign's file several times larger,
    nearer the most a table imports (``IMPORT_MAX_BYTES``)."""
    states: dict[str, str] = {}
    marker = f"state-{secrets.token_hex(8)}-"  # no text of the campaign can be it

    def one_line(state: Any) -> str:
        key = f"{marker}{len(states)}"
        states[json.dumps(key)] = json.dumps(state, ensure_ascii=False, separators=(", ", ": "))
        return key

    conflicts = data.get("conflicts")
    if isinstance(conflicts, list) and conflicts:
        data = {**data, "conflicts": [
            {
                **conflict,
                "state": one_line(conflict["state"]),
                **({"snapshots": [{**snap, "state": one_line(snap["state"])}
                                  for snap in conflict["snapshots"]]}
                   if "snapshots" in conflict else {}),
            }
            for conflict in conflicts
        ]}  # fmt: skip
    games = data.get("games")
    if isinstance(games, dict) and games:
        data = {**data, "games": {
            kind: [{**game, "state": one_line(game["state"])} for game in listed]
            if isinstance(listed, list) else listed  # a hand-edited file's, written as it is
            for kind, listed in games.items()
        }}  # fmt: skip
    text = json.dumps(data, indent=2, ensure_ascii=False)
    if states:
        pattern = re.compile("|".join(re.escape(key) for key in states))
        text = pattern.sub(lambda found: states[found.group(0)], text)
    return text + "\n"
