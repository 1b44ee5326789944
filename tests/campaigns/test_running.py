"""One "In play now" for every table (issue 26 #4): the ribbon on every page lists the
conflicts, fights and saloon games the viewer is part of — a player where their character or
seat is, the Dealer every table of their campaigns — from each model's one ``OVER``, so a
cancelled, folded, finished or turned-into-a-gunfight table leaves it at once; never another
campaign's. Its set-up and end nudge every member's banner (a version, on commit)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from campaigns.game_sessions import session_start
from campaigns.models import GameSession, Membership
from campaigns.services import campaign_create
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, conflict_move
from dustdevils.live import broadcast as live
from fights.models import Fight
from fights.services import ExtrasSpec, fight_create
from saloon.models import Saloon
from tables.running import running_for
from tests.kit import new_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(campaign: Any, dealer: User) -> GameSession:
    return session_start(campaign=campaign, actor=dealer)


@pytest.fixture
def standoff(campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any) -> Conflict:
    return conflict_create(
        campaign=campaign, actor=dealer, title="Standoff at the bank", session=session,
        hands=[HandSpec(character=pc_a), HandSpec(character=npc)],
    )  # fmt: skip


@pytest.fixture
def shootout(campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any) -> Fight:
    return fight_create(
        campaign=campaign, actor=dealer, session=session, title="Shootout at the livery",
        characters=[pc_a, npc], rng=random.Random(3),
    )  # fmt: skip


@pytest.fixture
def player_c(campaign: Any, django_user_model: type[User]) -> User:
    user = django_user_model.objects.create_user(username="player_c", first_name="Cal")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    return user


@pytest.fixture
def poker_night(campaign: Any, player_a: User, player_b: User, player_c: User) -> Saloon:
    """Abe, Bess and Cal at the saloon table; the Dealer is not seated."""
    return new_game(
        "saloon",
        campaign=campaign, actor=player_a, players=[player_a, player_b, player_c],
        rng=random.Random(3),
    )  # fmt: skip


def keys(user: User) -> set[str]:
    return {r.key for r in running_for(user)}


def ribbon(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    return html.split('id="running-ribbon"', 1)[1].split("</nav>", 1)[0]


def member(user: User, campaign: Any) -> Membership:
    return Membership.objects.get(user=user, campaign=campaign)


# --- Who is part of which table -----------------------------------------------------------------


def test_it_lists_the_fight_and_the_saloon_game_the_player_is_in(
    standoff: Conflict, shootout: Fight, poker_night: Saloon, player_a: User, player_b: User,
    dealer: User,
) -> None:  # fmt: skip
    assert keys(player_a) == {
        f"conflict-{standoff.pk}",
        f"fight-{shootout.pk}",
        f"saloon-{poker_night.pk}",
    }
    # Bess has no character in the conflict or the fight, but a seat at the saloon.
    assert keys(player_b) == {f"saloon-{poker_night.pk}"}
    # The Dealer: every running table of the campaign, their own chair or not.
    assert keys(dealer) == keys(player_a)
    tables = {r.key: r for r in running_for(dealer)}
    assert all(r.dealer for r in tables.values())
    assert not any(r.dealer for r in running_for(player_a))
    saloon = tables[f"saloon-{poker_night.pk}"]
    assert (saloon.title, saloon.phase_label) == ("Death Enters the Saloon", "discarding pairs")
    assert tables[f"fight-{shootout.pk}"].phase_label == "round 1, Quickness rolls"
    assert tables[f"conflict-{standoff.pk}"].phase_label == "sizing the Deal"


def test_every_page_shows_them_but_the_one_it_is(
    standoff: Conflict, shootout: Fight, poker_night: Saloon, player_a: User, client_as: Any
) -> None:
    client = client_as(player_a)
    urls = [
        standoff.get_absolute_url(),
        shootout.get_absolute_url(),
        poker_night.get_absolute_url(),
    ]
    home = ribbon(client, "/")
    assert all(f'href="{url}"' in home for url in urls)
    assert "Your seat" in home
    for here in urls:
        shown = ribbon(client, here)
        assert f'href="{here}"' not in shown, here
        assert all(f'href="{url}"' in shown for url in urls if url != here), here


def test_an_ended_table_leaves_at_once(
    standoff: Conflict, shootout: Fight, poker_night: Saloon, player_a: User, campaign: Any,
    dealer: User,
) -> None:  # fmt: skip
    conflict_move(
        conflict_id=standoff.pk, membership=member(dealer, campaign), move=engine.Cancel(),
        version=None,
    )  # fmt: skip
    assert f"conflict-{standoff.pk}" not in keys(player_a)
    Fight.objects.filter(pk=shootout.pk).update(phase=Fight.OVER[0])
    Saloon.objects.filter(pk=poker_night.pk).update(phase=Saloon.OVER[0])
    assert keys(player_a) == set()
    assert keys(dealer) == set()


@pytest.mark.parametrize("phase", [p.value for p in Conflict.OVER])
def test_a_conflict_over_in_any_way_leaves(
    standoff: Conflict, player_a: User, dealer: User, phase: str
) -> None:
    Conflict.objects.filter(pk=standoff.pk).update(phase=phase)
    assert keys(player_a) == keys(dealer) == set()


def test_a_conflict_that_turned_into_a_gunfight_leaves_and_the_fight_comes(
    standoff: Conflict, campaign: Any, dealer: User, player_a: User, session: GameSession,
    pc_a: Any, npc: Any,
) -> None:  # fmt: skip
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Lead at the bank",
        characters=[pc_a, npc], rng=random.Random(3), from_conflict=standoff,
    )  # fmt: skip
    assert keys(player_a) == keys(dealer) == {f"fight-{fight.pk}"}


def test_an_outsider_never_sees_another_campaigns_tables(
    standoff: Conflict, shootout: Fight, poker_night: Saloon, outsider: User, player_a: User,
    client_as: Any,
) -> None:  # fmt: skip
    assert keys(outsider) == set()
    # Their own campaign's table is theirs alone; Abe does not see it.
    tombstone = campaign_create(dealer=outsider, name="Tombstone", setting="Arizona")
    Membership.objects.create(campaign=tombstone, user=player_a, role=Membership.Role.PLAYER)
    theirs = fight_create(
        campaign=tombstone, actor=outsider, title="Dust-up", characters=[],
        session=session_start(campaign=tombstone, actor=outsider),
        extras=[ExtrasSpec("2 Earps", 2), ExtrasSpec("3 Cowboys", 3)], rng=random.Random(3),
    )  # fmt: skip
    assert keys(outsider) == {f"fight-{theirs.pk}"}
    assert f"fight-{theirs.pk}" not in keys(player_a)  # seated at Tombstone, not in the fight
    client = client_as(outsider)
    for url in ("/", "/running/"):
        html = client.get(url).content.decode()
        for table in (standoff, shootout, poker_night):
            assert table.get_absolute_url() not in html, url
    # Someone who left a table is no longer sent to its games.
    Membership.objects.filter(user=player_a, campaign=standoff.campaign).delete()
    assert keys(player_a) == set()


# --- The ribbon on its own, and what tells it to look again ---------------------------------------


def test_the_ribbon_fetches_itself_as_its_page_shows_it(
    standoff: Conflict, shootout: Fight, player_a: User, client_as: Any, client: Client
) -> None:
    client = client_as(player_a)
    page = client.get(standoff.get_absolute_url()).content.decode()
    assert f'hx-get="/running/?here=conflict-{standoff.pk}"' in page
    assert 'hx-trigger="running-changed"' in page
    assert 'data-running-stream="/running/stream/?since=' in page
    assert "js/running.js" in page
    html = client.get(f"/running/?here=conflict-{standoff.pk}").content.decode()
    assert html.lstrip().startswith('<div id="running-ribbon"')
    assert shootout.get_absolute_url() in html
    assert standoff.get_absolute_url() not in html
    slug = standoff.campaign.slug
    html = client.get(f"/running/?shown={slug}").content.decode()
    assert "running__link" not in html  # the campaign page lists its own, big
    client.logout()
    assert client.get("/running/").status_code == 204
    assert "js/running.js" not in client.get("/").content.decode()


@pytest.fixture
def heard() -> Iterator[list[str]]:
    tables: list[str] = []
    stop = live.subscribe(lambda table, version: tables.append(table))
    yield tables
    stop()


@override_settings(BROADCASTER="inprocess")
def test_a_table_set_up_or_ended_nudges_every_members_banner_on_commit(
    campaign: Any, dealer: User, player_a: User, player_b: User, session: GameSession,
    pc_a: Any, npc: Any, heard: list[str], outsider: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:  # fmt: skip
    members = {f"running-{u.pk}" for u in (dealer, player_a, player_b)}

    def nudged(action: Callable[[], Any]) -> set[str]:
        heard.clear()
        live.forget()
        with django_capture_on_commit_callbacks(execute=True):
            action()
        return {t for t in heard if t.startswith("running-")}

    made: list[Any] = []
    assert nudged(lambda: made.append(conflict_create(
        campaign=campaign, actor=dealer, title="Standoff",
        hands=[HandSpec(character=pc_a), HandSpec(character=npc)],
    ))) == members  # fmt: skip
    conflict = made[0]
    d = member(dealer, campaign)
    # An ordinary move does not disturb anyone's banner.
    approve = engine.Approve(f"c{pc_a.pk}", ("hand", "eye"))
    move = lambda m: conflict_move(conflict_id=conflict.pk, membership=d, move=m, version=None)  # noqa: E731
    assert nudged(lambda: move(approve)) == set()
    assert nudged(lambda: move(engine.Cancel())) == members
    assert nudged(lambda: made.append(fight_create(
        campaign=campaign, actor=dealer, session=session, title="Shootout",
        characters=[pc_a, npc], rng=random.Random(3),
    ))) == members  # fmt: skip
    assert f"running-{outsider.pk}" not in heard


@override_settings(BROADCASTER="inprocess")
def test_it_nudges_on_a_change_of_over_only_both_ways(
    poker_night: Saloon, player_a: User, heard: list[str],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:  # fmt: skip
    """The end, a move after it (a rename) that leaves it over, and the saloon's "Continue
    playing" that brings it back: the banner hears the first and the last."""
    mine = f"running-{player_a.pk}"

    def nudged(phase: str) -> bool:
        heard.clear()
        live.forget()
        game = Saloon.objects.get(pk=poker_night.pk)  # read as a move reads it
        game.phase = phase
        with django_capture_on_commit_callbacks(execute=True):
            game.save(update_fields=["phase", "version"])
        return mine in heard

    assert nudged(Saloon.OVER[0])
    assert f"saloon-{poker_night.pk}" not in keys(player_a)
    assert not nudged(Saloon.OVER[0])
    assert nudged("discard")
    assert f"saloon-{poker_night.pk}" in keys(player_a)
    assert not nudged("play")
