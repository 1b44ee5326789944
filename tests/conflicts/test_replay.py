"""The replay of a finished conflict (issue 18), and hidden information on its URLs (R10): for
every step, as the Dealer, both players, an outsider and an anonymous visitor, no card on the
page that the engine's ``visible_cards(..., ended=True)`` does not allow, the deck's undealt
cards never; and no replay at all while the conflict is in play."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Membership
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Snapshot
from conflicts.services import controlled_pids, pid_of
from tests.conflicts.test_views import Table, card_tokens, dealt, posse, quick_odds, table, texts

pytestmark = pytest.mark.django_db
__all__ = ["posse", "quick_odds", "table"]


def _play_to_the_end(table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any,
                     pc_b: Any) -> None:  # fmt: skip
    dealt(table, dealer, pc_a, pc_b)
    _play_rest(table, dealer, player_a, player_b, pc_a, pc_b)


def test_it_replays_a_finished_conflict_step_by_step_to_every_member_and_nobody_else_R10(
    table: Table, dealer: User, player_a: User, player_b: User, outsider: User,
    pc_a: Any, pc_b: Any,
) -> None:  # fmt: skip
    url = f"{table.url}replay/"
    cast: dict[str, User | None] = {
        "dealer": dealer, "player_a": player_a, "player_b": player_b,
        "outsider": outsider, "anonymous": None,
    }  # fmt: skip

    def refused_to_all_while_in_play(label: str) -> None:
        for name, user in cast.items():
            response = table.as_user(user).get(url)
            if user is None:
                assert response.status_code == 302, label
                assert response["Location"].startswith("/accounts/login/"), label
            else:  # no replay before the end, not even the Dealer's: nothing to leak
                assert response.status_code == 404, f"{label}: {name}"

    refused_to_all_while_in_play("set up")
    dealt(table, dealer, pc_a, pc_b)
    refused_to_all_while_in_play("dealt")
    table.conflict.refresh_from_db()
    assert "Replay, move by move" not in table.page(player_a)

    # Play it out (from the Draw on), then replay every step as everyone.
    _play_rest(table, dealer, player_a, player_b, pc_a, pc_b)
    snapshots = list(Snapshot.objects.filter(conflict=table.conflict).order_by("version"))
    final = table.state()
    assert final.phase == engine.Phase.DONE
    assert [s.version for s in snapshots] == list(range(table.version + 1))
    assert "Replay, move by move" in table.page(player_a)
    phases_seen = set()
    for number, snapshot in enumerate(snapshots, start=1):
        state = state_from_data(snapshot.state)
        phases_seen.add(state.phase)
        in_hands = {c.text for p in state.participants for c in (*p.hand, *p.discarded)}
        undealt = {c.text for c in state.deck.stock} if state.deck else set()
        for name, user in cast.items():
            response = table.as_user(user).get(url, {"step": number})
            where = f"step {number} as {name}"
            if user is None:
                assert response.status_code == 302, where
                continue
            if name == "outsider":
                assert response.status_code == 404, where
                continue
            assert response.status_code == 200, where
            html = response.content.decode()
            membership = Membership.objects.get(user=user, campaign=table.conflict.campaign)
            mine = controlled_pids(table.conflict, membership)
            may = texts(engine.visible_cards(state, mine, dealer=membership.is_dealer, ended=True))
            written = card_tokens(html)
            assert written <= may, f"{where} writes {sorted(written - may)}"
            assert not written & (undealt - in_hands), f"{where} shows the deck"
            assert written == in_hands, where  # after the end: every hand (the salt is out)
            assert f"Step {number} of {len(snapshots)}" in html
    assert {engine.Phase.SIZING, engine.Phase.DRAW, engine.Phase.LAYING} <= phases_seen
    assert {engine.Phase.RESOLUTION, engine.Phase.DONE} <= phases_seen


def _play_rest(table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any,
               pc_b: Any) -> None:  # fmt: skip
    shootin = pc_a.knacks.get(name="Shootin'")
    table.ok(dealer, "approve-knack", pid=pid_of(pc_a), knack=shootin.pk)
    hand = table.state().participant(pid_of(pc_a)).hand
    table.ok(player_a, "draw", pid=pid_of(pc_a), discards=[c.text for c in hand[:2]])
    table.ok(player_b, "draw", pid=pid_of(pc_b), stand="1")
    table.ok(dealer, "call")
    table.ok(dealer, "reveal")
    if not table.state().bids_closed:
        table.ok(dealer, "close-bids")
    for o in table.state().owed:
        p = table.state().participant(o.pid)
        who = {pid_of(pc_a): player_a, pid_of(pc_b): player_b}.get(o.pid, dealer)
        table.ok(who, "allocate", pid=o.pid, **engine.default_allocation(o, p.currents))
    table.ok(dealer, "finish")


def test_the_replay_has_previous_next_and_a_slider_without_javascript(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    _play_to_the_end(table, dealer, player_a, player_b, pc_a, pc_b)
    url = f"{table.url}replay/"
    html = table.page(player_a, url + "?step=1")
    assert "Step 1 of" in html
    assert 'href="?step=2"' in html  # next
    assert 'aria-disabled="true">&larr; Previous' in html
    assert 'type="range" name="step"' in html
    assert "The Dealer sets up" in html  # the step says what happened
    last = table.page(player_a, url)  # no step: the end
    assert "The shuffle&#x27;s salt is revealed" in last or "salt is revealed" in last
    assert 'aria-disabled="true">Next' in last
    assert "js/replay.js" in last
    assert table.as_user(player_a).get(url, {"step": "999"}).status_code == 200  # clamped


def test_the_engine_shows_every_hand_once_ended_but_never_the_deck_R10(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    state = table.state()
    assert state.deck is not None
    seen = engine.visible_cards(state, {pid_of(pc_a)}, dealer=False, ended=True)
    assert seen == {c for p in state.participants for c in (*p.hand, *p.discarded)}
    assert not seen & set(state.deck.stock)
    assert engine.visible_cards(state, {pid_of(pc_a)}, dealer=False) == set(
        state.participant(pid_of(pc_a)).hand
    )
