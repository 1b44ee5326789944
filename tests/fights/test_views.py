"""The fight screens through HTTP: moves with and without htmx (post/redirect/get vs the main
partial), starting a fight from a running session, the player's "your card is up", the live
poll, "settle this with a conflict" (R32), the Quickness dice on the sheet (R27), the session
page's timeline and the Rulings page."""

from __future__ import annotations

import json
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import strip_tags

from campaigns.models import GameSession
from characters.models import Character
from conflicts.models import Conflict
from fights.models import Fight
from tests.fights.conftest import FightTable, rig

pytestmark = pytest.mark.django_db


def deal(table: FightTable, dealer: User, cids: dict[str, str]) -> None:
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    table.ok(dealer, "deal")


def test_a_move_without_javascript_is_post_redirect_get_with_the_message(
    table: FightTable, player_a: User, cids: dict[str, str]
) -> None:
    response = table.post(player_a, "quickness", cid=cids["abe"], total=13)
    assert response.status_code == 302
    assert response["Location"] == table.url
    page = table.as_user(player_a).get(table.url)
    notes = [str(m) for m in page.context["messages"]]
    assert notes == ["Abe Slade rolls 13 for Quickness: 3 cards."]


def test_a_refusal_without_javascript_redirects_with_the_plain_message(
    table: FightTable, player_a: User, cids: dict[str, str]
) -> None:
    response = table.post(player_a, "quickness", cid=cids["bess"], total=13)
    assert response.status_code == 302
    assert table.messages(player_a) == [
        "You can only play your own character's cards, not Bess Doyle's cards."
    ]
    assert table.version == 0


def test_a_move_with_htmx_answers_the_main_panel_with_the_message(
    table: FightTable, player_a: User, cids: dict[str, str]
) -> None:
    response = table.post(player_a, "quickness", htmx=True, cid=cids["abe"], total=13)
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="fight-main"')
    assert "Abe Slade rolls 13 for Quickness: 3 cards." in html
    assert response["HX-Reswap"] == "morph:outerHTML show:none"  # patched in place, no scroll
    assert json.loads(response["HX-Trigger"]) == {
        "move-answered": {"panel": "fight-main", "refused": False}
    }


def test_a_player_may_not_send_a_dealers_move(table: FightTable, player_a: User) -> None:
    assert table.post(player_a, "deal").status_code == 403
    assert table.post(player_a, "end-fight").status_code == 403
    assert table.post(player_a, "no-such-move").status_code == 404
    assert table.version == 0


