"""Hidden information (R10), end to end: whole conflicts driven through HTTP and, at EVERY step,
every page and partial fetched as every user — the Dealer, both players, an outsider and an
anonymous visitor — with no card in any response that the engine's ``visible_cards`` does not
allow that user. Cards are matched as tokens ("10♥", "RJ"), in markup and text alike.

After the end the deck's order may be shown in the verify section (and only there).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Membership
from characters.services import chips_grant
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, controlled_pids, pid_of
from dustdevils import memo
from tests.conflicts.test_views import Table, card_tokens, quick_odds, seeded, texts
from tests.conftest import due

pytestmark = pytest.mark.django_db
__all__ = ["quick_odds", "seeded"]

ORDER_BLOCK = re.compile(r'<pre class="order" data-deck-order>.*?</pre>', re.S)
PER_RENDER = re.compile(r'(name="(?:key|csrfmiddlewaretoken)" value=")[^"]*"')


def unkeyed(html: str) -> str:
    """Without what every render makes anew: the forms' idempotency keys and CSRF masks."""
    return PER_RENDER.sub(r'\1"', html)


class Watch:
    """Fetches every screen as every user and checks each against what they may see."""

    def __init__(self, table: Table, cast: dict[str, User | None]) -> None:
        self.table = table
        self.cast = cast
        self.steps = 0

    def allowed(self, user: User, state: engine.ConflictState, *, shared: bool) -> set[str]:
        membership = Membership.objects.get(user=user, campaign=self.table.conflict.campaign)
        if shared:
            return texts(engine.visible_cards(state, (), dealer=False))
        mine = controlled_pids(self.table.conflict, membership)
        return texts(engine.visible_cards(state, mine, dealer=membership.is_dealer))

    def check(self, label: str) -> None:
        self.steps += 1
        state = self.table.state()
        over = state.phase in (engine.Phase.DONE, engine.Phase.FOLDED)
        t = self.table
        slug = t.conflict.campaign.slug
        pages = {
            "list": (f"/c/{slug}/conflicts/", False, {}),
            "detail": (t.url, False, {}),
            "detail partial": (t.url, False, {"HTTP_HX_REQUEST": "true"}),
            "table": (f"{t.url}table/", True, {}),
            "table partial": (f"{t.url}table/", True, {"HTTP_HX_REQUEST": "true"}),
            "version": (f"{t.url}version/?v=-1", True, {}),
        }
        for i, (name, user) in enumerate(self.cast.items()):
            if not due(self.steps, i):
                continue
            client = t.as_user(user)
            urls = dict(pages)
            for p in state.participants:  # the advisor, for every hand, asked by anyone
                urls[f"advice {p.pid}"] = (f"{t.url}advice/?pid={p.pid}", False, {})
            for page, (url, shared, headers) in urls.items():
                response = client.get(url, **headers)
                where = f"{label}: {page} as {name}"
                if user is None:
                    assert response.status_code == 302, where
                    assert response["Location"].startswith("/accounts/login/"), where
                    continue
                if name == "outsider":
                    assert response.status_code == 404, where
                    assert card_tokens(response.content.decode()) == set(), where
                    continue
                assert response.status_code in (200, 204, 404), where
                html = response.content.decode()
                if over:
                    html = ORDER_BLOCK.sub("", html)
                else:
                    assert "data-deck-order" not in html, where
                    assert not state.salt or state.salt not in html, where
                seen = card_tokens(html)
                may = self.allowed(user, state, shared=shared or page == "list")
                assert seen <= may, f"{where} shows {sorted(seen - may)}"

        self.check_shared_pieces(label)

    def check_shared_pieces(self, label: str) -> None:
        """The pieces rendered once and shared between screens (conflicts.fragments) change
        nothing: every member's panels, rendered with the pieces the other members' screens
        left behind, are exactly what a fresh render gives — so nobody ever gets a piece made
        from facts that were not their own."""
        t = self.table
        for i, (name, user) in enumerate(self.cast.items()):
            if user is None or name == "outsider" or not due(self.steps, i):
                continue
            client = t.as_user(user)
            for url in (t.url, f"{t.url}table/"):
                warm = client.get(url, HTTP_HX_REQUEST="true").content.decode()
                memo.clear_all()
                fresh = client.get(url, HTTP_HX_REQUEST="true").content.decode()
                assert unkeyed(warm) == unkeyed(fresh), f"{label}: {url} as {name}"

    def sees(self, user: User, cards: set[str]) -> None:
        """Guard against a vacuous pass: these cards do show on the user's own screen."""
        html = self.table.page(user)
        assert cards <= card_tokens(html)


