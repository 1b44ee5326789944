"""Bringing a combatant into a fight under way (issue 17): the Dealer's "Someone joins the fight"
form — a character of the campaign not yet fighting, or a line of unnamed extras with their
Quickness dice, surprised or not (R26). Dealer only; plain refusals with nothing written; stale
forms and double clicks handled like every fight move; and after the join, no screen or stream
carries a card its viewer may not see (R30)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from campaigns.models import GameSession, Membership
from characters.models import Character
from conflicts.combat.models import Fight
from conflicts.combat.services import (
    ExtrasSpec,
    FightError,
    Recruit,
    StaleMove,
    cid_of,
    fight_create,
    fight_move,
)
from conflicts.engine import action_deck as engine
from conflicts.engine.dice import DiceSpec
from tests.combat.conftest import FightTable, rig, state_of
from tests.conflicts.test_views import card_tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheriff(campaign: Any) -> Character:
    from characters.services import character_create

    data = {
        "name": "Sheriff Hale", "hand": 3, "eye": 3, "guts": 3, "heart": 2,
        "devil": "Took the Mayor's money once.", "devil_rating": 2,
    }  # fmt: skip
    return character_create(
        campaign=campaign, kind="npc", player=None, data=data, knacks={"Shootin'": 3}
    )


@pytest.fixture
def duel(campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any) -> Fight:
    """Abe against Mayor Crane; Bess, the Sheriff and more Pinkertons may join."""
    return fight_create(
        campaign=campaign, actor=dealer, session=session, title="Main street",
        characters=[pc_a, npc], rng=random.Random(3),
    )  # fmt: skip


@pytest.fixture
def t(client: Client, duel: Fight) -> FightTable:
    return FightTable(client, duel)


def member(user: User, fight: Fight) -> Membership:
    return Membership.objects.select_related("campaign").get(user=user, campaign=fight.campaign)


def written(fight: Fight) -> tuple[int, Any, int, int]:
    fight.refresh_from_db()
    return (fight.version, fight.state, fight.events.count(), fight.seats.count())


def deal_round_1(t: FightTable, dealer: User, pc_a: Any, npc: Any) -> None:
    t.ok(dealer, "quickness", cid=cid_of(pc_a), total=13)
    t.ok(dealer, "quickness", cid=cid_of(npc), total=8)
    rig(t.fight, "RJ 9♣ 3♦ Q♠ 7♦")
    t.ok(dealer, "deal")


# --- The service --------------------------------------------------------------------------------


def test_it_brings_an_npc_in_with_a_seat_a_combatant_and_a_timeline_line(
    duel: Fight, dealer: User, sheriff: Character
) -> None:
    before = duel.version
    fight_move(
        fight_id=duel.pk, membership=member(dealer, duel), move=Recruit(sheriff.pk),
        version=before, key="k1",
    )  # fmt: skip
    seat = duel.seats.get(cid=cid_of(sheriff))
    assert (seat.kind, seat.name, seat.character_id) == ("npc", "Sheriff Hale", sheriff.pk)
    joined = state_of(duel).combatant(cid_of(sheriff))
    assert joined.kind == engine.CombatantKind.NPC
    assert joined.quickness == DiceSpec(3, 6)  # R27: (Hand)d6
    assert duel.version == before + 1
    assert duel.events.filter(text__contains="Sheriff Hale joins the fight").exists()


def test_it_brings_a_player_character_in_mid_countdown_with_cards_from_the_next_round_r31(
    t: FightTable, dealer: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    deal_round_1(t, dealer, pc_a, npc)
    t.ok(dealer, "join", character=pc_b.pk)
    state = t.state()
    assert state.phase == engine.Phase.COUNTDOWN
    assert state.combatant(cid_of(pc_b)).hand == ()
    assert t.fight.events.filter(text__contains="cards from the next round").exists()
    t.ok(dealer, "end-round")
    assert cid_of(pc_b) in {c.cid for c in engine.quickness_needed(t.state())}


def test_it_brings_a_line_of_extras_in_with_their_dice_and_surprise_r26(
    duel: Fight, dealer: User
) -> None:
    fight_move(
        fight_id=duel.pk, membership=member(dealer, duel),
        move=Recruit(extras=ExtrasSpec("2 Pinkertons", 2, "2d6"), surprised=True),
        version=duel.version, key="k1",
    )  # fmt: skip
    seat = duel.seats.get(kind="extras")
    assert (seat.cid, seat.name, seat.size) == ("x1", "2 Pinkertons", 2)
    gang = state_of(duel).combatant("x1")
    assert (gang.quickness, gang.size, gang.surprised) == (DiceSpec(2, 6), 2, True)
    assert duel.events.filter(text="Surprised (R26): 2 Pinkertons.").exists()


def test_it_numbers_a_second_line_of_extras_after_the_first(gunfight: Fight, dealer: User) -> None:
    fight_move(
        fight_id=gunfight.pk, membership=member(dealer, gunfight),
        move=Recruit(extras=ExtrasSpec("2 more Pinkertons", 2, "2d6")), version=None,
    )  # fmt: skip
    assert sorted(gunfight.seats.filter(kind="extras").values_list("cid", flat=True)) == [
        "x1",
        "x2",
    ]


@pytest.mark.parametrize(
    ("move", "says"),
    [
        (lambda c: Recruit(10**6), "no such character"),
        (lambda c: Recruit(c["abe"]), "Abe Slade is already in this fight"),
        (lambda c: Recruit(), "Pick one character, or name a line of extras"),
        (lambda c: Recruit(extras=ExtrasSpec("  ", 2, "2d6")), "needs a name"),
        (lambda c: Recruit(extras=ExtrasSpec("Pinkertons", 0, "2d6")), "1 to 50 members"),
    ],
)
def test_it_refuses_a_newcomer_it_cannot_seat_in_plain_words_writing_nothing(
    duel: Fight, dealer: User, pc_a: Any, move: Any, says: str
) -> None:
    before = written(duel)
    with pytest.raises(FightError, match=says):
        fight_move(
            fight_id=duel.pk, membership=member(dealer, duel), move=move({"abe": pc_a.pk}),
            version=duel.version, key="bad",
        )  # fmt: skip
    assert written(duel) == before


def test_it_refuses_a_character_of_another_campaign(
    duel: Fight, dealer: User, outsider: User
) -> None:
    from campaigns.services import campaign_create
    from characters.services import character_create

    elsewhere = campaign_create(dealer=outsider, name="Tombstone", setting="Arizona")
    stranger = character_create(
        campaign=elsewhere, kind="npc", player=None,
        data={"name": "Ike", "hand": 2, "eye": 2, "guts": 2, "heart": 2, "devil": "Greed.",
              "devil_rating": 2},
        knacks={"Shootin'": 2},
    )  # fmt: skip
    before = written(duel)
    with pytest.raises(FightError, match="no such character in this campaign"):
        fight_move(
            fight_id=duel.pk, membership=member(dealer, duel), move=Recruit(stranger.pk),
            version=duel.version,
        )  # fmt: skip
    assert written(duel) == before


def test_it_refuses_to_bring_anyone_into_a_fight_that_is_over(
    t: FightTable, dealer: User, sheriff: Character
) -> None:
    t.ok(dealer, "end-fight")
    t.refused(dealer, "join", "This fight is over", character=sheriff.pk)
    assert not t.fight.seats.filter(cid=cid_of(sheriff)).exists()


def test_it_refuses_a_player_who_tries_to_bring_someone_in(
    duel: Fight, player_a: User, sheriff: Character
) -> None:
    before = written(duel)
    with pytest.raises(FightError, match="Only the Dealer"):
        fight_move(
            fight_id=duel.pk, membership=member(player_a, duel), move=Recruit(sheriff.pk),
            version=duel.version,
        )  # fmt: skip
    assert written(duel) == before


def test_it_refuses_a_stale_join_and_takes_a_double_click_once(
    duel: Fight, dealer: User, sheriff: Character
) -> None:
    with pytest.raises(StaleMove):
        fight_move(
            fight_id=duel.pk, membership=member(dealer, duel), move=Recruit(sheriff.pk),
            version=duel.version + 1,
        )  # fmt: skip
    for _ in range(2):
        fight_move(
            fight_id=duel.pk, membership=member(dealer, duel),
            move=Recruit(extras=ExtrasSpec("2 Pinkertons", 2, "2d6")), version=1 if _ else 0,
            key="same-click",
        )  # fmt: skip
    assert duel.seats.filter(kind="extras").count() == 1
    duel.refresh_from_db()
    assert duel.version == 1


# --- The views ----------------------------------------------------------------------------------


def test_it_lets_the_dealer_bring_someone_in_without_javascript(
    t: FightTable, dealer: User, sheriff: Character
) -> None:
    before = t.version
    response = t.post(dealer, "join", character=sheriff.pk)
    assert response.status_code == 302
    assert response["Location"] == t.url
    assert t.version == before + 1
    assert "Sheriff Hale joins the fight: cards this round." in t.messages(dealer)


def test_it_answers_htmx_with_the_console_showing_the_newcomer(t: FightTable, dealer: User) -> None:
    response = t.post(
        dealer, "join", htmx=True, extras_name="Pinkertons", extras_size=2, extras_dice="2d6"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="fight-main"' in html
    assert "2 Pinkertons joins the fight" in html
    assert 'data-cid="x1"' in html


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"extras_name": "Pinkertons", "extras_size": 2, "extras_dice": "0d6"}, "dice"),
        ({"extras_name": "Pinkertons", "extras_size": 2, "extras_dice": "3d7"}, "d7"),
        ({"extras_name": "Pinkertons", "extras_size": 0, "extras_dice": "2d6"}, "1 to 50"),
        ({"character": "Bart"}, "Pick a character from the list"),
        ({"character": 10**6}, "no such character"),
        ({}, "Pick a character, or name a line of extras"),
    ],
)
def test_it_refuses_bad_input_in_plain_words_writing_nothing(
    t: FightTable, dealer: User, data: dict[str, Any], says: str
) -> None:
    t.refused(dealer, "join", says, **data)


def test_it_refuses_one_already_fighting(t: FightTable, dealer: User, npc: Any) -> None:
    t.refused(dealer, "join", "Mayor Crane is already in this fight", character=npc.pk)


def test_it_refuses_a_stale_form_and_a_double_click_changes_nothing(
    t: FightTable, dealer: User, sheriff: Character
) -> None:
    t.refused(dealer, "join", "has moved on", character=sheriff.pk, version=t.version + 5)
    first = t.post(dealer, "join", key="twice", character=sheriff.pk)
    second = t.post(dealer, "join", key="twice", character=sheriff.pk, version=0)
    assert (first.status_code, second.status_code) == (302, 302)
    assert t.fight.seats.filter(cid=cid_of(sheriff)).count() == 1
    assert t.version == 1


def test_it_forbids_players_and_hides_the_fight_from_outsiders_and_anonymous(
    t: FightTable, player_a: User, outsider: User, sheriff: Character
) -> None:
    before = written(t.fight)
    assert t.post(player_a, "join", character=sheriff.pk).status_code == 403
    assert t.post(outsider, "join", character=sheriff.pk).status_code == 404
    t.as_user(None)
    response = t.client.post(t.move_url("join"), {"version": 0, "character": sheriff.pk})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert written(t.fight) == before


def test_it_offers_the_dealer_only_characters_not_yet_fighting(
    t: FightTable, dealer: User, player_a: User, pc_b: Any, sheriff: Character, npc: Any
) -> None:
    console = t.page(dealer)
    assert "Someone joins the fight" in console
    assert f'<option value="{sheriff.pk}">Sheriff Hale (NPC)</option>' in console
    assert f'<option value="{pc_b.pk}">Bess Doyle (PC)</option>' in console
    assert f'<option value="{npc.pk}">' not in console
    assert "Someone joins the fight" not in t.page(player_a)


# --- Hidden information (R30) -------------------------------------------------------------------


def test_r30_after_a_join_mid_countdown_the_players_see_no_npc_or_extras_card(
    t: FightTable, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    deal_round_1(t, dealer, pc_a, npc)  # Abe: RJ 9♣ 3♦; the Mayor: Q♠ 7♦
    t.ok(dealer, "join", character=pc_b.pk)
    t.ok(dealer, "join", extras_name="Pinkertons", extras_size=2, extras_dice="2d6")
    t.ok(dealer, "end-round")
    for cid, total in ((cid_of(pc_a), 5), (cid_of(pc_b), 13), (cid_of(npc), 8), ("x1", 9)):
        t.ok(dealer, "quickness", cid=cid, total=total)
    rig(t.fight, "K♥ 4♣ 8♠ A♦ 5♣ J♠ 6♥ 10♣ 2♠")
    t.ok(dealer, "deal")
    state = t.state()
    bess = {c.text for c in state.combatant(cid_of(pc_b)).hand}
    theirs = {c.text for x in ("x1", cid_of(npc)) for c in state.combatant(x).hand}
    abes = {c.text for c in state.combatant(cid_of(pc_a)).hand}
    assert bess
    assert theirs
    assert abes
    for page in (t.page(player_b), t.page(player_b, HTTP_HX_REQUEST="true")):
        shown = card_tokens(page)
        assert bess <= shown  # not vacuous: her own cards are there
        assert not shown & (theirs | abes)
    assert not card_tokens(t.page(player_a)) & (theirs | bess)
    assert theirs <= card_tokens(t.page(dealer))
    # The table view: no card in anyone's hand (round 1's unplayed cards are public history).
    assert not card_tokens(t.page(player_a, f"{t.url}table/")) & (theirs | bess | abes)


@pytest.mark.django_db(transaction=True)
def test_r30_the_stream_snapshot_after_a_join_carries_no_foreign_card(
    t: FightTable, dealer: User, player_b: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    from tests.live.test_streams import open_stream

    t.ok(dealer, "join", character=pc_b.pk)
    t.ok(dealer, "join", extras_name="Pinkertons", extras_size=2, extras_dice="2d6")
    for cid, total in ((cid_of(pc_a), 13), (cid_of(pc_b), 7), (cid_of(npc), 8), ("x1", 9)):
        t.ok(dealer, "quickness", cid=cid, total=total)
    rig(t.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥ 8♠")
    t.ok(dealer, "deal")
    state = t.state()
    bess = {c.text for c in state.combatant(cid_of(pc_b)).hand}
    others = {c.text for x in state.combatants if x.cid != cid_of(pc_b) for c in x.hand} | (
        {x.sleeve.text for x in state.combatants if x.sleeve}
    )

    url = t.url + "stream/"

    async def snapshot() -> str:
        _, stream = await open_stream(player_b, url)
        assert stream is not None
        event = await stream.next()
        await stream.close()
        return event.data

    with override_settings(BROADCASTER="inprocess"):
        data = asyncio.run(snapshot())
    assert bess
    assert bess <= card_tokens(data)
    assert not card_tokens(data) & others