def test_r31_the_player_phone_says_your_card_is_up(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    deal(table, dealer, cids)  # K♥ (Bess) comes up first; Abe holds the red joker
    bess = unescape(table.page(player_b))
    assert "data-my-turn" in bess
    assert "Your card is up" in bess
    assert "Up the sleeve" in bess
    assert "Pass" in bess
    abe = unescape(table.page(player_a))
    assert "data-my-turn" not in abe
    assert "Bess Doyle’s card is up" in abe or "Bess Doyle&rsquo;s card is up" in abe
    assert "Play the red joker" in abe  # R25: at any time this round
    table.ok(player_b, "sleeve", cid=cids["bess"])
    assert "Play the sleeved card" in unescape(table.page(player_b))


def test_the_quickness_roll_shows_each_die(
    table: FightTable, player_a: User, cids: dict[str, str], seeded: Any
) -> None:
    seeded(5)
    table.ok(player_a, "roll", cid=cids["abe"])
    state = table.state()
    abe = state.combatant(cids["abe"])
    assert len(abe.dice) == 4  # (Hand 4)d6, R27
    html = table.page(player_a)
    for die in abe.dice:
        assert f'<span class="die">{"+".join(map(str, die))}</span>' in html


def test_the_version_poll_says_204_until_the_fight_moves(
    table: FightTable, player_a: User, cids: dict[str, str]
) -> None:
    client = table.as_user(player_a)
    assert client.get(f"{table.url}version/?v=0").status_code == 204
    table.ok(player_a, "quickness", cid=cids["abe"], total=4)
    response = client.get(f"{table.url}version/?v=0")
    assert response.json() == {"version": 1}
    assert "fight-moved" in response["HX-Trigger"]


# --- Starting a fight ------------------------------------------------------------------------


def test_the_dealer_starts_a_fight_from_the_running_session(
    client_as: Any, dealer: User, session: GameSession, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    client = client_as(dealer)
    page = client.get(f"/c/{session.campaign.slug}/sessions/{session.number}/")
    assert "Start a fight" in page.content.decode()
    url = f"/c/{session.campaign.slug}/fights/new/?session={session.pk}"
    form = client.get(url)
    assert form.status_code == 200
    assert "Quickness 4d6" in form.content.decode()
    response = client.post(
        url,
        {
            "title": "Dust-up at the saloon", "session": session.pk,
            f"take_{pc_a.pk}": "on", f"take_{pc_b.pk}": "on", f"take_{npc.pk}": "on",
            f"surprised_{npc.pk}": "on", "extras": "3 Pinkertons 2d6\nA drunk",
            "cap": 5, "fate_pot": "white 8, red 4, blue 2",
        },
    )  # fmt: skip
    fight = Fight.objects.get()
    assert response.status_code == 302
    assert response["Location"] == fight.get_absolute_url()
    assert [(s.name, s.size) for s in fight.seats.all()] == [
        ("Abe Slade", 1), ("Bess Doyle", 1), ("Mayor Crane", 1), ("3 Pinkertons", 3),
        ("A drunk", 1),
    ]  # fmt: skip
    assert fight.state["fate_pot"] == [["white", 8], ["red", 4], ["blue", 2]]
    surprised = [c["name"] for c in fight.state["combatants"] if c["surprised"]]
    assert surprised == ["Mayor Crane"]
    assert "Dust-up at the saloon" in client.get(page.request["PATH_INFO"]).content.decode()


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("extras", "3 Pinkertons 0d6", "Roll at least one die"),
        ("extras", "3 Pinkertons 3d7", "There is no d7"),
        ("fate_pot", "white lots", "like “white 10”"),
    ],
)
def test_a_bad_fight_set_up_is_refused_in_plain_words(
    client_as: Any, dealer: User, session: GameSession, pc_a: Any, pc_b: Any,
    field: str, value: str, says: str,
) -> None:  # fmt: skip
    data = {
        "session": session.pk, f"take_{pc_a.pk}": "on", f"take_{pc_b.pk}": "on", "cap": 5,
        "fate_pot": "white 10", field: value,
    }  # fmt: skip
    response = client_as(dealer).post(f"/c/{session.campaign.slug}/fights/new/", data)
    assert response.status_code == 200
    assert says in unescape(response.content.decode())
    assert not Fight.objects.exists()


def test_only_the_dealer_starts_a_fight(
    client_as: Any, player_a: User, session: GameSession
) -> None:
    client = client_as(player_a)
    assert client.get(f"/c/{session.campaign.slug}/fights/new/").status_code == 403
    page = client.get(f"/c/{session.campaign.slug}/sessions/{session.number}/")
    assert "Start a fight" not in page.content.decode()


# --- R32: settle an action with a conflict ---------------------------------------------------


def test_r32_settle_with_a_conflict_opens_the_wizard_with_the_fighters_linked_to_the_round(
    table: FightTable, dealer: User, cids: dict[str, str], pc_a: Any, pc_b: Any, npc: Any
) -> None:
    deal(table, dealer, cids)
    console = unescape(table.page(dealer))
    slug = table.fight.campaign.slug
    link = f"/c/{slug}/conflicts/new/?fight={table.fight.pk}&round=1"
    assert link.replace("&", "&amp;") in table.page(dealer) or link in console
    wizard = table.as_user(dealer).get(f"/c/{slug}/conflicts/new/?fight={table.fight.pk}")
    form = wizard.context["form"]
    assert form[f"take_{pc_a.pk}"].value()
    assert form[f"take_{npc.pk}"].value()
    before = table.version
    response = table.as_user(dealer).post(
        f"/c/{slug}/conflicts/new/?fight={table.fight.pk}",
        {
            "title": "Abe wrestles the Mayor", "stakes": 0, "stud": 0, "fight_round": 1,
            f"take_{pc_a.pk}": "on", f"side_{pc_a.pk}": "players",
            f"take_{npc.pk}": "on", f"side_{npc.pk}": "dealer",
            f"side_{pc_b.pk}": "players",
        },
    )  # fmt: skip
    conflict = Conflict.objects.get()
    assert response.status_code == 302, response.context["form"].errors
    assert (conflict.fight_id, conflict.fight_round) == (table.fight.pk, 1)
    assert table.version == before + 1
    assert "Settled by a conflict (R32): “Abe wrestles the Mayor”." in [
        e.text for e in table.fight.events.all()
    ]
    page = table.page(dealer, conflict.get_absolute_url())
    assert f"/c/{slug}/fights/{table.fight.pk}/" in page


