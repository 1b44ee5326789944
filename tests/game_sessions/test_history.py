"""What a session leaves behind: the session page's story (conflicts, Difficulty, chips, the Road
to Hell, the recovery) and each character's history on the sheet, with its server-drawn chart."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.game_sessions import session_end, session_start
from campaigns.models import Membership
from campaigns.recovery import session_recover
from characters.history import character_history, history_chart
from characters.models import AttributeChange, SessionSnapshot
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, conflict_move
from tests.game_sessions.conftest import currents, hurt, url

pytestmark = pytest.mark.django_db


def play(campaign: Any, dealer: User, player: User, pc: Any, session: Any) -> Conflict:
    """A whole conflict: ``pc`` on Hand + Eye (hurt to 1 and 1) with a chip for an extra card,
    against a 7-card stud, so it is beaten and takes Difficulty (R9)."""
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Ambush at Dry Creek",
        hands=[HandSpec(character=pc), HandSpec(stud_size=7)],
        session=session,
    )
    d = Membership.objects.get(campaign=campaign, user=dealer)
    p = Membership.objects.get(campaign=campaign, user=player)
    pid = f"c{pc.pk}"

    def move(who: Membership, m: engine.Move) -> engine.ConflictState:
        conflict.refresh_from_db()
        conflict_move(
            conflict_id=conflict.pk,
            membership=who,
            move=m,
            version=conflict.version,
            rng=random.Random(11),
        )
        conflict.refresh_from_db()
        return state_from_data(conflict.state)

    move(d, engine.Approve(pid, ("hand", "eye")))
    move(p, engine.SpendExtraCard(pid))
    move(d, engine.Deal(salt=""))
    move(d, engine.Call(now=True))
    state = move(d, engine.Reveal())
    for owed in state.owed:
        participant = state.participant(owed.pid)
        allocation = engine.default_allocation(owed, participant.currents)
        move(p, engine.Allocate(owed.pid, allocation))
    assert move(d, engine.Finish()).phase == engine.Phase.DONE
    return conflict


def test_it_records_difficulty_taken_in_a_conflict_R9(
    campaign: Any, dealer: User, player_a: User, pc_a: Any, open_session: Any
) -> None:
    hurt(pc_a, hand=1, eye=1)
    conflict = play(campaign, dealer, player_a, pc_a, open_session)
    rows = list(AttributeChange.objects.filter(character=pc_a))
    assert rows, "the stud should have beaten two cards"
    for row in rows:
        assert (row.reason, row.session, row.conflict) == ("difficulty", open_session, conflict)
        assert row.after < row.before
    assert {r.attribute: r.after for r in rows}.items() <= currents(pc_a).items()


def test_it_tells_the_table_what_happened_in_the_session(
    client_as: Callable[[Any], Client],
    campaign: Any,
    dealer: User,
    player_a: User,
    player_b: User,
    pc_a: Any,
    npc: Any,
    open_session: Any,
) -> None:
    hurt(pc_a, hand=1, eye=1)
    play(campaign, dealer, player_a, pc_a, open_session)
    hurt(npc, guts=0)
    AttributeChange.objects.create(
        character=npc, session=open_session, attribute="guts", before=2, after=0,
        reason="difficulty",
    )  # fmt: skip
    html = client_as(player_b).get(url("session", campaign.slug, 1)).content.decode()
    assert "Ambush at Dry Creek" in html
    assert "Won by <strong>The Dealer&#x27;s stud</strong>" in html
    assert "Difficulty taken" in html
    assert "Abe Slade" in html
    assert "&minus;1 spent" in html
    assert "earned" not in html
    assert "Extra card in the Deal" in html
    assert "Mayor Crane" not in html  # the Dealer's character: the Dealer's secret
    dealer_html = client_as(dealer).get(url("session", campaign.slug, 1)).content.decode()
    assert "On the Road to Hell" in dealer_html
    assert "<strong>Mayor Crane</strong>: Guts&nbsp;at&nbsp;0" in dealer_html
    assert "this session" in dealer_html  # Crane reached 0 here


def test_it_shows_the_recovery_on_the_session_page_R22(
    client_as: Callable[[Any], Client],
    campaign: Any,
    dealer: User,
    pc_a: Any,
    pc_b: Any,
    open_session: Any,
) -> None:
    hurt(pc_a, hand=2, guts=0)
    hurt(pc_b, eye=1)
    session_end(session_id=open_session.pk, actor=dealer, carry_over_ids=[pc_b.pk])
    client = client_as(dealer)
    html = client.get(url("session", campaign.slug, 1)).content.decode()
    assert "Under way" in html
    session_recover(session_id=open_session.pk)
    html = client.get(url("session", campaign.slug, 1)).content.decode()
    assert "Under way" not in html
    assert "2 points restored." in html
    assert "<strong>Damage carries over</strong> for Bess Doyle." in html
    assert "Hand 2&nbsp;&rarr;&nbsp;<b>4</b>" in html
    assert "At 0, no recovery: Abe Slade&#x27;s Guts (R17)." in html
    assert "End the session" not in html


def test_it_draws_the_history_chart_on_the_sheet(
    client_as: Callable[[Any], Client],
    campaign: Any,
    dealer: User,
    player_a: User,
    player_b: User,
    pc_a: Any,
) -> None:
    first = session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, hand=1, eye=1)
    play(campaign, dealer, player_a, pc_a, first)
    session_end(session_id=first.pk, actor=dealer)
    session_recover(session_id=first.pk)
    second = session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, heart=0)
    session_end(session_id=second.pk, actor=dealer)
    session_recover(session_id=second.pk)
    html = client_as(player_b).get(pc_a.get_absolute_url()).content.decode()
    assert '<h2 class="box__title" id="h-history">History</h2>' in html
    svg = re.search(r"<svg class=\"history-chart__svg\".*?</svg>", html, re.S)
    assert svg is not None
    assert svg.group(0).count("<polyline") == 8  # a current and a rating line per attribute
    assert svg.group(0).count('class="chips-band__bar"') == 2
    assert "strip__dot strip__dot--zero" in svg.group(0)  # Heart at 0 after session 2 (R17)
    assert ">S1<" in svg.group(0)
    assert ">S2<" in svg.group(0)
    assert "Session 2" in html
    assert "Session 1" in html
    assert "Recovered at the session&#x27;s end" in html
    assert "Ambush at Dry Creek" in html  # the Difficulty's conflict
    assert "Extra card in the Deal" in html  # a chip spent


def test_it_keeps_the_sheet_plain_until_a_session_ends(
    client_as: Callable[[Any], Client], pc_a: Any, player_a: User
) -> None:
    html = client_as(player_a).get(pc_a.get_absolute_url()).content.decode()
    assert "h-history" not in html


def test_it_keeps_an_npcs_history_from_the_players(
    client_as: Callable[[Any], Client],
    campaign: Any,
    dealer: User,
    player_a: User,
    npc: Any,
    open_session: Any,
) -> None:
    hurt(npc, heart=1)
    session_end(session_id=open_session.pk, actor=dealer)
    session_recover(session_id=open_session.pk)
    sheet = npc.get_absolute_url()
    assert "h-history" not in client_as(player_a).get(sheet).content.decode()
    assert "h-history" in client_as(dealer).get(sheet).content.decode()


def test_it_places_the_chart_points_by_value(
    campaign: Any, dealer: User, pc_a: Any, open_session: Any
) -> None:
    hurt(pc_a, hand=0)
    session_end(session_id=open_session.pk, actor=dealer)
    chart = history_chart(list(SessionSnapshot.objects.select_related("session")))
    hand = chart.strips[0]
    assert (hand.label, hand.last) == ("Hand", 0)
    (dot,) = hand.dots
    assert dot.zero
    assert dot.y == pytest.approx(hand.top + hand.height - 4)
    eye = chart.strips[1]
    assert eye.dots[0].y == pytest.approx(eye.top + 4 + (eye.height - 8) * (5 - 3) / 5)
    assert chart.bars[0].value == 3
    assert "Hand 0 of 4" in chart.description
    history = character_history(pc_a)
    assert [s.session.number for s in history.snapshots] == [1]