@pytest.fixture
def cast(dealer: User, player_a: User, player_b: User, outsider: User) -> dict[str, User | None]:
    return {
        "dealer": dealer,
        "player_a": player_a,
        "player_b": player_b,
        "outsider": outsider,
        "anonymous": None,
    }


def owner(cast: dict[str, User | None], state: engine.ConflictState, pid: str, pc: Any) -> User:
    user = cast["player_a"] if pid == pid_of(pc) else cast["player_b"]
    if state.participant(pid).kind != engine.Kind.PC:
        user = cast["dealer"]
    assert user is not None
    return user


def test_it_never_shows_anyone_a_card_they_may_not_see_R10(
    client: Any,
    campaign: Any,
    cast: dict[str, Any],
    pc_a: Any,
    pc_b: Any,
    npc: Any,
    seeded: Callable[[int], None],
) -> None:
    seeded(1872)
    dealer, a, b = cast["dealer"], cast["player_a"], cast["player_b"]
    pa, pb, pn = pid_of(pc_a), pid_of(pc_b), pid_of(npc)
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Showdown at the bank",
        hands=[
            HandSpec(character=pc_a, goal="Get the payroll"),
            HandSpec(character=pc_b, goal="Cover the door"),
            HandSpec(character=npc, goal="Keep the town's money"),
            HandSpec(stud_size=5, goal="The teller and the sheriff"),
        ],
        stakes=1,
    )
    t = Table(client, conflict)
    watch = Watch(t, cast)
    chips_grant(character_id=pc_b.pk, amount=3, actor=None, note="Starting chips")
    watch.check("set up")
    t.ok(a, "propose", pid=pa, attributes=["hand", "eye"], trait="on")
    watch.check("proposal")
    t.ok(dealer, "approve", pid=pa, attributes=["hand", "eye"], trait="on", devil=0)
    t.ok(dealer, "approve", pid=pb, attributes=["guts", "heart"], devil=-1)
    t.ok(dealer, "approve", pid=pn, attributes=["eye", "heart"], devil=1)
    watch.check("approved")
    t.ok(a, "extra-card", pid=pa)
    t.ok(dealer, "award-card", pid="stud")
    watch.check("extra cards")
    t.ok(dealer, "deal")
    watch.check("dealt")
    state = t.state()
    watch.sees(a, texts(state.participant(pa).hand))
    watch.sees(dealer, texts(state.participant("stud").hand))
    shootin = pc_a.knacks.get(name="Shootin'")
    t.ok(a, "name-knack", pid=pa, knack=shootin.pk)  # R13: named by the player...
    watch.check("knack named")
    t.ok(dealer, "approve-knack", pid=pa, knack=shootin.pk)  # ...approved by the Dealer
    t.ok(a, "draw", pid=pa, discards=[c.text for c in state.participant(pa).hand[:2]])
    watch.check("a drew")
    t.ok(dealer, "award-redraw", pid="stud", card=state.participant("stud").hand[0].text)
    watch.check("stud redrew")
    politickin = npc.knacks.get()
    t.ok(dealer, "approve-knack", pid=pn, knack=politickin.pk)  # R13: the Dealer decides
    watch.check("knack approved")
    t.ok(dealer, "draw", pid=pn, discards=[state.participant(pn).hand[0].text])
    t.ok(b, "draw", pid=pb, stand="1")
    watch.check("everyone drew")
    t.ok(dealer, "call", now="on")
    watch.check("called")
    options = t.page(a)
    assert "Lay this" in options
    lay = [c.text for c in t.state().participant(pa).hand[-5:]]
    t.ok(a, "lay", pid=pa, cards=lay)
    watch.check("a chose a lay")
    t.ok(dealer, "reveal")
    watch.check("revealed")
    state = t.state()
    bidder = b if state.narrator != pb else a
    t.ok(bidder, "bid", pid=pb if bidder == b else pa, amount=1)
    watch.check("a bid")
    t.ok(dealer, "close-bids")
    watch.check("bids closed")
    for o in t.state().owed:
        p = t.state().participant(o.pid)
        allocation = engine.default_allocation(o, p.currents)
        t.ok(owner(cast, t.state(), o.pid, pc_a), "allocate", pid=o.pid, **allocation)
        watch.check(f"{p.name} placed Difficulty")
    t.ok(dealer, "finish")
    watch.check("finished")
    assert "It matches" in t.page(b, f"{t.url}table/")

    # Deal again: Bess folds after the Deal; her folded hand stays hers even after the end.
    again = t.as_user(dealer).post(f"{t.url}again/")
    fresh = Conflict.objects.get(previous=conflict)
    assert again["Location"] == fresh.get_absolute_url()
    t2 = Table(client, fresh)
    watch2 = Watch(t2, cast)
    watch2.check("dealt again")
    t2.ok(dealer, "approve", pid=pa, attributes=["guts", "eye"], devil=0)
    t2.ok(dealer, "approve", pid=pb, attributes=["hand", "heart"], devil=0)
    t2.ok(dealer, "approve", pid=pn, attributes=["hand", "guts"], devil=0)
    t2.ok(dealer, "deal")
    watch2.check("second deal")
    t2.ok(b, "fold", pid=pb)
    watch2.check("b folded")
    t2.ok(dealer, "call", now="on")
    t2.ok(dealer, "reveal")
    watch2.check("second reveal")
    folded = texts(t2.state().participant(pb).hand)
    assert not folded & card_tokens(t2.page(a))
    assert not folded & card_tokens(t2.page(a, f"{t2.url}table/"))
    for o in t2.state().owed:
        p = t2.state().participant(o.pid)
        t2.ok(owner(cast, t2.state(), o.pid, pc_a), "allocate", pid=o.pid,
              **engine.default_allocation(o, p.currents))  # fmt: skip
    t2.ok(dealer, "finish")
    watch2.check("second finish")
    assert not folded & card_tokens(ORDER_BLOCK.sub("", t2.page(a)))
    assert watch.steps + watch2.steps >= 20


