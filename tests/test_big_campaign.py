"""Issue 37 (S7): no page's time grows with a campaign's size. An import may bring the maximum
of every list a campaign file holds (exchange/schema: tests/exchange/test_limits.py); the
probe's file of 100,000 notes made its campaign's page take 50.9 s. Here a campaign holds the
maximum of every list at once — built through the ORM in bulk, which is much faster than
importing it — and every page of it answers the Dealer (who sees the most) in under a second.

A page's time is the CPU time of this process (the app and SQLite, both in it), not the wall
clock: the machine is shared (a load average of 12–21 on 2 cores while this was written), and
the wall time of the same request then varies several-fold with what else runs.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import DevilRating, GameSession, Membership, Note, SessionEvent, WantedLink
from characters.models import Character, ChipEntry, Knack
from conflicts.models import Conflict, Event, Snapshot
from fights.models import Fight, FightEvent
from tests.made_once import (
    campaign,
    dealer,
    npc,
    outsider,
    pc_a,
    pc_b,
    player_a,
    player_b,
    rows_once,
)
from tests.test_every_url import CAMPAIGN_ROUTES, fill, objects, objects_once

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
# The cast, Dry Gulch and its objects are made as tests/made_once.py makes them (one test here).
__all__ = [
    "campaign", "dealer", "npc", "objects", "objects_once", "outsider", "pc_a", "pc_b",
    "player_a", "player_b", "rows_once",
]  # fmt: skip

MOST = {  # the schema's maxima (tests/exchange/test_limits.py holds them to it)
    "members": 100, "characters": 300, "knacks": 20, "ledger": 5000, "links": 1000,
    "notes": 500, "sessions": 500, "devil_ratings": 300, "log": 1000, "conflicts": 300,
    "timeline": 2000, "snapshots": 2000, "fights": 300,
}  # fmt: skip
SECONDS = 1.0
# The campaign file itself: the whole campaign by design (a download, not a page).
WHOLE = {"c/<slug:slug>/export.json"}


def copies(row: Any, count: int, **changes: Any) -> list[Any]:
    out = []
    for n in range(count):
        twin = copy.copy(row)
        twin.pk = None
        for name, value in changes.items():
            setattr(twin, name, value(n) if callable(value) else value)
        out.append(twin)
    return out


def biggest(campaign: Any, dealer: User, pc_a: Character, ids: dict[str, Any]) -> None:
    users = User.objects.bulk_create(
        User(username=f"rider{n}", password="!") for n in range(MOST["members"])
    )
    Membership.objects.bulk_create(Membership(campaign=campaign, user=u) for u in users)
    have = campaign.characters.count()
    more = MOST["characters"] - have
    Character.objects.bulk_create(
        Character(campaign=campaign, kind="npc" if n % 2 else "pc", name=f"Rider {n}",
                  player=None if n % 2 else users[n % len(users)])
        for n in range(more)
    )  # fmt: skip
    characters = list(campaign.characters.all())
    Knack.objects.bulk_create(
        Knack(character=c, name=f"Knack {k}", rating=2)
        for c in characters
        for k in range(MOST["knacks"] - c.knacks.count())
    )
    ChipEntry.objects.bulk_create(
        ChipEntry(character=pc_a, amount=1, balance_after=n + 1, reason="stakes", note=f"row {n}")
        for n in range(MOST["ledger"])
    )
    npcs = [c for c in characters if c.kind == "npc"][:40]
    pcs = [c for c in characters if c.kind == "pc"][:25]
    WantedLink.objects.filter(campaign=campaign).delete()
    WantedLink.objects.bulk_create(
        WantedLink(campaign=campaign, npc=n, pc=p) for n in npcs for p in pcs
    )
    Note.objects.bulk_create(
        Note(campaign=campaign, title=f"Note {n}", body="Dust " * 40, position=n + 10)
        for n in range(MOST["notes"])
    )
    last = max(campaign.sessions.values_list("number", flat=True))
    GameSession.objects.bulk_create(
        GameSession(campaign=campaign, number=last + 1 + n)
        for n in range(MOST["sessions"] - campaign.sessions.count())
    )
    session = campaign.sessions.get(number=ids["number"])
    DevilRating.objects.bulk_create(
        DevilRating(session=session, character=c, rating=2) for c in characters
    )
    SessionEvent.objects.bulk_create(
        SessionEvent(session=session, text=f"Line {n}") for n in range(MOST["log"])
    )
    conflict = Conflict.objects.get(pk=ids["conflict_id"])
    Conflict.objects.bulk_create(
        copies(conflict, MOST["conflicts"] - 1, title=lambda n: f"Conflict {n}")
    )
    first = conflict.events.count()
    Event.objects.bulk_create(
        Event(conflict=conflict, seq=first + n + 1, version=conflict.version, text=f"Step {n}")
        for n in range(MOST["timeline"])
    )
    Snapshot.objects.bulk_create(
        Snapshot(conflict=conflict, version=conflict.version + 1 + n, state=conflict.state)
        for n in range(MOST["snapshots"])
    )
    fight = Fight.objects.get(pk=ids["fight_id"])
    Fight.objects.bulk_create(copies(fight, MOST["fights"] - 1, title=lambda n: f"Fight {n}"))
    first = fight.events.count()
    FightEvent.objects.bulk_create(
        FightEvent(fight=fight, seq=first + n + 1, version=fight.version, round=1, text=f"Hit {n}")
        for n in range(MOST["timeline"])
    )


def test_every_page_of_the_biggest_campaign_answers_in_under_a_second(
    objects: dict[str, Any], campaign: Any, dealer: User, pc_a: Character
) -> None:
    biggest(campaign, dealer, pc_a, objects)
    client = Client(raise_request_exception=False)
    client.force_login(dealer)
    took: dict[str, float] = {}
    for route in CAMPAIGN_ROUTES:
        if route.endswith("stream/"):
            continue  # an endless event stream
        if route in WHOLE:
            continue
        url = fill(route, objects)
        client.get(url)  # warm: templates compiled, caches filled
        times = []
        for _ in range(2):  # the faster of two
            began = time.process_time()
            status = client.get(url).status_code
            times.append(time.process_time() - began)
            assert status < 500, url
        took[route] = min(times)
    slow = {route: round(s, 2) for route, s in took.items() if s >= SECONDS}
    print("slowest:", sorted(took.items(), key=lambda kv: -kv[1])[:8])
    assert slow == {}
