"""“This turns into a gunfight” (issue 17): from a conflict's Dealer console, the fight set-up
form with the conflict's characters ticked; the fight records the conflict it broke out of and
both pages link to each other — the mirror of R32's “Settle this with a conflict”
(``Conflict.fight``). Dealer only; 404 for outsiders and for another campaign's conflict."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import GameSession
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create
from fights.models import Fight
from fights.services import FightError, fight_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def standoff(campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any) -> Conflict:
    """Abe against Mayor Crane and a 5-card stud (his hired guns): it is about to turn ugly."""
    return conflict_create(
        campaign=campaign, actor=dealer, title="Standoff at the bank", session=session,
        hands=[
            HandSpec(character=pc_a, goal="Get the deed"),
            HandSpec(character=npc, goal="Keep it"),
            HandSpec(stud_size=5, goal="The hired guns"),
        ],
    )  # fmt: skip


def new_url(conflict: Conflict) -> str:
    return f"/c/{conflict.campaign.slug}/fights/new/?conflict={conflict.pk}"


def start_data(session: GameSession, *characters: Any, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": "", "session": session.pk, "cap": 5, "fate_pot": "white 10, red 5, blue 3",
        "extras": "", **extra,
    }  # fmt: skip
    data |= {f"take_{c.pk}": "on" for c in characters}
    return data


# --- The service --------------------------------------------------------------------------------


def test_it_records_the_conflict_the_fight_broke_out_of(
    standoff: Conflict, campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any
) -> None:
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="", characters=[pc_a, npc],
        rng=random.Random(3), from_conflict=standoff,
    )  # fmt: skip
    assert fight.from_conflict == standoff
    assert list(standoff.fights.all()) == [fight]
    first = fight.events.order_by("seq").first()
    assert first is not None
    assert first.text == "The conflict “Standoff at the bank” turns into a gunfight."


def test_the_conflicts_screens_hear_of_it_live_with_a_line_on_its_timeline(
    standoff: Conflict, campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any,
    player_a: User, client: Client, django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    """Every open screen of the conflict moves on (its version, announced once the fight is
    committed) and shows the line and the link to the fight."""
    from django.test import override_settings

    from dustdevils.live import broadcast as live

    before = standoff.version
    heard: list[tuple[str, int]] = []
    unsubscribe = live.subscribe(lambda table, version: heard.append((table, version)))
    try:
        with (
            override_settings(BROADCASTER="inprocess"),
            django_capture_on_commit_callbacks(execute=True),
        ):
            fight = fight_create(
                campaign=campaign, actor=dealer, session=session, title="Lead at the bank",
                characters=[pc_a, npc], rng=random.Random(3), from_conflict=standoff,
            )  # fmt: skip
            assert heard == []  # not before the commit
    finally:
        unsubscribe()
    # The line, then the engine's Cancel (issue 26): two versions, the newest announced.
    assert (f"conflict-{standoff.pk}", before + 2) in heard
    standoff.refresh_from_db()
    assert standoff.version == before + 2
    lines = [e.text for e in standoff.events.order_by("-seq")[:2]][::-1]
    assert lines[0] == "This turns into a gunfight: “Lead at the bank”."
    assert lines[1].startswith("The Dealer cancels the conflict before the Deal")
    client.force_login(player_a)
    page = client.get(standoff.get_absolute_url()).content.decode()
    assert fight.get_absolute_url() in page


def test_it_refuses_a_conflict_of_another_campaign_writing_nothing(
    standoff: Conflict, dealer: User, outsider: User, pc_a: Any, npc: Any
) -> None:
    from campaigns.game_sessions import session_start
    from campaigns.services import campaign_create

    elsewhere = campaign_create(dealer=outsider, name="Tombstone", setting="Arizona")
    other_session = session_start(campaign=elsewhere, actor=outsider)
    with pytest.raises(FightError, match="another campaign"):
        fight_create(
            campaign=elsewhere, actor=outsider, session=other_session, title="",
            characters=[], from_conflict=standoff,
        )  # fmt: skip
    assert Fight.objects.count() == 0


# --- The fight settles the conflict (issue 26) -------------------------------------------------


def test_it_calls_off_a_conflict_not_dealt_yet_giving_back_its_chips(
    standoff: Conflict, campaign: Any, dealer: User, player_a: User, session: GameSession,
    pc_a: Any, npc: Any,
) -> None:  # fmt: skip
    """Before the Deal, the engine's own Cancel through the conflicts' pipeline: over at once
    (Conflict.OVER), a chip spent in it back on the ledger, gone from "In play now"."""
    from campaigns.models import Membership
    from conflicts.engine import conflict as engine
    from conflicts.services import conflict_move
    from tables.running import running_for

    abe = Membership.objects.get(campaign=campaign, user=player_a)
    conflict_move(
        conflict_id=standoff.pk, membership=abe, move=engine.SpendExtraCard(f"c{pc_a.pk}"),
        version=None,
    )  # fmt: skip
    pc_a.refresh_from_db()
    assert pc_a.chips == 2
    assert [r.key for r in running_for(player_a)] == [f"conflict-{standoff.pk}"]
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Lead at the bank",
        characters=[pc_a, npc], rng=random.Random(3), from_conflict=standoff,
    )  # fmt: skip
    standoff.refresh_from_db()
    assert standoff.phase == Conflict.Phase.CANCELLED
    assert standoff.is_over
    pc_a.refresh_from_db()
    assert pc_a.chips == 3  # the extra card's chip went back
    assert [r.key for r in running_for(player_a)] == [f"fight-{fight.pk}"]
    assert [r.key for r in running_for(dealer)] == [f"fight-{fight.pk}"]


@pytest.mark.parametrize("phase", ["done", "folded"])
def test_a_conflict_already_over_stays_as_it_ended(
    standoff: Conflict, campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any,
    phase: str,
) -> None:  # fmt: skip
    Conflict.objects.filter(pk=standoff.pk).update(phase=phase)
    before = standoff.events.count()
    fight_create(
        campaign=campaign, actor=dealer, session=session, title="Lead at the bank",
        characters=[pc_a, npc], rng=random.Random(3), from_conflict=standoff,
    )  # fmt: skip
    standoff.refresh_from_db()
    assert standoff.phase == phase
    assert standoff.events.count() == before + 1  # the line, nothing else


def test_a_conflict_whose_cards_are_out_must_end_first_and_nothing_is_written(
    standoff: Conflict, campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any,
) -> None:  # fmt: skip
    from campaigns.models import Membership
    from conflicts.engine import conflict as engine
    from conflicts.services import conflict_move

    delia = Membership.objects.get(campaign=campaign, user=dealer)
    approvals = [engine.Approve(f"c{c.pk}", ("hand", "eye")) for c in (pc_a, npc)]
    for move in (*approvals, engine.Deal(salt="")):
        conflict_move(
            conflict_id=standoff.pk, membership=delia, move=move, version=None,
            rng=random.Random(4),
        )  # fmt: skip
    standoff.refresh_from_db()
    assert standoff.phase == Conflict.Phase.DRAW
    version, lines = standoff.version, standoff.events.count()
    with pytest.raises(FightError, match="finish it, or fold it, first"):
        fight_create(
            campaign=campaign, actor=dealer, session=session, title="Lead at the bank",
            characters=[pc_a, npc], rng=random.Random(3), from_conflict=standoff,
        )  # fmt: skip
    assert Fight.objects.count() == 0
    standoff.refresh_from_db()
    assert (standoff.phase, standoff.version, standoff.events.count()) == ("draw", version, lines)


# --- The views ----------------------------------------------------------------------------------


def test_it_shows_the_dealer_the_button_on_the_conflict_console_and_not_the_players(
    standoff: Conflict, client: Client, dealer: User, player_a: User
) -> None:
    client.force_login(dealer)
    assert new_url(standoff) in client.get(standoff.get_absolute_url()).content.decode()
    client.force_login(player_a)
    page = client.get(standoff.get_absolute_url())
    assert page.status_code == 200
    assert "This turns into a gunfight" not in page.content.decode()


def test_it_opens_the_fight_form_with_the_conflicts_characters_ticked(
    standoff: Conflict, client: Client, dealer: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    client.force_login(dealer)
    response = client.get(new_url(standoff))
    assert response.status_code == 200
    form = response.context["form"]
    assert form[f"take_{pc_a.pk}"].value() is True
    assert form[f"take_{npc.pk}"].value() is True
    assert form[f"take_{pc_b.pk}"].value() is False  # not in the conflict
    assert form["title"].value() == "Standoff at the bank: the gunfight"
    html = response.content.decode()
    assert f'action="?conflict={standoff.pk}"' in html
    assert standoff.get_absolute_url() in html


def test_it_starts_the_fight_linked_both_ways_without_javascript(
    standoff: Conflict,
    client: Client,
    dealer: User,
    player_a: User,
    session: GameSession,
    pc_a: Any,
    npc: Any,
) -> None:
    client.force_login(dealer)
    data = start_data(session, pc_a, npc, extras="5 hired guns 2d6")
    response = client.post(new_url(standoff), data)
    fight = Fight.objects.get()
    assert response.status_code == 302
    assert response["Location"] == fight.get_absolute_url()
    assert fight.from_conflict_id == standoff.pk
    assert fight.seats.count() == 3
    conflict_page = client.get(standoff.get_absolute_url()).content.decode()
    assert f'href="{fight.get_absolute_url()}"' in conflict_page
    assert new_url(standoff) not in conflict_page  # started once: the link replaces the button
    client.force_login(player_a)  # the players follow the links too
    assert standoff.get_absolute_url() in client.get(fight.get_absolute_url()).content.decode()
    assert fight.get_absolute_url() in client.get(standoff.get_absolute_url()).content.decode()


def test_it_refuses_a_fight_of_one_combatant_writing_nothing(
    standoff: Conflict, client: Client, dealer: User, session: GameSession, pc_a: Any
) -> None:
    client.force_login(dealer)
    response = client.post(new_url(standoff), start_data(session, pc_a))
    assert response.status_code == 200
    assert "at least two sides" in response.content.decode()
    assert Fight.objects.count() == 0


def test_it_forbids_players_and_hides_the_conflict_from_outsiders_and_anonymous(
    standoff: Conflict,
    client: Client,
    player_a: User,
    outsider: User,
    session: GameSession,
    pc_a: Any,
    npc: Any,
) -> None:
    data = start_data(session, pc_a, npc)
    client.force_login(player_a)
    assert client.get(new_url(standoff)).status_code == 403
    assert client.post(new_url(standoff), data).status_code == 403
    client.force_login(outsider)
    assert client.get(new_url(standoff)).status_code == 404
    client.logout()
    response = client.get(new_url(standoff))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert Fight.objects.count() == 0


def test_it_gives_404_for_another_campaigns_conflict(
    standoff: Conflict, client: Client, outsider: User
) -> None:
    from campaigns.services import campaign_create

    elsewhere = campaign_create(dealer=outsider, name="Tombstone", setting="Arizona")
    client.force_login(outsider)  # the Dealer of their own campaign, not of Dry Gulch
    url = f"/c/{elsewhere.slug}/fights/new/?conflict={standoff.pk}"
    assert client.get(url).status_code == 404
    assert client.get(f"/c/{elsewhere.slug}/fights/new/?conflict=x").status_code == 404
