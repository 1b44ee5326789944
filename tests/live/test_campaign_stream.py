"""Nobody stranded, on the campaign side (issue 18): the running conflict is one tap away from
the campaign page and from every page's header for everyone seated in it, and the campaign and
session pages follow play live through the campaign's stream (members only; it carries only
versions, the page fetches itself again through its own view)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import F
from django.test import override_settings

from campaigns.game_sessions import session_end, session_start
from campaigns.models import Membership
from campaigns.services import devil_rating_set
from characters.services import chips_grant
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, conflict_move
from dustdevils.live import broadcast as live
from tables.running import running_for
from tests.live.test_streams import in_thread, open_stream


@pytest.fixture
def heard() -> Iterator[list[str]]:
    """The tables announced in this process while the test runs."""
    tables: list[str] = []
    stop = live.subscribe(lambda table, version: tables.append(table))
    yield tables
    stop()


def showdown(campaign: Any, dealer: Any, *pcs: Any) -> Conflict:
    return conflict_create(
        campaign=campaign, actor=dealer, title="Showdown",
        hands=[*(HandSpec(character=pc) for pc in pcs), HandSpec(stud_size=5)],
    )  # fmt: skip


# --- Who sees the running conflict ---------------------------------------------------------------


@pytest.mark.django_db
def test_it_is_listed_for_the_seated_players_and_the_dealer_only(
    campaign: Any, dealer: Any, player_a: Any, player_b: Any, outsider: Any, pc_a: Any, pc_b: Any
) -> None:
    conflict = showdown(campaign, dealer, pc_a)
    assert [r.table_id for r in running_for(player_a)] == [conflict.pk]
    assert [r.dealer for r in running_for(dealer)] == [True]
    assert running_for(player_b) == []  # not seated in it
    assert running_for(outsider) == []
    # A player who left the table is no longer sent to it.
    Membership.objects.filter(user=player_a, campaign=campaign).delete()
    assert running_for(player_a) == []


@pytest.mark.django_db
def test_it_goes_when_the_conflict_ends_or_is_abandoned(
    campaign: Any, dealer: Any, player_a: Any, pc_a: Any, pc_b: Any
) -> None:
    first, second = showdown(campaign, dealer, pc_a), showdown(campaign, dealer, pc_a, pc_b)
    assert {r.table_id for r in running_for(player_a)} == {first.pk, second.pk}
    Conflict.objects.filter(pk=first.pk).update(phase="done")
    Conflict.objects.filter(pk=second.pk).update(abandoned_at=F("last_move_at"))  # the sweep
    assert running_for(player_a) == []
    # A move since takes it up again (campaigns.game_sessions.stale_sweep).
    Conflict.objects.filter(pk=second.pk).update(last_move_at=F("abandoned_at") + timedelta(1))
    assert [r.table_id for r in running_for(player_a)] == [second.pk]


@pytest.mark.django_db
def test_the_campaign_page_and_every_header_link_it(
    campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any, client_as: Any
) -> None:
    conflict = showdown(campaign, dealer, pc_a)
    url = f"/c/{campaign.slug}/conflicts/{conflict.pk}/"
    client = client_as(player_a)
    page = client.get(f"/c/{campaign.slug}/").content.decode()
    assert "In play now" in page
    assert f'href="{url}"' in page
    for elsewhere in ("/", f"/c/{campaign.slug}/characters/", f"/c/{campaign.slug}/members/"):
        html = client.get(elsewhere).content.decode()
        ribbon = html.split('id="running-ribbon"', 1)[1].split("</div>", 1)[0]
        assert f'href="{url}"' in ribbon, elsewhere
        assert "Your seat" in ribbon
    # Not on the conflict's own page, nor for a player with no seat in it.
    own = client.get(url).content.decode()
    assert f'href="{url}"' not in own.split('id="running-ribbon"', 1)[1].split("</div>", 1)[0]
    other = client_as(player_b).get(f"/c/{campaign.slug}/").content.decode()
    assert "In play now" not in other
    assert f'href="{url}"' not in other


@pytest.mark.django_db
def test_the_header_costs_one_query_and_fragments_none(
    campaign: Any, dealer: Any, player_a: Any, pc_a: Any, client_as: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    conflict = showdown(campaign, dealer, pc_a)
    client = client_as(player_a)

    def conflict_reads(url: str, **headers: Any) -> int:
        with CaptureQueriesContext(connection) as queries:
            client.get(url, **headers)
        return sum(
            "running" not in q["sql"] and '"conflicts_conflict"' in q["sql"] for q in queries
        )

    assert conflict_reads("/") == 1
    assert conflict_reads(f"/c/{campaign.slug}/characters/") == 1
    # A conflict's htmx fragment (what every move answers with) does not read them.
    url = f"/c/{campaign.slug}/conflicts/{conflict.pk}/"
    assert conflict_reads(url, HTTP_HX_REQUEST="true") == conflict_reads(
        url, HTTP_HX_REQUEST="true"
    )


# --- What tells the campaign's pages to look again -----------------------------------------------


@pytest.mark.django_db
@override_settings(BROADCASTER="inprocess")  # heard here at once, not through Redis
def test_play_announces_itself_to_the_campaign_pages(
    campaign: Any, dealer: Any, player_a: Any, pc_a: Any, pc_b: Any, heard: list[str],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:  # fmt: skip
    table = f"campaign-{campaign.pk}"

    def announced(action: Callable[[], Any]) -> bool:
        heard.clear()
        live.forget()
        with django_capture_on_commit_callbacks(execute=True):
            action()
        return table in heard

    assert announced(lambda: session_start(campaign=campaign, actor=dealer))
    session = campaign.sessions.get(status="open")
    assert announced(
        lambda: devil_rating_set(session=session, character=pc_a, rating=3, actor=player_a)
    )
    assert announced(lambda: chips_grant(character_id=pc_b.pk, amount=2, actor=dealer))
    made: list[Conflict] = []
    assert announced(lambda: made.append(showdown(campaign, dealer, pc_a, pc_b)))
    d = Membership.objects.get(user=dealer, campaign=campaign)
    conflict = made[0]

    def move(m: engine.Move) -> None:
        conflict.refresh_from_db()
        conflict_move(
            conflict_id=conflict.pk, membership=d, move=m, version=conflict.version,
            rng=random.Random(5),
        )  # fmt: skip

    # An ordinary move does not disturb the campaign page.
    assert not announced(lambda: move(engine.Approve(f"c{pc_a.pk}", ("hand", "eye"))))
    assert announced(lambda: session_end(session_id=session.pk, actor=dealer))


# --- The stream ---------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@override_settings(BROADCASTER="inprocess")
def test_the_stream_is_for_members_only_and_says_changed(
    campaign: Any, dealer: Any, player_a: Any, outsider: User, pc_a: Any
) -> None:
    url = f"/c/{campaign.slug}/stream/"
    table = f"campaign-{campaign.pk}"

    live.forget()  # the fixtures' own announcements (a clock's versions) are past

    async def run() -> None:
        assert (await open_stream(None, url))[0] == 403
        assert (await open_stream(outsider, url))[0] == 404
        status, stream = await open_stream(player_a, url)
        assert status == 200
        assert stream is not None
        try:
            live.deliver(table, 41)
            event = await stream.next()
            assert (event.event, event.id, event.data) == ("changed", 41, "41")
        finally:
            await stream.close()
        # A reconnect that missed a version hears of it at once.
        live.deliver(table, 42)
        status, stream = await open_stream(player_a, url, headers={"Last-Event-ID": "41"})
        assert stream is not None
        try:
            event = await stream.next()
            assert (event.event, event.id) == ("changed", 42)
        finally:
            await stream.close()

    asyncio.run(run())
    asyncio.run(in_thread(lambda: None))


@pytest.mark.django_db
def test_the_pages_listen_to_it(campaign: Any, player_a: Any, client_as: Any) -> None:
    client = client_as(player_a)
    stream = f'sse-connect="/c/{campaign.slug}/stream/"'
    page = client.get(f"/c/{campaign.slug}/").content.decode()
    assert stream in page
    assert 'hx-trigger="sse:changed"' in page
    assert 'hx-select-oob="#pcs,#sessions-list,#running-ribbon"' in page
    session = session_start(campaign=campaign, actor=campaign.memberships.get(role="dealer").user)
    page = client.get(f"/c/{campaign.slug}/sessions/{session.number}/").content.decode()
    assert stream in page
    assert 'hx-select-oob="#devils,#session-story,#running-ribbon"' in page
    for part in ('id="session-state"', 'id="devils"', 'id="session-story"'):
        assert part in page
