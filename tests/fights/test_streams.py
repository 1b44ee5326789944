"""The live fight streams (the site's live table of ``fights.game``, on
dustdevils/live/tables.py), in one process: a snapshot first for every viewer, then an update
per move with that viewer's own panel and never a foreign card (R30); 403 for anonymous
visitors, 404 for outsiders; a reconnect starts with a full snapshot; the process's safety-net
poll catches a move whose announcement was lost; "reconnecting" while Redis is away, and the
moves still arrive."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from campaigns.models import Membership
from dustdevils.live import broadcast as live
from fights.engine import action_deck as engine
from fights.services import controlled_cids
from tests.conflicts.test_views import card_tokens, texts
from tests.fights.conftest import FightTable, rig
from tests.live.test_streams import Event, in_thread, open_stream

pytestmark = pytest.mark.django_db(transaction=True)


def allowed(table: FightTable, user: User, *, shared: bool) -> set[str]:
    state = table.state()
    if shared:
        return texts(engine.visible_cards(state, (), dealer=False))
    membership = Membership.objects.get(user=user, campaign=table.fight.campaign)
    mine = controlled_cids(table.fight.seats.select_related("character"), membership)
    return texts(engine.visible_cards(state, mine, dealer=membership.is_dealer))


@pytest.fixture
def dealt(table: FightTable, dealer: User, cids: dict[str, str]) -> FightTable:
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    table.ok(dealer, "deal")
    return table


def test_r30_each_viewer_gets_a_snapshot_then_updates_with_only_their_cards(
    dealt: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    t = dealt
    cast = {"dealer": dealer, "player_a": player_a, "player_b": player_b}
    url, table_url = t.url + "stream/", t.url + "table/stream/"
    before = t.version

    async def scenario() -> dict[str, list[Event]]:
        opened = {name: await open_stream(user, url) for name, user in cast.items()}
        _, table_stream = await open_stream(player_b, table_url)
        assert table_stream is not None
        seen: dict[str, list[Event]] = {name: [] for name in [*cast, "table"]}
        for name, (status, stream) in opened.items():
            assert status == 200
            assert stream is not None
            seen[name].append(await stream.next())
        seen["table"].append(await table_stream.next())
        # Bess puts the K♥ up her sleeve: announced on commit, in-process.
        await in_thread(lambda: t.ok(player_b, "sleeve", cid=cids["bess"]))
        for name, (_, stream) in opened.items():
            assert stream is not None
            seen[name].append(await stream.next())
            await stream.close()
        seen["table"].append(await table_stream.next())
        await table_stream.close()
        return seen

    with override_settings(BROADCASTER="inprocess"):
        seen = asyncio.run(scenario())
    may = {name: allowed(t, user, shared=False) for name, user in cast.items()}
    may["table"] = allowed(t, dealer, shared=True)
    for name, events in seen.items():
        snapshot, update = events
        assert (snapshot.event, snapshot.id) == ("snapshot", before), name
        assert (update.event, update.id) == ("update", before + 1), name
        assert 'id="fight-main"' in snapshot.data
        assert f'data-version="{before + 1}"' in update.data, name
        for event in events:
            tokens = card_tokens(event.data)
            assert tokens <= may[name], f"{name} {event.event} shows {sorted(tokens - may[name])}"
    assert {"RJ", "9♣", "3♦"} <= card_tokens(seen["player_a"][0].data)  # not vacuous
    assert {"Q♠", "7♦", "J♦", "2♥"} <= card_tokens(seen["dealer"][0].data)
    assert not card_tokens(seen["player_b"][1].data) & {"RJ", "9♣", "3♦", "Q♠", "7♦", "J♦"}
    assert "K♥" in card_tokens(seen["player_b"][1].data)  # up her own sleeve
    assert "K♥" not in card_tokens(seen["player_a"][1].data)  # face down to Abe (R30)
    assert "fight--dealer" in seen["dealer"][0].data
    assert "fight--player" in seen["player_a"][0].data
    assert "fight--table" in seen["table"][0].data


def test_it_refuses_anonymous_403_and_outsiders_404(
    client: Client, dealt: FightTable, outsider: User
) -> None:
    for url in (dealt.url + "stream/", dealt.url + "table/stream/"):
        client.logout()
        response = client.get(url)
        assert response.status_code == 403
        assert response.content == b"Log in first."
        client.force_login(outsider)
        response = client.get(url)
        assert response.status_code == 404
        assert card_tokens(response.content.decode()) == set()


def test_a_reconnect_starts_with_a_full_snapshot(dealt: FightTable, player_a: User) -> None:
    now, url = dealt.version, dealt.url + "stream/"

    async def scenario() -> Event:
        _, stream = await open_stream(player_a, url, HTTP_LAST_EVENT_ID=str(now - 1))
        assert stream is not None
        event = await stream.next()
        await stream.close()
        return event

    event = asyncio.run(scenario())
    assert (event.event, event.id) == ("snapshot", now)
    assert {"RJ", "9♣", "3♦"} <= card_tokens(event.data)


def test_the_safety_net_catches_a_lost_announcement(
    dealt: FightTable, player_b: User, cids: dict[str, str], monkeypatch: Any
) -> None:
    t = dealt
    before, url = t.version, t.url + "stream/"
    monkeypatch.setattr("dustdevils.live.broadcast.publish", lambda table, version: None)

    async def scenario() -> Event:
        _, stream = await open_stream(player_b, url)
        assert stream is not None
        await stream.next()  # the snapshot
        await in_thread(lambda: t.ok(player_b, "sleeve", cid=cids["bess"]))
        event = await stream.next(timeout=5)
        await stream.close()
        return event

    with override_settings(BROADCASTER="inprocess", LIVE_POLL_SECONDS=0.3, LIVE_PING_SECONDS=30):
        event = asyncio.run(scenario())
    assert (event.event, event.id) == ("update", before + 1)


def test_a_fight_screen_says_reconnecting_and_still_moves_while_redis_is_away(
    table: FightTable, dealer: User, player_a: User, cids: dict[str, str], monkeypatch: Any
) -> None:
    health = {"ok": False}
    monkeypatch.setattr(live, "redis_healthy", lambda: health["ok"])
    monkeypatch.setattr(live, "publish", lambda table, version: None)  # Redis is away
    now, url = table.version, table.url + "stream/"

    async def scenario() -> list[tuple[str, Any]]:
        _, stream = await open_stream(player_a, url)
        assert stream is not None
        events = [await stream.next(), await stream.next()]
        await in_thread(lambda: table.ok(dealer, "quickness", cid=cids["abe"], total=13))
        events.append(await stream.next(timeout=4))  # polled every 6 / 6 = 1 s
        health["ok"] = True
        events.append(await stream.next(timeout=4))
        await stream.close()
        return [(e.event, e.data if e.event == "status" else e.id) for e in events]

    with override_settings(BROADCASTER="inprocess", LIVE_POLL_SECONDS=6):
        seen = asyncio.run(scenario())
    assert seen == [
        ("snapshot", now),
        ("status", "reconnecting"),
        ("update", now + 1),
        ("status", "live"),
    ]