def test_it_hides_every_hand_when_the_dealer_folds_and_then_shows_the_order_R10_R15(
    client: Any, campaign: Any, cast: dict[str, Any], pc_a: Any, pc_b: Any
) -> None:
    dealer = cast["dealer"]
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Stampede",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=7)],
    )
    t = Table(client, conflict)
    watch = Watch(t, cast)
    t.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "deal")
    watch.check("dealt")
    t.ok(dealer, "dealer-fold")
    watch.check("the Dealer folded")
    html = t.page(cast["player_b"], f"{t.url}table/")
    assert "data-deck-order" in html  # over: the order may now be checked
    stud = texts(t.state().participant("stud").hand)
    assert not stud & card_tokens(ORDER_BLOCK.sub("", html))


# --- The live streams (conflicts.streams) ------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_it_never_streams_anyone_a_card_they_may_not_see_R10(
    client: Any, campaign: Any, cast: dict[str, Any], pc_a: Any, pc_b: Any, npc: Any
) -> None:
    """Streams stay open for the Dealer, both players and the table view through a whole
    conflict; every snapshot and every update of every stream is checked against what that
    viewer may see at that version (the table stream: public facts only)."""
    import asyncio

    from asgiref.sync import sync_to_async
    from django.test import override_settings

    from tests.live.test_streams import open_stream

    dealer, a, b = cast["dealer"], cast["player_a"], cast["player_b"]
    pa, pb, pn = pid_of(pc_a), pid_of(pc_b), pid_of(npc)
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Night train",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(character=npc),
               HandSpec(stud_size=5)],
    )  # fmt: skip
    t = Table(client, conflict)
    watch = Watch(t, cast)
    viewers = {"dealer": (dealer, "stream/", False), "player_a": (a, "stream/", False),
               "player_b": (b, "stream/", False), "table": (b, "table/stream/", True)}  # fmt: skip
    urls = {name: t.url + suffix for name, (_, suffix, _) in viewers.items()}
    moves: list[tuple[Any, str, dict[str, Any]]] = [
        (dealer, "approve", {"pid": pa, "attributes": ["hand", "eye"], "devil": 0}),
        (dealer, "approve", {"pid": pb, "attributes": ["guts", "heart"], "devil": 0}),
        (dealer, "approve", {"pid": pn, "attributes": ["eye", "heart"], "devil": 0}),
        (dealer, "deal", {}),
        (a, "draw", {"pid": pa, "stand": "1"}),
        (b, "draw", {"pid": pb, "stand": "1"}),
        (dealer, "draw", {"pid": pn, "stand": "1"}),
        (dealer, "call", {"now": "on"}),
        (dealer, "reveal", {}),
    ]
    checked: list[str] = []

    def check(name: str, label: str, html: str, version: int) -> None:
        user, _, shared = viewers[name]
        assert t.version == version, label
        state = t.state()
        assert "data-deck-order" not in html
        seen = card_tokens(html)
        may = watch.allowed(user, state, shared=shared)
        assert seen <= may, f"{label}: {name}'s stream shows {sorted(seen - may)}"
        checked.append(f"{label}:{name}")

    async def scenario() -> None:
        checking = sync_to_async(check, thread_sensitive=False)
        move = sync_to_async(t.ok, thread_sensitive=False)
        streams = {}
        for name, (user, _, _) in viewers.items():
            status, stream = await open_stream(user, urls[name])
            assert status == 200
            assert stream is not None
            streams[name] = stream
            first = await stream.next()
            assert first.event == "snapshot"
            assert first.id is not None
            await checking(name, "snapshot", first.data, first.id)
        for user, action, data in moves:
            await move(user, action, **data)
            for name, stream in streams.items():
                event = await stream.next()
                assert event.event == "update", (action, name)
                assert event.id is not None
                await checking(name, action, event.data, event.id)
        for stream in streams.values():
            await stream.close()

    with override_settings(BROADCASTER="inprocess"):
        asyncio.run(scenario())
    assert len(checked) == 4 * (1 + len(moves))
    # Not vacuous: after the Deal each player's stream showed their own hand.
    watch.sees(a, texts(t.state().participant(pa).hand))


def test_it_says_plainly_that_the_full_deal_is_revealed_at_the_end_R10(
    client: Any, campaign: Any, cast: dict[str, Any], pc_a: Any, pc_b: Any
) -> None:
    """R10's audit shows the deck's order once the conflict is over; with the log's "Dealt"
    line that rebuilds every hand, a folded one too. The app chooses that and says so, on the
    Rulings page and on the table view beside the order."""
    rulings = client.get("/rulings/").content.decode()
    assert "full deal" in rulings
    dealer = cast["dealer"]
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Stampede",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=7)],
    )
    t = Table(client, conflict)
    t.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "deal")
    assert "The full deal is revealed" not in t.page(cast["player_b"], f"{t.url}table/")
    t.ok(dealer, "dealer-fold")
    html = t.page(cast["player_b"], f"{t.url}table/")
    assert "The full deal is revealed" in html
    assert "a folded one too" in html
