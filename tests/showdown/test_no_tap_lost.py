"""Taps made at once all arrive (issue 26's "no tap is lost", for Saloon Showdown): both counts
of a called bluff, everyone's event count, both duellists' Ready and both shots, each sent from
a page of the same version with its seat's basis. A shot that lost the race is refused by the
rules (SS6), not as stale."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from showdown.models import Showdown
from tests.showdown.conftest import Clock, state_of
from tests.showdown.test_views import move

pytestmark = pytest.mark.django_db

BASIS = re.compile(r'name="basis" value="(\w+)"')


def form_of(client: Client, showdown: Showdown) -> dict[str, Any]:
    """The version and the seat's basis the phone's page carries now."""
    page = client.get(showdown.get_absolute_url()).content.decode()
    version = re.search(r'name="version" value="(\d+)"', page)
    basis = BASIS.search(page)
    assert version is not None
    assert basis is not None
    return {"version": int(version.group(1)), "basis": basis.group(1)}


def at_once(
    showdown: Showdown, phones: dict[str, Client], action: str, **taps: dict[str, Any]
) -> None:
    pages = {pid: form_of(phones[pid], showdown) for pid in taps}
    assert len({p["version"] for p in pages.values()}) == 1
    for pid, data in taps.items():
        response = move(phones[pid], showdown, action, htmx=True, **(pages[pid] | data))
        assert "moved on" not in response.content.decode(), pid


def test_counts_ready_and_shots_made_at_once_all_arrive(
    showdown: Showdown, phones: dict[str, Client], clock: Clock, dealer: User
) -> None:
    move(phones["p3"], showdown, "threaten", target="p1", pistol="red")
    move(phones["p1"], showdown, "bluff")
    at_once(showdown, phones, "bullets", p1={"count": 4}, p3={"count": 1})
    assert state_of(showdown).player("p1").loot == 40  # both counts arrived: Delia had more

    move(phones["p1"], showdown, "reveal", event="robbery", drawer="p1")
    at_once(showdown, phones, "count", p1={"count": 1}, p2={"count": 2}, p3={"count": 3})
    assert state_of(showdown).event is None

    move(phones["p1"], showdown, "threaten", target="p2", pistol="red")
    move(phones["p2"], showdown, "and-you")
    at_once(showdown, phones, "ready", p1={}, p2={})
    fight = state_of(showdown).fight
    assert fight is not None
    assert fight.go_at is not None
    clock.now = fight.go_at + 100
    pages = {pid: form_of(phones[pid], showdown) for pid in ("p1", "p2")}
    shot = {"pistol": "red", "zone": "head", "noise": "Bang"}
    move(phones["p1"], showdown, "fire", htmx=True, **(pages["p1"] | shot))
    clock.now -= 20  # Abe's shot reached the server 20 ms earlier, but took the lock later
    move(phones["p2"], showdown, "fire", htmx=True, **(pages["p2"] | shot))
    fight = state_of(showdown).fight
    assert fight is not None
    assert fight.claim is not None
    assert fight.claim.shooter == "p2"  # SS6: the first by the server's clock