def test_r32_a_fight_of_another_campaign_cannot_be_settled_here(
    client_as: Any, dealer: User, campaign: Any
) -> None:
    response = client_as(dealer).get(f"/c/{campaign.slug}/conflicts/new/?fight=999")
    assert response.status_code == 404


# --- R27: Quickness dice on the sheet --------------------------------------------------------


def test_r27_the_dealer_sets_quickness_dice_on_the_sheet(
    client_as: Any, dealer: User, player_a: User, pc_a: Any
) -> None:
    url = f"/c/{pc_a.campaign.slug}/fights/quickness/{pc_a.pk}/"
    client = client_as(player_a)
    assert (
        "Quickness in a fight: <strong>4d6</strong>"
        in client.get(pc_a.get_absolute_url()).content.decode()
    )
    assert client.post(url, {"quickness_dice": "9d12"}).status_code == 403
    client = client_as(dealer)
    client.post(url, {"quickness_dice": "3d7"})
    pc_a.refresh_from_db()
    assert pc_a.quickness_dice == ""
    page = client.get(pc_a.get_absolute_url()).content.decode()
    assert "There is no d7 in the box" in unescape(page)
    client.post(url, {"quickness_dice": "3D8"})
    pc_a.refresh_from_db()
    assert pc_a.quickness_dice == "3d8"
    assert str(Character.objects.get(pk=pc_a.pk).quickness) == "3d8"


# --- The record --------------------------------------------------------------------------------


def test_the_session_page_keeps_the_fights_timeline(
    table: FightTable, dealer: User, player_a: User, cids: dict[str, str]
) -> None:
    deal(table, dealer, cids)
    table.ok(dealer, "end-fight")
    session = table.fight.session
    assert session is not None
    url = f"/c/{session.campaign.slug}/sessions/{session.number}/"
    page = unescape(table.page(player_a, url))
    assert "Shootout at the livery" in page
    assert "Round 1 dealt: Abe Slade 3, Bess Doyle 2, Mayor Crane 2, 3 Pinkertons 2." in page
    assert "over after round 1" in page
    assert "Dealt to Mayor Crane" not in page  # the Dealer's secret (R30)
    assert "Dealt to Abe Slade: RJ 9♣ 3♦." in strip_tags(page)  # Abe's own
    # ... each card announced in words (issue 36 #5)
    for words in ("red joker", "nine of clubs", "three of diamonds"):
        assert f'aria-label="{words}"' in page


def test_the_rulings_page_shows_the_action_deck_rulings(client: Client) -> None:
    page = client.get("/rulings/").content.decode()
    for ruling in ("R23", "R24", "R25", "R26", "R27", "R30", "R31", "R32", "R33"):
        assert f'id="{ruling}"' in page, ruling
    # The readings where seed 004 is silent: the interrupt's target, the Guts dice (issue 27).
    assert "the card that is up" in page
    assert "(Guts)d6" in page


def test_every_screen_of_a_fight_in_play_opens_its_live_stream(
    table: FightTable, dealer: User, player_a: User
) -> None:
    """The live wrapper (conflicts/_live_open.html) connects only when the context says the
    screen is live: a fight in play always is."""
    for user in (dealer, player_a):
        for url, stream in ((table.url, "stream/"), (table.url + "table/", "table/stream/")):
            html = table.as_user(user).get(url).content.decode()
            assert f'sse-connect="{table.url}{stream}"' in html, (user.username, url)
