"""Issue 27, a game night's dead ends and wrong words around a last stand (R17): the end can be
written, the narration says why the character narrates, and the phone says it is the last."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from characters.models import Character
from conflicts.models import Conflict
from conflicts.services import pid_of
from tests.characters.conftest import text_of
from tests.conflicts.test_rule_gaps import last_stand
from tests.conflicts.test_views import Table, arrange, cards, posse, quick_odds

__all__ = ["posse", "quick_odds"]  # fixtures
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client: Client, posse: Conflict) -> Table:
    return Table(client, posse)


def test_the_end_can_be_written_after_a_last_stand_R17(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    last_stand(table, dealer, player_a, pc_a, pc_b)
    leave = f"/c/{table.conflict.campaign.slug}/characters/{pc_a.pk}/leave-play/"
    words = text_of(table.page(player_a, leave))
    assert "is not on the Road to Hell" not in words
    assert "That was Abe Slade’s last conflict (R17)" in words
    assert "Write the end" in words
    assert 'name="epitaph"' in table.page(player_a, leave)


def test_a_last_stand_narrates_because_of_it_not_by_a_high_card_R17(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    Character.objects.filter(pk=pc_a.pk).update(guts_current=0)
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["guts", "hand"], devil=0)
    table.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["hand", "eye"], devil=0)
    table.ok(dealer, "deal")
    arrange(
        table.conflict,
        {
            pid_of(pc_a): cards("2♣ 3♠ 4♦ 6♥ 7♣ 8♦"),
            pid_of(pc_b): cards("A♠ 2♦ 3♣ 8♣ 10♦ Q♥ 4♠"),
            "stud": cards("K♥ K♦ K♠ Q♠ Q♦"),
        },
    )
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    for viewer in (dealer, player_a):
        words = text_of(table.page(viewer))
        assert "Abe Slade narrates: it is Abe Slade’s last stand" in words
        assert "narrates with the high card" not in words


def test_the_phone_says_a_last_stand_is_the_last_conflict_and_links_to_the_end_R17(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    Character.objects.filter(pk=pc_a.pk).update(guts_current=0)
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["guts", "hand"], devil=0)
    words = text_of(table.page(player_a))
    assert "This is Abe Slade’s last conflict" in words
    assert "leaves play and you write the end" in words


def test_the_finished_last_stand_links_the_phone_to_the_end_R17(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    last_stand(table, dealer, player_a, pc_a, pc_b)
    html = table.page(player_a)
    leave = f"/c/{table.conflict.campaign.slug}/characters/{pc_a.pk}/leave-play/"
    assert f'id="last-stand-{pid_of(pc_a)}"' in html
    section = html.split(f'id="last-stand-{pid_of(pc_a)}"')[1].split("</div>")[0]
    assert f'href="{leave}"' in section
    assert "last conflict" in text_of(section)


# --- The Dealer's NEXT banner: the Dealer plays the important NPC's hand (R12) -----------------


@pytest.fixture
def showdown(client: Client, campaign: Any, dealer: User, pc_a: Any, npc: Any) -> Table:
    from conflicts.services import HandSpec, conflict_create

    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Showdown with the mayor",
        hands=[
            HandSpec(character=pc_a, goal="Run him out"),
            HandSpec(character=npc, side="dealer"),
        ],
    )
    return Table(client, conflict)


def test_the_dealers_banner_never_waits_for_the_dealers_own_npc_R12(
    showdown: Table, dealer: User, player_a: User, pc_a: Any, npc: Any
) -> None:
    from tests.conflicts.test_phone import next_banner, top_action

    t, abe, crane = showdown, pid_of(pc_a), pid_of(npc)
    html = t.page(dealer)
    assert next_banner(html) == "Set Mayor Crane's Deal"
    assert top_action(html) == "Set Mayor Crane's Deal"
    t.ok(dealer, "approve", pid=crane, attributes=["heart", "eye"], devil=0)
    html = t.page(dealer)
    # The banner and the top button say the same thing; no "Waiting for Abe's proposal".
    assert next_banner(html) == "Set Abe Slade's Deal, or wait for the proposal"
    assert top_action(html) == "Set Abe Slade's Deal"
    t.ok(player_a, "propose", pid=abe, attributes=["hand", "eye"])
    assert next_banner(t.page(dealer)) == "Approve Abe Slade's Deal"
    t.ok(dealer, "approve", pid=abe, attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "deal")
    t.ok(player_a, "draw", pid=abe, stand="1")
    html = t.page(dealer)
    assert next_banner(html) == "Draw for Mayor Crane"
    assert top_action(html) == "Draw for Mayor Crane"
    assert f'href="#seat-{crane}"' in html
    t.ok(dealer, "draw", pid=crane, stand="1")
    t.ok(dealer, "call")
    assert next_banner(t.page(dealer)) == "Lay for Mayor Crane"
    assert "Waiting for" not in next_banner(t.page(dealer))
