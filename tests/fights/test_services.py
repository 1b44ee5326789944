"""The fight's services (fights/services.py): set-up, permissions, a refused move's key and bad
input — each refusal in plain words, with nothing written (R23–R27, R30, R31). A stale page and
a double click: the contract suite (tests/tables/test_contract.py, tests/fights/contract.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import GameSession, Membership
from cards.dice import DiceSpec
from characters.models import Character
from fights.engine import action_deck as engine
from fights.models import Fight, FightEvent, FightMoveKey, FightSeat
from fights.services import (
    ExtrasSpec,
    FightError,
    cid_of,
    fight_create,
    fight_move,
)
from tests.fights.conftest import PINKERTONS, FightTable, rig, state_of

pytestmark = pytest.mark.django_db


def member(user: User, fight: Fight) -> Membership:
    return Membership.objects.select_related("campaign").get(user=user, campaign=fight.campaign)


def written(fight: Fight) -> tuple[int, Any, int, int]:
    fight.refresh_from_db()
    return (
        fight.version,
        fight.state,
        FightEvent.objects.filter(fight=fight).count(),
        FightMoveKey.objects.filter(fight=fight).count(),
    )


# --- Set-up -------------------------------------------------------------------------------------


def test_it_seats_characters_and_extras_with_their_quickness_dice_r27(
    gunfight: Fight, pc_a: Any, npc: Any
) -> None:
    seats = list(gunfight.seats.order_by("id"))
    assert [(s.cid, s.kind, s.name, s.size) for s in seats] == [
        (cid_of(pc_a), "pc", "Abe Slade", 1),
        (seats[1].cid, "pc", "Bess Doyle", 1),
        (cid_of(npc), "npc", "Mayor Crane", 1),
        (PINKERTONS, "extras", "3 Pinkertons", 3),
    ]
    state = state_of(gunfight)
    quick = {c.cid: c.quickness for c in state.combatants}
    assert quick[cid_of(pc_a)] == DiceSpec(4, 6)  # R27: (Hand)d6, Hand 4
    assert quick[cid_of(npc)] == DiceSpec(2, 6)  # the Mayor's Hand is 2
    assert quick[PINKERTONS] == DiceSpec(2, 6)
    assert (gunfight.phase, gunfight.round, gunfight.version) == ("quickness", 1, 0)
    assert gunfight.events.get().text.startswith("The Dealer starts “Shootout at the livery”")


def test_r27_the_dealer_set_dice_win_over_the_hand_default(
    campaign: Any, dealer: User, session: GameSession, pc_a: Any, pc_b: Any
) -> None:
    pc_a.quickness_dice = "3d8"
    pc_a.save()
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="", characters=[pc_a, pc_b]
    )
    state = state_of(fight)
    assert state.combatant(cid_of(pc_a)).quickness == DiceSpec(3, 8)
    assert fight.title == "A fight breaks out"


def test_r26_surprised_combatants_are_marked(
    campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any
) -> None:
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Ambush",
        characters=[pc_a, npc], surprised={cid_of(pc_a)},
    )  # fmt: skip
    state = state_of(fight)
    assert state.combatant(cid_of(pc_a)).surprised
    assert not state.combatant(cid_of(npc)).surprised
    assert "Surprised (R26): Abe Slade." in [e.text for e in fight.events.all()]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"extras": [ExtrasSpec("Pinkertons", 3, "0d6")]}, "Roll at least one die"),
        ({"extras": [ExtrasSpec("Pinkertons", 3, "3d7")]}, "There is no d7"),
        ({"extras": [ExtrasSpec("Pinkertons", 0, "2d6")]}, "1 to 50 members"),
        ({"characters": "one"}, "at least two"),
        ({"fate_pot": [("white", -1)]}, "whole number"),
        ({"cap": 0}, "card cap"),
    ],
)
def test_it_refuses_a_bad_set_up_in_plain_words_and_writes_nothing(
    campaign: Any,
    dealer: User,
    session: GameSession,
    pc_a: Any,
    pc_b: Any,
    change: dict[str, Any],
    says: str,
) -> None:
    kwargs: dict[str, Any] = {"characters": [pc_a, pc_b]}
    kwargs.update(change)
    if kwargs["characters"] == "one":
        kwargs["characters"] = [pc_a]
    with pytest.raises(FightError, match=says):
        fight_create(campaign=campaign, actor=dealer, session=session, title="x", **kwargs)
    assert not Fight.objects.exists()
    assert not FightSeat.objects.exists()


def test_it_starts_a_fight_only_in_a_running_session(
    campaign: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    planned = GameSession.objects.create(campaign=campaign, number=1)
    with pytest.raises(FightError, match="is not being played"):
        fight_create(
            campaign=campaign, actor=dealer, session=planned, title="x", characters=[pc_a, pc_b]
        )


def test_r17_a_character_who_left_play_cannot_fight(
    campaign: Any, dealer: User, session: GameSession, pc_a: Any, pc_b: Any
) -> None:
    Character.objects.filter(pk=pc_b.pk).update(out_of_play=True)
    pc_b.refresh_from_db()
    with pytest.raises(FightError, match="left play"):
        fight_create(
            campaign=campaign, actor=dealer, session=session, title="x", characters=[pc_a, pc_b]
        )


# --- Moves: permissions, stale forms, repeated submits -------------------------------------------


def test_r30_a_player_moves_only_their_own_characters_cards(
    gunfight: Fight, player_a: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    abe = member(player_a, gunfight)
    before = written(gunfight)
    for cid in (cid_of(pc_b), cid_of(npc), PINKERTONS):
        with pytest.raises(FightError, match="only play your own character"):
            fight_move(
                fight_id=gunfight.pk, membership=abe, move=engine.RollQuickness(cid), version=0
            )
    for move in (engine.DealRound(), engine.EndRound(), engine.EndFight()):
        with pytest.raises(FightError, match="Only the Dealer"):
            fight_move(fight_id=gunfight.pk, membership=abe, move=move, version=0)
    with pytest.raises(FightError, match="Only the Dealer"):
        fight_move(
            fight_id=gunfight.pk, membership=abe, move=engine.SetCap(cid_of(pc_a), 9), version=0
        )
    assert written(gunfight) == before
    fight_move(
        fight_id=gunfight.pk, membership=abe, move=engine.Quickness(cid_of(pc_a), 13), version=0
    )
    assert written(gunfight)[0] == 1


def test_the_dealer_may_move_every_combatant(
    gunfight: Fight, dealer: User, pc_b: Any, npc: Any
) -> None:
    boss = member(dealer, gunfight)
    for n, cid in enumerate((cid_of(pc_b), cid_of(npc), PINKERTONS)):
        fight_move(fight_id=gunfight.pk, membership=boss, move=engine.Quickness(cid, 7), version=n)
    assert gunfight.__class__.objects.get(pk=gunfight.pk).version == 3


def test_a_refused_move_keeps_no_key_so_the_same_form_can_be_sent_again(
    gunfight: Fight, player_a: User, pc_a: Any
) -> None:
    abe = member(player_a, gunfight)
    with pytest.raises(FightError):
        fight_move(
            fight_id=gunfight.pk, membership=abe, move=engine.DealRound(), version=0, key="k1"
        )
    assert not FightMoveKey.objects.exists()


def test_a_fight_of_another_campaign_is_not_found(
    gunfight: Fight, outsider: User, dealer: User
) -> None:
    from campaigns.services import campaign_create

    other = campaign_create(dealer=outsider, name="Elsewhere", setting="")
    stranger = Membership.objects.get(user=outsider, campaign=other)
    with pytest.raises(Fight.DoesNotExist):
        fight_move(fight_id=gunfight.pk, membership=stranger, move=engine.DealRound(), version=0)


def test_it_publishes_the_new_version_on_commit(
    gunfight: Fight,
    dealer: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[tuple[str, int]] = []
    monkeypatch.setattr("dustdevils.live.broadcast.publish", lambda t, v: sent.append((t, v)))
    with django_capture_on_commit_callbacks(execute=True):
        fight_move(
            fight_id=gunfight.pk, membership=member(dealer, gunfight),
            move=engine.Quickness(PINKERTONS, 7), version=0,
        )  # fmt: skip
    assert sent == [(f"fight-{gunfight.pk}", 1)]


# --- Bad input through the views: plain refusals, nothing written --------------------------------


@pytest.mark.parametrize("total", ["abc", "", "7.5", "-3"])
def test_r23_a_quickness_total_that_is_not_a_whole_number_is_refused(
    table: FightTable, player_a: User, pc_a: Any, total: str
) -> None:
    table.refused(player_a, "quickness", "whole number", cid=cid_of(pc_a), total=total)


@pytest.mark.parametrize(("dice", "says"), [("0d6", "Roll at least one die"), ("3d7", "no d7")])
def test_r27_r32_a_dice_spec_like_0d6_or_3d7_is_refused(
    table: FightTable, dealer: User, dice: str, says: str
) -> None:
    table.refused(dealer, "tn-roll", says, dice=dice, tn=5)


def deal_known_round(table: FightTable, dealer: User, cids: dict[str, str], top: str) -> None:
    """Totals typed in (Abe 13 → 3 cards, Bess 7 → 2, the Mayor 3 → 1, the Pinkertons 5 → 2:
    R23), the deck stacked, the round dealt."""
    for who, total in (("abe", 13), ("bess", 7), ("crane", 3), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(table.fight, top)
    table.ok(dealer, "deal")


def test_r31_acting_out_of_turn_is_refused(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    deal_known_round(table, dealer, cids, "A♠ 9♣ 3♦ K♥ 4♣ Q♠ J♦ 2♥")
    assert engine.up(table.state())[1].text == "A♠"  # type: ignore[index]
    table.refused(player_b, "act", "not Bess Doyle's turn", cid=cids["bess"], text="Draw!")
    table.refused(player_b, "pass", "not Bess Doyle's turn", cid=cids["bess"])
    table.ok(player_a, "act", cid=cids["abe"], text="Fan the hammer", speed="short")


def test_r26_a_second_card_up_the_sleeve_is_refused(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    deal_known_round(table, dealer, cids, "A♠ 9♣ 3♦ K♥ 4♣ Q♠ J♦ 2♥")
    table.ok(player_a, "sleeve", cid=cids["abe"], card="A♠")
    table.ok(player_b, "pass", cid=cids["bess"])  # K♥
    table.ok(dealer, "act", cid=cids["crane"], text="Hides", speed="simple")  # Q♠
    table.ok(dealer, "pass", cid=cids["gang"])  # J♦
    table.refused(player_a, "sleeve", "already has a card up the sleeve", cid=cids["abe"])


def test_r25_the_red_joker_cannot_go_up_the_sleeve(
    table: FightTable, dealer: User, player_a: User, cids: dict[str, str]
) -> None:
    deal_known_round(table, dealer, cids, "RJ 9♣ 3♦ K♥ 4♣ Q♠ J♦ 2♥")
    table.refused(
        player_a, "sleeve", "red joker cannot go up the sleeve", cid=cids["abe"], card="RJ"
    )
    # ... but plays at any time that round, out of turn (R25).
    table.ok(player_a, "act", cid=cids["abe"], card="RJ", text="Quick draw")
    assert "RJ" in {p.card.text for p in table.state().table}


def test_r32_a_tn_roll_is_recorded_on_the_timeline_and_changes_no_card(
    table: FightTable, dealer: User, player_a: User, cids: dict[str, str], seeded: Any
) -> None:
    before = table.state()
    table.ok(player_a, "tn-roll", cid=cids["abe"], dice="2d6", tn=5, note="Shoot the rope")
    assert table.state() == before
    line = table.fight.events.order_by("-seq").first()
    assert line is not None
    assert line.text.startswith("Abe Slade rolls 2d6: ")
    assert "for “Shoot the rope”" in line.text
    assert "against TN 5" in line.text
    table.refused(player_a, "tn-roll", "only play your own", cid=cids["bess"], dice="2d6", tn=5)


def test_r26_an_interrupt_reads_the_two_typed_quickness_totals(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    deal_known_round(table, dealer, cids, "A♠ 9♣ 3♦ K♥ 4♣ Q♠ J♦ 2♥")
    table.ok(player_a, "sleeve", cid=cids["abe"])  # A♠ up the sleeve; Bess's K♥ is up (R33)
    table.refused(
        player_a, "act", "opposed Quickness roll failed",
        cid=cids["abe"], card="A♠", interrupt="on", mine=6, theirs=6,
    )  # fmt: skip
    table.ok(
        player_a, "act", cid=cids["abe"], card="A♠", interrupt="on", mine=12, theirs=6,
        text="Trips her",
    )  # fmt: skip
    last = table.state().table[-1]
    assert (last.card.text, last.interrupted, last.opposed) == ("A♠", cids["bess"], "raise")
    table.ok(player_b, "act", cid=cids["bess"], text="Runs for the door")  # K♥, after him


def test_r33_an_interrupt_hits_the_card_up_and_the_phone_names_it(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    """The game night: with the Pinkertons' card up, Abe's interrupt went against the Mayor,
    whose action was the last recorded. The phone names whose action an interrupt hits, in the
    open (not behind a collapsed section), in the plural for a line of extras."""
    from html import unescape

    from tests.characters.conftest import text_of

    deal_known_round(table, dealer, cids, "A♠ 9♣ 3♦ K♥ 4♣ Q♠ J♦ 2♥")
    table.ok(player_a, "sleeve", cid=cids["abe"])  # A♠ up Abe's sleeve
    table.ok(player_b, "pass", cid=cids["bess"])  # K♥
    table.ok(dealer, "act", cid=cids["crane"], text="Fires at Abe")  # Q♠; the J♦ is up
    html = unescape(table.page(player_a))
    words = text_of(html)
    assert "3 Pinkertons’ card is up." in words
    assert "Pinkertons’s" not in words
    form = html.split("fight-act fight-act--out")[1].split("</form>")[0]
    assert "<details" not in form
    assert "Interrupt 3 Pinkertons’ action?" in text_of(form)
    table.ok(
        player_a, "act", cid=cids["abe"], card="A♠", interrupt="on", opposed="raise",
        text="Shoots the nearest",
    )  # fmt: skip
    last = table.state().table[-1]
    assert (last.card.text, last.interrupted) == ("A♠", cids["gang"])
    assert "Abe Slade interrupts 3 Pinkertons" in text_of(table.page(player_b))


def test_r26_r27_a_surprised_player_rolls_guts_with_the_app(
    client: Any, campaign: Any, dealer: User, player_a: User, session: Any, pc_a: Any,
    npc: Any,
) -> None:  # fmt: skip
    """Guts could only be typed while Quickness could be rolled: now the phone offers "Roll
    Guts (3d6, TN 5)" — Abe's Guts 3 — and the app rolls it once a round."""
    from tests.characters.conftest import text_of

    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Ambush at the ford",
        characters=[pc_a, npc], surprised=[cid_of(pc_a)], rng=random.Random(3),
    )  # fmt: skip
    table = FightTable(client, fight)
    table.ok(dealer, "quickness", cid=cid_of(npc), total=5)
    table.ok(dealer, "deal")
    table.ok(dealer, "end-round")
    assert "Roll Guts (3d6, TN 5)" in text_of(table.page(player_a))
    table.ok(player_a, "roll-guts", cid=cid_of(pc_a))
    line = table.fight.events.order_by("-seq").first()
    assert line is not None
    assert line.text.startswith("Abe Slade rolls 3d6")
    assert "for Guts and" in line.text
    table.refused(player_a, "roll-guts", "not Mayor Crane's cards", cid=cid_of(npc))
