"""Closing cleanly (issue 18): the Dealer cancels a conflict set up by mistake before the Deal
(no chips change, said on the timeline and the list); a conflict needs two opposed hands; ending
a session with conflicts in play asks what to do with them, never silently."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.game_sessions import session_end, session_start
from campaigns.models import GameSession, SessionEvent
from campaigns.services import CampaignError
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, pid_of
from tests.conflicts.test_views import Table, dealt, posse, quick_odds, table

pytestmark = pytest.mark.django_db
__all__ = ["posse", "quick_odds", "table"]


def test_the_dealer_cancels_before_the_deal_and_no_chips_change(
    table: Table, dealer: User, player_a: User, pc_a: Any
) -> None:
    table.ok(player_a, "extra-card", pid=pid_of(pc_a))  # a chip spent in it...
    pc_a.refresh_from_db()
    assert pc_a.chips == 2
    assert table.post(player_a, "cancel").status_code == 403  # the Dealer's call
    assert "Cancel the conflict" in table.page(dealer)
    table.ok(dealer, "cancel")
    assert table.state().phase == engine.Phase.CANCELLED
    pc_a.refresh_from_db()
    assert pc_a.chips == 3  # ...comes back: no chips change
    html = table.page(player_a)
    assert "The Dealer cancels the conflict before the Deal" in html
    assert "Cancelled before the Deal" in html
    listing = table.page(dealer, f"/c/{table.conflict.campaign.slug}/conflicts/")
    assert "Cancelled before the Deal" in listing
    assert "sse-connect=" not in html  # over: nothing more to hear


def test_it_cannot_cancel_after_the_deal(table: Table, dealer: User, pc_a: Any, pc_b: Any) -> None:
    dealt(table, dealer, pc_a, pc_b)
    assert "Cancel the conflict" not in table.page(dealer)
    table.post(dealer, "cancel")
    assert "The cards have been dealt" in " ".join(table.messages(dealer))
    assert table.state().phase == engine.Phase.DRAW


def test_it_needs_two_opposed_hands_in_plain_words(
    client: Client, campaign: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    client.force_login(dealer)
    url = f"/c/{campaign.slug}/conflicts/new/"
    both_players = {
        "title": "Side by side", "stakes": 0, "stud": 0,
        f"take_{pc_a.pk}": "on", f"side_{pc_a.pk}": "players",
        f"take_{pc_b.pk}": "on", f"side_{pc_b.pk}": "players",
    }  # fmt: skip
    html = client.post(url, both_players).content.decode()
    assert "A conflict needs at least two opposed hands" in html
    assert "give the Dealer a stud hand" in html
    assert not Conflict.objects.exists()


# --- Ending a session with conflicts in play ----------------------------------------------------


@pytest.fixture
def session_with_a_conflict(campaign: Any, dealer: User, pc_a: Any) -> tuple[GameSession, Conflict]:
    session = session_start(campaign=campaign, actor=dealer)
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Unfinished business", session=session,
        hands=[HandSpec(character=pc_a), HandSpec(stud_size=3)],
    )  # fmt: skip
    return session, conflict


def test_ending_a_session_with_a_conflict_in_play_asks_first(
    session_with_a_conflict: tuple[GameSession, Conflict], dealer: User
) -> None:
    session, _ = session_with_a_conflict
    with pytest.raises(CampaignError, match="Still in play: “Unfinished business”"):
        session_end(session_id=session.pk, actor=dealer)
    result = session_end(session_id=session.pk, actor=dealer, in_play="finish")
    assert not result.ended
    assert "Finish “Unfinished business” first" in result.message
    session.refresh_from_db()
    assert session.status == GameSession.Status.OPEN


def test_ending_a_session_can_fold_its_conflicts_R15(
    session_with_a_conflict: tuple[GameSession, Conflict], dealer: User, pc_a: Any
) -> None:
    session, conflict = session_with_a_conflict
    result = session_end(session_id=session.pk, actor=dealer, in_play="fold")
    assert result.ended
    conflict.refresh_from_db()
    assert conflict.phase == Conflict.Phase.FOLDED
    log = " ".join(SessionEvent.objects.filter(session=session).values_list("text", flat=True))
    assert "Folded at the end: “Unfinished business”." in log


def test_ending_a_session_can_leave_its_conflicts_open_and_says_so(
    session_with_a_conflict: tuple[GameSession, Conflict],
    dealer: User,
    client: Client,
    campaign: Any,
) -> None:
    session, conflict = session_with_a_conflict
    client.force_login(dealer)
    page = client.get(f"/c/{campaign.slug}/sessions/{session.number}/").content.decode()
    assert "Still in play:" in page
    assert 'name="in_play" value="fold"' in page
    client.post(f"/c/{campaign.slug}/sessions/{session.number}/end/", {"in_play": "leave"})
    session.refresh_from_db()
    assert session.status == GameSession.Status.ENDED
    conflict.refresh_from_db()
    assert conflict.phase == Conflict.Phase.SIZING
    log = " ".join(SessionEvent.objects.filter(session=session).values_list("text", flat=True))
    assert "Left in play: “Unfinished business”." in log


# --- Narration is written down -------------------------------------------------------------------


def test_the_narrator_writes_the_narration_down_on_the_timeline_R16(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    from tests.conflicts.test_views import arrange, cards

    dealt(table, dealer, pc_a, pc_b)
    arrange(
        table.conflict,
        {
            pid_of(pc_a): cards("2♣ 3♠ 4♦ 6♥ 7♣ 8♦ 9♣ J♥"),
            pid_of(pc_b): cards("A♠ 2♦ 3♣ 8♣ 10♦ Q♥"),
            "stud": cards("K♥ K♦ K♠ Q♠ Q♦"),
        },
    )
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    url = f"{table.url}narrate/"
    told = {"text": "Bess dives into the river; the posse's shots go wide."}
    table.as_user(player_b).post(url, told)  # not settled yet: the bids are open
    assert "once it is settled" in " ".join(table.messages(player_b))
    table.ok(dealer, "close-bids")  # Bess holds the high card (A♠) and narrates
    assert "Write down what you narrated" in table.page(player_b)
    assert "Write down what you narrated" not in table.page(player_a)  # not the narrator
    before = table.version
    assert table.as_user(player_a).post(url, told).status_code == 302
    assert table.version == before  # refused: Abe does not narrate
    table.as_user(player_b).post(url, told)
    assert table.version == before + 1  # the live screens hear of it
    html = table.page(player_a)
    assert "Narration (Bess Doyle): Bess dives into the river" in html
    assert html.index("Bess Doyle holds the high card") < html.index("Narration (Bess Doyle)")
    table.as_user(dealer).post(url, {"text": "And the Dealer adds: the bridge burns."})
    assert "the bridge burns" in table.page(player_b)
    assert table.as_user(player_a).post(f"{table.url}table/narrate/", told).status_code == 404
    outsider = User.objects.create_user("stranger", password="x-long-password-1")
    assert table.as_user(outsider).post(url, told).status_code == 404
    anonymous = table.as_user(None).post(url, told)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")
