"""Every live game page is readable by everyone (issue 36 #5), the Dust Devils tables here (the
card games' in test_readable_games.py): axe-core finds no WCAG 2.1 A or AA violation on any page
of a conflict or a fight in any phase — the Dealer's console, a player's phone, the
shared table screen — on a phone (390×844) and a laptop (1280×800), and every card shown is
announced by its name in words. The tables are driven to each phase through the services,
never by clicking; one Chromium serves the module."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser

from campaigns.game_sessions import session_start
from campaigns.models import Membership
from characters.services import chips_grant
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data as conflict_state
from conflicts.services import HandSpec, conflict_create, conflict_move
from fights.engine import action_deck as fe
from fights.engine.serial import state_from_data as fight_state
from fights.services import ExtrasSpec, fight_create, fight_move
from tests.e2e.readers import Readers

pytestmark = pytest.mark.e2e

Cookie = Callable[[User], dict[str, str]]


@pytest.fixture
def people(
    app_url: str,
    transactional_db: None,
    dealer: User,
    player_a: User,
    login_cookie: Cookie,
    module_chromium: Browser,
) -> Iterator[Readers]:
    users: dict[str, User | None] = {"dealer": dealer, "player": player_a}
    readers = Readers(module_chromium, app_url, login_cookie, users)
    try:
        yield readers
    finally:
        readers.close()


def look_at_table(people: Readers, url: str, where: str) -> None:
    """The Dealer's screen and a player's phone, and the shared table screen (on the Dealer's)."""
    people.look(url, where)
    people.look(url + "table/", f"{where}, the table screen", ("dealer",))


def seat(user: User, campaign: Any) -> Membership:
    return Membership.objects.select_related("campaign").get(user=user, campaign=campaign)


def test_a_conflict_is_readable_in_every_phase(
    people: Readers, campaign: Any, dealer: User, player_a: User, player_b: User,
    pc_a: Any, pc_b: Any,
) -> None:  # fmt: skip
    table = conflict_create(
        campaign=campaign, actor=dealer, title="The posse at the canyon",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
        stakes=1,
    )  # fmt: skip
    url = table.get_absolute_url()
    d, a, b = (seat(u, campaign) for u in (dealer, player_a, player_b))
    pa, pb = f"c{pc_a.pk}", f"c{pc_b.pk}"
    chips_grant(character_id=pc_b.pk, amount=1, actor=None)  # enough to fold

    def move(who: Membership, m: engine.Move) -> engine.ConflictState:
        table.refresh_from_db()
        conflict_move(
            conflict_id=table.pk, membership=who, move=m, version=table.version,
            rng=random.Random(7),
        )  # fmt: skip
        table.refresh_from_db()
        return conflict_state(table.state)

    look_at_table(people, url, "a conflict before the Deal")
    move(a, engine.Propose(pa, ("hand", "eye"), trait=True))
    move(d, engine.Approve(pa, ("hand", "eye"), trait=True))
    look_at_table(people, url, "a conflict, sizing")
    move(d, engine.Approve(pb, ("guts", "heart")))
    s = move(d, engine.Deal(salt=""))
    look_at_table(people, url, "a conflict, the Draw")
    move(a, engine.NameKnack(pa, "Shootin'", 4))
    move(d, engine.ApproveKnack(pa, "Shootin'", 4))
    move(a, engine.Draw(pa, s.participant(pa).hand[:2]))
    move(b, engine.Fold(pb))
    move(d, engine.Call(now=True))
    look_at_table(people, url, "a conflict, the Call (laying)")
    s = move(d, engine.Reveal())
    look_at_table(people, url, "a conflict, the lays revealed")
    for owed in s.owed:
        p = s.participant(owed.pid)
        move(a, engine.Allocate(owed.pid, engine.default_allocation(owed, p.currents)))
    assert move(d, engine.Finish()).phase == engine.Phase.DONE
    look_at_table(people, url, "a conflict, over")
    people.look(url + "replay/", "a conflict's replay")
    people.assert_none()


def test_a_fight_is_readable_in_every_phase(
    people: Readers, campaign: Any, dealer: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session_start(campaign=campaign, actor=dealer),
        title="Shootout at the livery", characters=[pc_a, pc_b, npc],
        extras=[ExtrasSpec("3 Pinkertons", 3, "2d6")], rng=random.Random(3),
    )  # fmt: skip
    url = fight.get_absolute_url()
    d = seat(dealer, campaign)
    rng = random.Random(5)

    def move(m: fe.Move) -> fe.FightState:
        fight.refresh_from_db()
        fight_move(fight_id=fight.pk, membership=d, move=m, version=fight.version, rng=rng)
        fight.refresh_from_db()
        return fight_state(fight.state)

    look_at_table(people, url, "a fight, before the deal")
    for round_ in (1, 2):
        state = fight_state(fight.state)
        for c in fe.quickness_needed(state):
            state = move(fe.RollQuickness(c.cid))
        state = move(fe.DealRound())
        look_at_table(people, url, f"a fight, round {round_} dealt")
        for _ in range(3):
            current = fe.up(state)
            if current is None:
                break
            state = move(fe.Act(current[0].cid, "shoots", speed=fe.Speed.SHORT))
        look_at_table(people, url, f"a fight, round {round_} under way")
        move(fe.EndRound())
    assert move(fe.EndFight()).phase == fe.Phase.OVER
    look_at_table(people, url, "a fight, over")
    people.assert_none()
