"""The seed's own examples, played as whole conflicts through the screens: the posse ambush
(Black Jack and Luke against a 5-card stud, with Black Jack's full-house-or-the-K♠ choice), the
bank job (a 7-card stud, Stakes 2) and Zeke's Devil at 2, for and against him."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from characters.models import ChipEntry
from characters.services import character_create, chips_grant
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, pid_of
from tests.conflicts.test_views import Table, arrange, card_tokens, cards, quick_odds, seeded

pytestmark = pytest.mark.django_db
__all__ = ["quick_odds", "seeded"]

KNACKS = {"Shootin'": 3, "Gamblin'": 4, "Ridin'": 2, "Drinkin'": 2}  # R28: 11 points


def outlaw(campaign: Any, player: User, name: str, **ratings: int) -> Any:
    data = {
        "name": name,
        "vocation": "Outlaw",
        "hand": 3, "eye": 3, "guts": 4, "heart": 3,
        "trait_1": "Cool as a mountain spring", "trait_2": "Sly as a coyote",
        "devil": "Rode with the wrong crowd.",
        "devil_rating": 2,
        **ratings,
    }  # fmt: skip
    pc = character_create(campaign=campaign, kind="pc", player=player, data=data, knacks=KNACKS)
    chips_grant(character_id=pc.pk, amount=2, actor=None, note="Starting chips")
    pc.refresh_from_db()
    return pc


def finish(table: Table, dealer: User, owners: dict[str, User]) -> None:
    """Place every Difficulty as the app proposes (R9) and finish."""
    for o in table.state().owed:
        p = table.state().participant(o.pid)
        who = owners.get(o.pid, dealer)
        table.ok(who, "allocate", pid=o.pid, **engine.default_allocation(o, p.currents))
    table.ok(dealer, "finish")


def test_it_plays_the_posse_ambush_black_jack_and_luke_against_a_five_card_stud_R4_R12_R13(
    client: Client,
    campaign: Any,
    dealer: User,
    player_a: User,
    player_b: User,
    seeded: Callable[[int], None],
) -> None:
    seeded(1)
    jack = outlaw(campaign, player_a, "“Black” Jack Kerrigan")
    luke = outlaw(campaign, player_b, "Luke Johnson", hand=4, guts=3)
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="The posse's ambush",
        hands=[
            HandSpec(character=jack, goal="Leap into the stream"),
            HandSpec(character=luke, goal="Leap into the stream"),
            HandSpec(stud_size=5, stud_name="The posse", goal="Capture the fugitives"),
        ],
    )
    t = Table(client, conflict)
    pj, pl = pid_of(jack), pid_of(luke)
    t.ok(player_a, "propose", pid=pj, attributes=["hand", "eye"])
    t.ok(player_b, "propose", pid=pl, attributes=["hand", "guts"])
    assert "Waiting for" not in t.page(dealer).split("next-step__text")[1][:40]
    t.ok(dealer, "approve", pid=pj, attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "approve", pid=pl, attributes=["hand", "guts"], devil=0)
    assert "Hand 3 + Eye 3 = 6" in t.page(player_a)
    t.ok(dealer, "deal")
    assert [len(p.hand) for p in t.state().participants] == [6, 7, 5]  # R11, R12
    # The seed's draw: Black Jack holds 3♥ 3♣ 7♦ 7♣ 9♦ Q♦, throws the 9♦ and Q♦ with his
    # Shootin' and draws the 3♦ and the K♠.
    arrange(
        conflict,
        {pj: cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦"), pl: cards("2♠ 5♦ 8♥ 10♣ J♠ 4♣ 6♥"),
         "stud": cards("9♠ 9♥ 4♦ 6♣ 2♥")},
        top=cards("3♦ K♠"),
    )  # fmt: skip
    html = t.page(player_a)
    assert card_tokens(html) >= {"3♥", "3♣", "7♦", "7♣", "9♦", "Q♦"}
    response = t.post(dealer, "draw", htmx=True, pid="stud", stand="1")
    assert "A stud hand has no choices to make." in response.content.decode()  # R12
    shootin = jack.knacks.get(name="Shootin'")
    t.ok(player_a, "name-knack", pid=pj, knack=shootin.pk)
    t.ok(dealer, "approve-knack", pid=pj, knack=shootin.pk)  # R13: the Dealer decides
    t.ok(player_a, "draw", pid=pj, discards=["9♦", "Q♦"])
    assert sorted(c.text for c in t.state().participant(pj).hand) == sorted(
        ["3♥", "3♣", "7♦", "7♣", "3♦", "K♠"]
    )
    t.ok(player_b, "draw", pid=pl, stand="1")
    t.ok(dealer, "call", now="on")
    html = t.page(player_a)
    assert "Full house, 3s over 7s" in html
    assert "keeps K♠ for narration" in html  # the seed's dilemma (R4)
    t.ok(player_a, "lay", pid=pj, cards=["3♥", "3♣", "7♦", "7♣", "K♠"])  # two pair and the K♠
    t.ok(dealer, "reveal")
    state = t.state()
    assert state.winner == pj
    assert state.narrator == pj  # the K♠ is the high card (R8)
    assert [o.pid for o in state.owed] == [pl]  # Luke's high card lost to the posse's pair
    assert state.owed[0].points == 2
    html = t.page(player_b, f"{t.url}table/")
    assert "Winner: <strong>“Black” Jack Kerrigan</strong>" in html
    finish(t, dealer, {pj: player_a, pl: player_b})
    assert t.state().phase == engine.Phase.DONE


def test_it_plays_the_bank_job_a_seven_card_stud_with_stakes_of_two_R12_R18_R19(
    client: Client,
    campaign: Any,
    dealer: User,
    player_a: User,
    player_b: User,
    seeded: Callable[[int], None],
) -> None:
    seeded(2)
    jack = outlaw(campaign, player_a, "“Black” Jack Kerrigan")
    luke = outlaw(campaign, player_b, "Luke Johnson", hand=4, guts=3)
    dylan = outlaw(campaign, player_b, "Dylan “Bang” McCreedy")  # a second character (R14)
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Nabbing the payroll",
        hands=[
            HandSpec(character=jack),
            HandSpec(character=luke),
            HandSpec(character=dylan),
            HandSpec(stud_size=7, goal="The vault, the teller's pepperbox, the sheriff"),
        ],
        stakes=2,
    )
    t = Table(client, conflict)
    pj, pl, pd = pid_of(jack), pid_of(luke), pid_of(dylan)
    for pid in (pj, pl, pd):
        t.ok(dealer, "approve", pid=pid, attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "deal")
    assert len(t.state().participant("stud").hand) == 7
    html = t.page(player_b)
    assert "Luke Johnson" in html
    assert "Dylan “Bang” McCreedy" in html  # both of Bess's hands on her screen
    arrange(
        conflict,
        {
            pj: cards("A♠ A♥ A♦ K♠ K♥ 2♣"),
            pl: cards("2♦ 4♠ 6♣ 8♦ 10♥ Q♣ 3♥"),
            pd: cards("5♠ 5♥ 9♣ J♦ 3♠ 7♥"),
            "stud": cards("Q♠ Q♥ Q♦ J♠ J♥ 8♠ 4♥"),
        },
    )
    t.ok(player_b, "fold", pid=pl)  # R19: a chip, no Difficulty, no Stakes
    t.ok(dealer, "call", now="on")
    t.ok(dealer, "reveal")
    state = t.state()
    assert state.winner == pj  # aces full of kings beat the queens full of jacks
    assert {o.pid for o in state.owed} == {pd}  # Dylan's pair lost; Luke folded
    finish(t, dealer, {pj: player_a, pd: player_b})
    stakes = dict(
        ChipEntry.objects.filter(conflict=conflict, reason="stakes").values_list(
            "character__name", "amount"
        )
    )
    assert stakes == {"“Black” Jack Kerrigan": 2, "Dylan “Bang” McCreedy": 2}
    html = t.page(player_a, f"{t.url}table/")
    assert "“Black” Jack Kerrigan, Dylan “Bang” McCreedy earn 2 chips." in html
    luke.refresh_from_db()
    assert luke.chips == 2 - 1  # paid the fold, earned nothing


@pytest.mark.parametrize(
    ("devil", "word", "size"), [(1, "for 2", 6 + 2), (-1, "against −2", 6 - 2)]
)
def test_it_deals_zeke_his_devil_for_and_against_him_R11(
    client: Client,
    campaign: Any,
    dealer: User,
    player_a: User,
    devil: int,
    word: str,
    size: int,
) -> None:
    zeke = outlaw(campaign, player_a, "Zeke Munroe", guts=3, heart=4)  # Devil rating 2
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Zeke faces his past",
        hands=[HandSpec(character=zeke), HandSpec(stud_size=5)],
        stakes=1,
    )
    t = Table(client, conflict)
    pz = pid_of(zeke)
    t.ok(player_a, "propose", pid=pz, attributes=["guts", "eye"])
    html = t.page(dealer)
    assert "Devil in play (rating 2)" in html
    t.ok(dealer, "approve", pid=pz, attributes=["guts", "eye"], devil=devil)
    line = f"Eye 3 + Guts 3 + Devil in play, {word} = {size}"
    assert line in t.page(dealer)
    assert line in t.page(player_a)  # the player sees how the Deal was reached
    assert line not in t.page(User.objects.get(username="player_b"))
    t.ok(dealer, "deal")
    assert len(t.state().participant(pz).hand) == size
    assert Conflict.objects.count() == 1
