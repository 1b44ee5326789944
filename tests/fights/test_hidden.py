"""Hidden information in fights (R30), end to end: a whole fight of three rounds driven through
HTTP — both jokers, sleeves, an interrupt, NPC and extras cards, reshuffles — and at EVERY step
every fight page, partial and endpoint fetched as the Dealer, both players, an outsider and an
anonymous visitor. No response carries a card its viewer may not see: every card written
anywhere in a page (markup and text alike, "10♥", "RJ") must be one the engine's
``visible_cards`` has let that viewer see at this step or an earlier one (the timeline is the
fight's history: a card played in round 1 stays in it after a reshuffle). The table view is
nobody's seat: public facts only, even for the Dealer.

Not vacuous: each player's own cards are on their screen, and the Dealer's console shows the
NPCs' and extras' cards, which never reach a player before they are played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Membership
from fights.engine import action_deck as engine
from fights.models import Fight
from fights.services import controlled_cids
from tests.conflicts.test_views import card_tokens, texts
from tests.conftest import due
from tests.fights.conftest import FightTable, rig

pytestmark = pytest.mark.django_db


class Watch:
    """Fetches every fight screen as every user and checks each against what they may see."""

    def __init__(self, table: FightTable, cast: dict[str, User | None]) -> None:
        self.table = table
        self.cast = cast
        self.steps = 0
        self.seen: dict[str, set[str]] = {name: set() for name in cast}  # may see, so far
        self.public: set[str] = set()
        self.own_cards_shown: dict[str, int] = dict.fromkeys(cast, 0)

    def mine(self, user: User) -> tuple[set[str], bool]:
        fight = self.table.fight
        membership = Membership.objects.get(user=user, campaign=fight.campaign)
        seats = list(fight.seats.select_related("character"))
        return controlled_cids(seats, membership), membership.is_dealer

    def check(self, label: str) -> None:
        self.steps += 1
        state = self.table.state()
        t = self.table
        fight = t.fight
        slug = fight.campaign.slug
        self.public |= texts(engine.visible_cards(state, (), dealer=False))
        pages = {
            "detail": (t.url, False, {}),
            "detail partial": (t.url, False, {"HTTP_HX_REQUEST": "true"}),
            "table": (f"{t.url}table/", True, {}),
            "table partial": (f"{t.url}table/", True, {"HTTP_HX_REQUEST": "true"}),
            "version": (f"{t.url}version/?v=-1", True, {}),
            "session": (f"/c/{slug}/sessions/{fight.session.number}/", False, {}),  # type: ignore[union-attr]
            "settle": (f"/c/{slug}/conflicts/new/?fight={fight.pk}", False, {}),
        }
        for i, (name, user) in enumerate(self.cast.items()):
            client = t.as_user(user)
            if user is not None and name != "outsider":
                mine, dealer = self.mine(user)
                self.seen[name] |= texts(engine.visible_cards(state, mine, dealer=dealer))
            if not due(self.steps, i):
                continue
            for page, (url, shared, headers) in pages.items():
                response = client.get(url, **headers)
                where = f"step {self.steps} ({label}): {page} as {name}"
                if user is None:
                    assert response.status_code == 302, where
                    assert response["Location"].startswith("/accounts/login/"), where
                    continue
                if name == "outsider":
                    assert response.status_code == 404, where
                    continue
                if page == "settle" and not dealer:
                    assert response.status_code == 403, where
                    continue
                assert response.status_code == 200, where
                written = card_tokens(response.content.decode())
                may = self.public if shared else self.seen[name]
                assert written <= may, f"{where} shows {sorted(written - may)}"
                if page == "detail" and state.phase == engine.Phase.COUNTDOWN:
                    self._own_cards_shown(name, state, mine, dealer, written, where)
            self._refusal(name, user, state)

    def _refusal(self, name: str, user: User | None, state: engine.FightState) -> None:
        """The answer to a move (a stale one: refused, the viewer's panel with the message)
        shows only what the viewer may see too."""
        cid = state.combatants[0].cid
        if user is not None and name != "outsider":
            mine, _ = self.mine(user)
            cid = min(mine) if mine else cid
        response = self.table.client.post(
            f"{self.table.url}move/pass/", {"version": 10**6, "key": "", "cid": cid},
            HTTP_HX_REQUEST="true",
        )  # fmt: skip
        where = f"step {self.steps}: a refused move as {name}"
        if user is None:
            assert response.status_code == 302, where
            return
        if name == "outsider":
            assert response.status_code == 404, where
            return
        assert response.status_code == 200, where
        assert "has moved on" in response.content.decode(), where
        written = card_tokens(response.content.decode())
        assert written <= self.seen[name], f"{where} shows {sorted(written - self.seen[name])}"

    def _own_cards_shown(
        self,
        name: str,
        state: engine.FightState,
        mine: set[str],
        dealer: bool,
        written: set[str],
        where: str,
    ) -> None:
        own = {
            card.text
            for c in state.combatants
            if c.cid in mine or (dealer and c.kind != engine.CombatantKind.PC)
            for card in (*c.hand, *((c.sleeve,) if c.sleeve else ()))
        }
        assert own <= written, f"{where} misses its own cards {sorted(own - written)}"
        self.own_cards_shown[name] += len(own)


def owner(
    state: engine.FightState, cid: str, cast: dict[str, User | None], players: dict[str, str]
) -> User:
    """Who moves a combatant's cards: a PC's player, else the Dealer."""
    user = cast[players[cid]] if cid in players else cast["dealer"]
    assert user is not None
    return user


@pytest.fixture
def watch(table: FightTable, dealer: User, player_a: User, player_b: User, outsider: User) -> Watch:
    cast: dict[str, User | None] = {
        "dealer": dealer,
        "player_a": player_a,
        "player_b": player_b,
        "outsider": outsider,
        "anonymous": None,
    }
    return Watch(table, cast)


def play_out(
    table: FightTable, watch: Watch, players: dict[str, str], choose: Callable[[int], str]
) -> None:
    """Run the countdown to its end: the holder of each card up acts, sleeves or passes
    (``choose(n)``, falling back to acting when the sleeve is taken), checking every step."""
    n = 0
    while (current := engine.up(table.state())) is not None:
        c, _card = current
        user = owner(table.state(), c.cid, watch.cast, players)
        action = choose(n)
        if action == "sleeve" and c.sleeve is not None:
            action = "act"
        data: dict[str, Any] = {"cid": c.cid}
        if action == "act":
            data |= {"text": f"{c.name} acts on card {n}", "speed": "short"}
        table.ok(user, action, **data)
        watch.check(f"{c.name} {action}s")
        n += 1


def test_r30_nobody_sees_a_card_they_may_not_through_a_whole_fight(
    table: FightTable,
    watch: Watch,
    dealer: User,
    player_a: User,
    player_b: User,
    cids: dict[str, str],
    seeded: Callable[[int], None],
) -> None:
    players = {cids["abe"]: "player_a", cids["bess"]: "player_b"}
    watch.check("the fight starts")

    # Round 1: Abe 13 → 3 cards, with the red joker; Bess 7 → 2; the Mayor 8 → 2; the
    # Pinkertons 5 → 2 (R23). Typed in by each player, the Dealer for his own.
    table.ok(player_a, "quickness", cid=cids["abe"], total=13)
    table.ok(player_b, "quickness", cid=cids["bess"], total=7)
    table.ok(dealer, "quickness", cid=cids["crane"], total=8)
    table.ok(dealer, "quickness", cid=cids["gang"], total=5)
    watch.check("round 1 Quickness is in")
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    table.ok(dealer, "deal")
    watch.check("round 1 dealt")
    assert engine.up(table.state())[1].text == "K♥"  # type: ignore[index]
    table.ok(player_b, "sleeve", cid=cids["bess"])  # K♥ up Bess's sleeve, face down to others
    watch.check("Bess sleeves the K♥")
    # The Mayor's Q♠ is up: Abe interrupts it with the red joker (R25, R33), then he acts.
    table.ok(player_a, "act", cid=cids["abe"], card="RJ", interrupt="on", text="Shoots first")
    watch.check("Abe interrupts with the red joker (R25)")
    table.ok(dealer, "act", cid=cids["crane"], text="Fires at Abe", speed="short")  # Q♠
    watch.check("the Mayor acts")
    play_out(table, watch, players, lambda n: ("sleeve", "act", "pass")[n % 3])
    table.ok(dealer, "end-round")
    watch.check("round 1 ends")

    # Round 2: the black joker comes to Bess: discarded with her sleeved K♥, the Dealer draws
    # from the Fate pot, a reshuffle at the end of the round (R25).
    for who, total in (("abe", 5), ("bess", 13), ("crane", 5), ("gang", 9)):
        user = player_a if who == "abe" else player_b if who == "bess" else dealer
        table.ok(user, "quickness", cid=cids[who], total=total)
    rig(table.fight, "A♥ 5♠ BJ 10♠ 8♣ 6♦ K♠ 2♦ 8♥")
    table.ok(dealer, "deal")
    watch.check("round 2 dealt, with the black joker")
    state = table.state()
    assert state.reshuffle_at_end
    assert state.combatant(cids["bess"]).sleeve is None
    play_out(table, watch, players, lambda n: ("act", "sleeve", "pass")[n % 3])
    table.ok(dealer, "end-round")
    watch.check("round 2 ends: the deck is reshuffled")

    # Round 3: Abe rolls with the app (R27); the rest typed in; the Dealer resolves with a TN
    # roll (R32); the fight ends.
    table.ok(player_a, "roll", cid=cids["abe"])
    for who, total in (("bess", 10), ("crane", 15), ("gang", 5)):
        user = player_b if who == "bess" else dealer
        table.ok(user, "quickness", cid=cids[who], total=total)
    watch.check("round 3 Quickness is in")
    table.ok(dealer, "deal")
    watch.check("round 3 dealt")
    play_out(table, watch, players, lambda n: ("act", "pass", "act", "sleeve")[n % 4])
    table.ok(dealer, "tn-roll", cid=cids["crane"], dice="2d6", tn=7, note="The Mayor's shot")
    watch.check("a TN roll")
    table.ok(dealer, "end-fight")
    watch.check("the fight is over")

    assert table.state().phase == engine.Phase.OVER
    assert watch.steps > 25
    for name in ("dealer", "player_a", "player_b"):
        assert watch.own_cards_shown[name] > 0, f"{name} never saw their own cards"


def test_r30_a_players_cards_and_the_npcs_are_not_in_the_other_players_pages(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    """The straight case, spelled out: right after the deal, Bess's phone shows her own cards
    and none of Abe's, the Mayor's or the Pinkertons'; the table view none at all."""
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    table.ok(dealer, "deal")
    bess = card_tokens(table.page(player_b))
    assert {"K♥", "4♣"} <= bess
    assert not bess & {"RJ", "9♣", "3♦", "Q♠", "7♦", "J♦", "2♥"}
    abe = card_tokens(table.page(player_a))
    assert {"RJ", "9♣", "3♦"} <= abe
    assert not abe & {"K♥", "4♣", "Q♠", "7♦", "J♦", "2♥"}
    console = card_tokens(table.page(dealer))
    assert {"RJ", "9♣", "3♦", "K♥", "4♣", "Q♠", "7♦", "J♦", "2♥"} <= console
    shared = card_tokens(table.page(dealer, f"{table.url}table/"))
    assert shared == set()


def test_r30_the_export_carries_only_the_public_timeline(
    table: FightTable, dealer: User, cids: dict[str, str], client_as: Any
) -> None:
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    table.ok(dealer, "deal")
    from exchange.export import campaign_export

    fight: Fight = table.fight
    data = campaign_export(fight.campaign)
    [record] = data["games"]["fights"]  # since the file's version 3 (issue 37): sealed
    assert record["title"] == "Shootout at the livery"
    assert record["session"] == 1
    assert any("Round 1 dealt" in line["text"] for line in record["timeline"])
    # No hand, no stock, no red joker's Fate draw: nothing is played yet, so no card at all.
    assert card_tokens(str(record)) == set()
