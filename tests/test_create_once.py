"""Issue 28 #3, #7: twenty identical posts of a create form make one thing, and every request is
answered with it — never a server error. The probe: 20 identical new-campaign posts gave 11 ×
500 and 9 campaigns (one-off tables and session plans alike); new fight, new saloon game, notes
and narration applied 20 times. Each form carries its idempotency key (``name="key"``), kept
with what it made (tables.once.made_once, or the table kit's key for the narration).

Real PostgreSQL: the requests race in threads, each on its own connection. Without a key (a
script's form), a race still answers no 500 (the campaign's slug, the first session's number
and a Wanted! link are taken again or refused in words)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.test import Client

from campaigns.game_sessions import session_start
from campaigns.models import Campaign, GameSession, Note, WantedLink
from conflicts.models import Conflict, Event
from conflicts.services import pid_of
from fights.models import Fight
from saloon.models import Saloon
from tests.conflicts.test_views import Table, arrange, cards, dealt, posse, quick_odds, table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
__all__ = ["posse", "quick_odds", "table"]

RACERS = 20


def race(job: Callable[[int], Any]) -> list[Any]:
    barrier = threading.Barrier(RACERS)
    results: list[Any] = [None] * RACERS

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = job(i)
        except Exception as error:  # noqa: BLE001 — the race's outcome is what we test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def clients_of(user: Any) -> list[Client]:
    clients = []
    for _ in range(RACERS):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)
    return clients


Case = tuple[str, dict[str, Any], type[Model], dict[str, Any]]


def cases(campaign: Any, dealer: Any, player_a: Any, player_b: Any, pcs: Any, npc: Any) -> dict:
    slug = campaign.slug
    pc_a, pc_b = pcs
    session = session_start(campaign=campaign, actor=dealer)
    return {
        "new campaign": ("/campaigns/new/", {"name": "Deadwood", "starter": ""}, Campaign,
                         {"name": "Deadwood"}),
        "one-off table": ("/saloon/new/", {"name": "Poker night"}, Campaign,
                          {"name": "Poker night"}),
        "session plan": (f"/c/{slug}/sessions/plan/", {"notes": "The train"}, GameSession,
                         {"campaign": campaign, "notes": "The train"}),
        "note": (f"/c/{slug}/notes/new/", {"title": "The mine", "body": "Cave-in."}, Note,
                 {"campaign": campaign}),
        "wanted link": (f"/c/{slug}/wanted/new/", {"npc": npc.pk, "pc": pc_a.pk}, WantedLink,
                        {"campaign": campaign}),
        "fight": (f"/c/{slug}/fights/new/",
                  {"title": "Ambush", "session": session.pk, "cap": 5, "fate_pot": "white 10",
                   f"take_{pc_a.pk}": "on", f"take_{pc_b.pk}": "on"},
                  Fight, {"campaign": campaign}),
        "saloon game": (f"/c/{slug}/saloon/new/",
                        {"player": [dealer.pk, player_a.pk, player_b.pk]}, Saloon,
                        {"campaign": campaign}),
    }  # fmt: skip


NAMES = ["new campaign", "one-off table", "session plan", "note", "wanted link", "fight",
         "saloon game"]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_twenty_identical_posts_of_a_create_form_make_one(
    name: str, campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any, pc_b: Any,
    npc: Any,
) -> None:  # fmt: skip
    assert connection.vendor == "postgresql"
    url, form, model, where = cases(campaign, dealer, player_a, player_b, (pc_a, pc_b), npc)[name]
    before = model._default_manager.filter(**where).count()
    clients = clients_of(dealer)

    results = race(lambda i: clients[i].post(url, {**form, "key": "one-form-one-key"}))

    statuses = [getattr(r, "status_code", r) for r in results]
    assert all(isinstance(s, int) and s < 500 for s in statuses), statuses
    assert model._default_manager.filter(**where).count() == before + 1, statuses
    if statuses[0] == 302:  # answered with what the first made: the same page for all
        assert len({r["Location"] for r in results}) == 1
    # Another form (another key) makes another.
    again = clients[0].post(url, {**form, "key": "another-form"})
    assert again.status_code < 500
    if name != "wanted link":  # a link ties two characters once: the second is refused
        assert model._default_manager.filter(**where).count() == before + 2


@pytest.mark.parametrize("name", ["new campaign", "one-off table", "session plan", "wanted link"])
def test_twenty_posts_without_a_key_never_answer_a_server_error(
    name: str, campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any, pc_b: Any,
    npc: Any,
) -> None:  # fmt: skip
    url, form, _, where = cases(campaign, dealer, player_a, player_b, (pc_a, pc_b), npc)[name]
    clients = clients_of(dealer)

    results = race(lambda i: clients[i].post(url, form))

    statuses = [getattr(r, "status_code", r) for r in results]
    assert all(isinstance(s, int) and s < 500 for s in statuses), statuses
    if name == "wanted link":
        assert WantedLink.objects.filter(**where).count() == 1
    if name == "session plan":  # each made its own, numbered in turn
        numbers = list(GameSession.objects.filter(campaign=campaign).values_list("number"))
        assert len(numbers) == len(set(numbers))


def test_twenty_identical_narrations_are_written_once(
    table: Table, dealer: Any, player_b: Any, pc_a: Any, pc_b: Any
) -> None:
    conflict = table.conflict
    dealt(table, dealer, pc_a, pc_b)
    arrange(
        conflict,
        {
            pid_of(pc_a): cards("2♣ 3♠ 4♦ 6♥ 7♣ 8♦ 9♣ J♥"),
            pid_of(pc_b): cards("A♠ 2♦ 3♣ 8♣ 10♦ Q♥"),
            "stud": cards("K♥ K♦ K♠ Q♠ Q♦"),
        },
    )
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    table.ok(dealer, "close-bids")  # Bess holds the high card and narrates
    url = f"{table.url}narrate/"
    told = {"text": "Bess dives into the river.", "key": "one-narration"}
    clients = clients_of(player_b)

    results = race(lambda i: clients[i].post(url, told))

    assert all(getattr(r, "status_code", 500) < 500 for r in results), results
    lines = Event.objects.filter(conflict=conflict, text__startswith="Narration (")
    assert lines.count() == 1
    assert Conflict.objects.get(pk=conflict.pk).version == table.version
