"""Issue 38: a table's screens at the cost of one read. What every viewer sees alike is made once
per version per process (``tables.pieces.once``), what is one viewer's is made for that
viewer alone (``pieces.planned``), and the odds never hold up a move's screens: they come after
them, as the advisor's own fragment. Hidden cards stay hidden throughout (R10)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from conflicts import streams
from conflicts.reads import table_read
from conflicts.selectors import advice
from conflicts.services import pid_of
from dustdevils.live.tables import Viewer
from tables import pieces
from tests.conflicts.test_views import Table, card_tokens
from tests.live.test_streams import (
    allowed,
    cast,
    dealt,
    in_thread,
    open_stream,
    posse,
    quick_odds,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["cast", "dealt", "posse", "quick_odds"]


def viewer(table: Table, user: User, *, as_table: bool = False) -> Viewer:
    slug = table.conflict.campaign.slug
    return Viewer(user.pk, slug, table.conflict.pk, as_table, f"csrf-of-{user.pk}")


def panels(table: Table, users: dict[str, User], **as_table: bool) -> dict[str, str]:
    """Each viewer's live panel, rendered in an event loop as the streams render them."""
    read = table_read(table.conflict.pk)
    assert read is not None
    viewers = {name: viewer(table, user, **as_table) for name, user in users.items()}

    async def render() -> dict[str, str]:
        out = {}
        for name, seat in viewers.items():
            html = streams.CONFLICTS.panel(seat, read)
            assert html is not None
            out[name] = html
        return out

    return asyncio.run(render())


def test_the_caches_never_carry_a_private_card_across_viewers_R10(
    dealt: Table, cast: dict[str, User], pc_a: Any, pc_b: Any
) -> None:
    """Two players at one table, in the Draw, their screens made one after the other while the
    caches are warm, over two versions: each sees their own cards and no one else's, and what
    is kept for every viewer alike (``once``) holds no card a player could not see anyway."""
    t = dealt
    players = {"player_a": cast["player_a"], "player_b": cast["player_b"]}
    for mover, pc in ((cast["player_b"], pc_b), (cast["player_a"], pc_a)):
        for order in (players, dict(reversed(players.items()))):
            seen = panels(t, order)
            for name, html in seen.items():
                mine = allowed(t, players[name], shared=False)
                assert card_tokens(html) <= mine, name
        own_a = {c.text for c in t.state().participant(pid_of(pc_a)).hand}
        assert own_a <= card_tokens(seen["player_a"])  # not a vacuous pass
        assert own_a.isdisjoint(card_tokens(seen["player_b"]))
        public = allowed(t, cast["dealer"], shared=True)
        kept = list(pieces._VERSIONS._values.values())
        assert kept, "the timeline is kept once per version"
        for html in kept:
            assert card_tokens(html) <= public
        t.ok(mover, "draw", pid=pid_of(pc), stand="1")  # the next version


def test_the_shared_screen_is_made_once_per_version_and_again_at_the_next(
    dealt: Table, cast: dict[str, User], pc_b: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = dealt
    made: list[int] = []
    real = streams.conflict_view

    def counting(data: Any, membership: Any, **kw: Any) -> Any:
        made.append(data.version)
        return real(data, membership, **kw)

    monkeypatch.setattr(streams, "conflict_view", counting)
    watchers = {"a": cast["player_a"], "b": cast["player_b"], "dealer": cast["dealer"]}
    first = panels(t, watchers, as_table=True)
    assert first["a"] is first["b"] is first["dealer"]  # one piece of HTML for all
    assert made == [t.version]
    t.ok(cast["player_b"], "draw", pid=pid_of(pc_b), stand="1")
    second = panels(t, watchers, as_table=True)
    assert made == [t.version - 1, t.version]  # the new version is a new key
    assert second["a"] != first["a"]
    assert f'data-version="{t.version}"' in second["a"]
    assert f'data-version="{t.version}"' not in first["a"]


def test_a_moves_screens_never_wait_for_the_odds_they_come_after_as_their_own_fragment(
    dealt: Table, cast: dict[str, User], pc_a: Any, pc_b: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the Draw a player's screen has an odds meter (25-40 ms of numpy for the real count
    of deals). The move's answer and every live screen go out without working it out: the
    meter is pending and asks the advisor's fragment, which works it out once; after that the
    streams show it at once."""
    t = dealt
    worked: list[str] = []
    real = advice.win_probability

    def counting(*args: Any, **kw: Any) -> Any:
        worked.append("odds")
        return real(*args, **kw)

    monkeypatch.setattr(advice, "win_probability", counting)
    url = t.url + "stream/"
    pid_a = pid_of(pc_a)

    async def scenario() -> tuple[str, str, str, str, str]:
        _, stream = await open_stream(cast["player_a"], url)
        assert stream is not None
        snapshot = await stream.next()
        assert not worked, "the snapshot waited for the odds"
        # player_b stands pat: player_a's screen moves, the odds are not worked out for it.
        answer = await in_thread(
            lambda: t.post(cast["player_b"], "draw", htmx=True, pid=pid_of(pc_b), stand="1")
        )
        update = await stream.next()
        assert not worked, "a move's screens waited for the odds"
        # The browser then asks the advisor's fragment (the pending meter's hx-get).
        fragment = await in_thread(
            lambda: t.page(cast["player_a"], f"{t.url}advice/?pid={pid_a}", HTTP_HX_REQUEST="true")
        )
        assert worked == ["odds"]  # once, for that odds input
        # The next move (player_a stands pat: the same odds input, now in the Call): the
        # streams know the odds by now, and show them without asking again.
        await in_thread(lambda: t.ok(cast["player_a"], "draw", pid=pid_a, stand="1"))
        later = await stream.next()
        await stream.close()
        assert worked == ["odds"]  # not again
        return snapshot.data, answer.content.decode(), update.data, fragment, later.data

    with override_settings(BROADCASTER="inprocess"):
        snapshot, answer, update, fragment, later = asyncio.run(scenario())
    for screen in (snapshot, update):
        assert "data-odds-pending" in screen
        assert f"advice/?pid={pid_a}" in screen
        assert 'hx-trigger="load"' in screen
        assert 'class="odds__label"' not in screen
    assert "data-odds-pending" in answer  # the mover's own answer did not wait either
    assert 'class="odds__label"' in fragment
    assert f'id="advisor-{pid_a}"' in fragment
    assert 'class="odds__label"' in later
    assert "data-odds-pending" not in later
