"""Issue 39: each person at a table reads it in their own language at once. The Dealer's phone
in English and the players' in Italian get the same live update, each in their language (the
stream renders every panel in its viewer's language: ``Viewer.language``, from the request that
opened it), and a hidden count reaches no one else's panel in either language (SS15)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from showdown.models import Showdown
from tests.i18n.english import english_left, read_text
from tests.live.test_streams import in_thread, open_stream
from tests.showdown.test_views import move

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_update_reaches_each_phone_in_its_own_language_and_hides_the_count(
    showdown: Showdown, dealer: User, player_a: User, player_b: User
) -> None:
    url = showdown.get_absolute_url() + "stream/"
    phones = {}
    for pid, user in (("p1", dealer), ("p2", player_a), ("p3", player_b)):
        phones[pid] = Client(HTTP_ACCEPT_LANGUAGE="en" if pid == "p1" else "it")
        phones[pid].force_login(user)
    move(phones["p3"], showdown, "threaten", target="p1", pistol="red")
    move(phones["p1"], showdown, "bluff")

    async def scenario() -> dict[str, Any]:
        streams = {
            "p1": await open_stream(dealer, url),  # no Accept-Language: English
            "p2": await open_stream(player_a, url, headers={"Accept-Language": "it"}),
            "p3": await open_stream(player_b, url, headers={"Accept-Language": "it-IT,it;q=0.9"}),
        }
        try:
            snapshots = {pid: (await s.next()).data for pid, (_, s) in streams.items() if s}
            await in_thread(lambda: move(phones["p3"], showdown, "bullets", count=7))
            updates = {pid: (await s.next()).data for pid, (_, s) in streams.items() if s}
        finally:
            for _, stream in streams.values():
                if stream is not None:
                    await stream.close()
        return {"snapshots": snapshots, "updates": updates}

    with override_settings(BROADCASTER="inprocess"):  # one process: its own broadcaster
        seen = asyncio.run(scenario())
    snapshots, updates = seen["snapshots"], seen["updates"]
    assert set(updates) == {"p1", "p2", "p3"}
    english, italian = read_text(updates["p1"]), read_text(updates["p2"])
    assert "Bess has entered their count." in english
    assert "What happened" in english
    assert "Bess ha inserito il suo conteggio." in italian
    assert "Cronaca" in italian
    assert "Cronaca" not in english
    assert "ha inserito" not in english
    assert not english_left(updates["p2"]), english_left(updates["p2"])
    assert not english_left(updates["p3"]), english_left(updates["p3"])
    assert "Hai inserito 7." in read_text(updates["p3"])  # her own count, in her language
    for pid in ("p1", "p2"):  # SS15: nobody else's panel holds it, in either language
        text = read_text(updates[pid])
        assert "7" not in text.replace(str(showdown.pk), ""), pid
    assert "Prendi" not in read_text(snapshots["p1"])  # the English snapshot, all English
