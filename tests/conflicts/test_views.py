"""The conflict screens through HTTP: every move with and without htmx (post/redirect/get vs the
main partial), refusals in plain words that change nothing, stale forms, repeated keys, the
new-conflict form, Deal again, the live poll, the advisers and the Rulings page.

The helpers here (``Table``, ``arrange``) are shared by the other view and hidden-information
test modules.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import strip_tags

from campaigns.models import Membership
from cards.deck import Card, Deck, parse_cards
from characters.services import chips_grant
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.models import Conflict, Event
from conflicts.reads import table_read
from conflicts.selectors import advice, conflict_view
from conflicts.services import HandSpec, conflict_create, controlled_pids, pid_of
from tests.kit import TableDriver

pytestmark = pytest.mark.django_db


# --- Helpers shared by the view tests ----------------------------------------------------------


@pytest.fixture(autouse=True)
def quick_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advisers' Monte Carlo runs are real, just shorter in tests."""
    monkeypatch.setattr(advice, "ODDS_DEALS", 300)
    monkeypatch.setattr(advice, "ADVICE_DEALS", 150)
    monkeypatch.setattr(advice, "ADVICE_MIN_DEALS", 40)
    monkeypatch.setattr(advice, "ADVICE_WORK", 6_000)


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``seeded(7)``: every shuffle the views cause comes from random.Random(7)."""

    def use(seed: int) -> None:
        monkeypatch.setattr("conflicts.services.moves.system_rng", lambda: random.Random(seed))

    return use


class Table(TableDriver):
    """Drives one conflict through the views, as the people at the table would."""

    def __init__(self, client: Client, conflict: Conflict) -> None:
        super().__init__(client, conflict)
        self.conflict = conflict

    def state(self) -> engine.ConflictState:
        self.conflict.refresh_from_db()
        return state_from_data(self.conflict.state)


def hand_of(table: Table, pid: str) -> tuple[Card, ...]:
    return table.state().participant(pid).hand


def arrange(conflict: Conflict, hands: dict[str, Sequence[Card]], top: Sequence[Card] = ()) -> None:
    """Test set-up after the Deal: give these hands exactly these cards and put ``top`` on top
    of the deck, every other card kept somewhere (the 54 stay conserved)."""
    conflict.refresh_from_db()
    state = state_from_data(conflict.state)
    assert state.deck is not None
    wanted = {c for cards in hands.values() for c in cards} | set(top)
    pool = [c for c in _all(state) if c not in wanted]
    parts = []
    for p in state.participants:
        if p.pid in hands:
            assert len(hands[p.pid]) == len(p.hand), "keep the dealt size"
            parts.append(replace(p, hand=tuple(hands[p.pid])))
        else:
            keep = [pool.pop(0) for _ in p.hand]
            parts.append(replace(p, hand=tuple(keep)))
    deck = Deck(tuple(top) + tuple(pool), ())
    state = replace(state, participants=tuple(parts), deck=deck)
    conflict.state = state_to_data(state)
    conflict.save(update_fields=["state"])


def _all(state: engine.ConflictState) -> list[Card]:
    assert state.deck is not None
    out = [c for p in state.participants for c in p.hand]
    return out + list(state.deck.stock) + list(state.deck.discards)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


CARD_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[♣♦♥♠]|(?<![A-Za-z0-9])[RB]J(?![A-Za-z0-9])"
)


def card_tokens(html: str) -> set[str]:
    """Every card written anywhere in a page: markup (data-card, values) and text alike."""
    return set(CARD_TOKEN.findall(html))


def texts(cards_: Iterable[Card]) -> set[str]:
    return {c.text for c in cards_}


@pytest.fixture
def posse(campaign: Any, dealer: User, pc_a: Any, pc_b: Any) -> Conflict:
    """Two player characters against the Dealer's 5-card stud, Stakes 1."""
    return conflict_create(
        campaign=campaign,
        actor=dealer,
        title="The posse at the canyon",
        hands=[
            HandSpec(character=pc_a, goal="Jump into the river"),
            HandSpec(character=pc_b, goal="Hold off the posse"),
            HandSpec(stud_size=5, goal="The posse"),
        ],
        stakes=1,
    )


@pytest.fixture
def table(client: Client, posse: Conflict) -> Table:
    return Table(client, posse)


def sized(table: Table, dealer: User, pc_a: Any, pc_b: Any) -> None:
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], trait="on", devil=0)
    table.ok(dealer, "approve", pid=pid_of(pc_b), attributes=["guts", "heart"], devil=0)


def dealt(table: Table, dealer: User, pc_a: Any, pc_b: Any) -> None:
    sized(table, dealer, pc_a, pc_b)
    table.ok(dealer, "deal")


# --- Moves: post/redirect/get, and the htmx partial ---------------------------------------------


def test_it_redirects_after_a_move_and_shows_what_happened(
    table: Table, player_a: User, pc_a: Any
) -> None:
    response = table.post(player_a, "propose", pid=pid_of(pc_a), attributes=["hand", "eye"])
    assert response.status_code == 302
    assert response["Location"] == table.url
    assert any("proposes hand + eye" in m for m in table.messages(player_a))
    assert table.state().participant(pid_of(pc_a)).proposal == (("hand", "eye"), False)


def test_it_answers_htmx_with_the_main_partial_and_the_message(
    table: Table, player_a: User, pc_a: Any
) -> None:
    response = table.post(
        player_a, "propose", htmx=True, pid=pid_of(pc_a), attributes=["guts", "eye"], trait="on"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="conflict-main"' in html
    assert "proposes eye + guts and a trait" in html or "proposes guts + eye" in html
    assert "Waiting for the Dealer" in html


@pytest.mark.parametrize("htmx", [False, True])
def test_it_says_no_plainly_and_changes_nothing_R10(table: Table, dealer: User, htmx: bool) -> None:
    before = table.version
    response = table.post(dealer, "call", htmx=htmx)
    assert table.version == before
    if htmx:
        assert response.status_code == 200
        assert "The cards have not been dealt yet." in response.content.decode()
        # Morphed in place, no scrolling by htmx; the browser's kit shows the reason by the form.
        assert response["HX-Reswap"] == "morph:outerHTML show:none"
        said = json.loads(response["HX-Trigger"])
        assert said == {"move-answered": {"panel": "conflict-main", "refused": True}}
        assert "data-move-error" in response.content.decode()
    else:
        assert response.status_code == 302
        assert "The cards have not been dealt yet." in table.messages(dealer)


def test_it_refuses_a_bad_form_in_plain_words_R11(table: Table, player_a: User, pc_a: Any) -> None:
    response = table.post(
        player_a, "propose", htmx=True, pid=pid_of(pc_a), attributes=["hand", "eye", "guts"]
    )
    assert "choose exactly two (R11)" in response.content.decode()
    assert table.version == 0


def test_it_refuses_someone_elses_hand(table: Table, player_b: User, pc_a: Any) -> None:
    response = table.post(
        player_b, "propose", htmx=True, pid=pid_of(pc_a), attributes=["hand", "eye"]
    )
    assert "That is not your hand to play." in response.content.decode()
    assert table.version == 0


@pytest.mark.parametrize("htmx", [False, True])
def test_it_rerenders_the_current_table_for_a_stale_form(
    table: Table, dealer: User, player_a: User, pc_a: Any, htmx: bool
) -> None:
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], devil=0)
    response = table.post(
        player_a, "propose", htmx=htmx, version=0, pid=pid_of(pc_a), attributes=["guts", "heart"]
    )
    assert table.version == 1
    message = "The table has moved on since that page was loaded; here it is now."
    if htmx:
        html = response.content.decode()
        assert message in html
        assert "The Dealer set it:" in html  # the current state: the Deal is already set
        assert 'name="version" value="1"' in html
    else:
        assert message in table.messages(player_a)


def test_it_refuses_a_get_on_a_move_and_an_unknown_move(
    table: Table, dealer: User, client: Client
) -> None:
    client.force_login(dealer)
    assert client.get(table.move_url("deal")).status_code == 405
    assert client.post(table.move_url("shoot"), {"version": 0}).status_code == 404


# --- The Dealer's console ---------------------------------------------------------------------


def test_it_shows_the_dealer_the_next_step_and_the_deal_sizing_R11(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    html = table.page(dealer)
    assert "Set Abe Slade&#x27;s Deal, or wait for the proposal" in html
    table.ok(player_a, "propose", pid=pid_of(pc_a), attributes=["hand", "eye"], trait="on")
    html = table.page(dealer)
    assert "Proposed: <strong>Hand + Eye + a trait</strong>" in html
    sized(table, dealer, pc_a, pc_b)
    html = table.page(dealer)
    assert "Hand 4 + Eye 3 + Trait 1 = 8" in html
    assert "Guts 3 + Heart 3 = 6" in html
    assert "/rulings/#R11" in html
    assert 'class="next-step__text">Deal<' in html


def test_it_deals_and_every_hand_gets_its_size_R11_R12(
    table: Table, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    state = table.state()
    assert [len(p.hand) for p in state.participants] == [8, 6, 5]
    html = table.page(dealer)
    assert "Waiting for Abe Slade, Bess Doyle to draw" in html
    for p in state.participants:  # the Dealer sees every hand
        assert texts(p.hand) <= card_tokens(html)


def test_it_awards_a_chip_to_every_player_for_the_dealers_extra_card_and_redraw_R15(
    table: Table, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    sized(table, dealer, pc_a, pc_b)
    assert "awards a chip to every player" in table.page(dealer)
    table.ok(dealer, "award-card", pid="stud")
    table.ok(dealer, "deal")
    stud = hand_of(table, "stud")
    assert len(stud) == 6
    table.ok(dealer, "award-redraw", pid="stud", card=stud[0].text)
    assert stud[0] not in hand_of(table, "stud")
    pc_a.refresh_from_db()
    pc_b.refresh_from_db()
    assert (pc_a.chips, pc_b.chips) == (3 + 2, 0 + 2)


def test_it_refuses_a_players_fold_without_a_chip_and_takes_one_for_a_fold_R19(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    response = table.post(player_b, "fold", htmx=True, pid=pid_of(pc_b))
    assert "chip" in response.content.decode()
    assert not table.state().participant(pid_of(pc_b)).folded
    table.ok(player_a, "fold", pid=pid_of(pc_a))
    assert table.state().participant(pid_of(pc_a)).folded
    pc_a.refresh_from_db()
    assert pc_a.chips == 2
    assert "You folded" in table.page(player_a)


def test_it_lets_the_dealer_fold_the_conflict_awarding_every_player_a_chip_R15(
    table: Table, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    table.ok(dealer, "dealer-fold")
    assert table.state().phase == engine.Phase.FOLDED
    pc_b.refresh_from_db()
    assert pc_b.chips == 1
    html = table.page(dealer)
    assert "Folded: the conflict stays unresolved" in html
    assert "Deal again" not in html


# --- The player's view --------------------------------------------------------------------------


def test_it_shows_the_player_their_numbers_and_their_hand_as_big_cards(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    html = table.page(player_a)
    assert "Propose my Deal" in html
    assert "Shootin&#x27;&nbsp;4" in html
    dealt(table, dealer, pc_a, pc_b)
    html = table.page(player_a)
    mine = hand_of(table, pid_of(pc_a))
    for card in mine:
        assert f'data-card="{card.text}"' in html
        assert f'name="discards" value="{card.text}"' in html
    assert "pcard--red" in html or not any(c.is_red for c in mine)
    assert "Name the knack your Draw plays to" in html  # R13: the player names it...
    assert "You may discard up to <strong>0</strong>" in html  # ...and nothing until approved
    shootin = pc_a.knacks.get(name="Shootin'")
    table.ok(dealer, "approve-knack", pid=pid_of(pc_a), knack=shootin.pk)  # in advance
    html = table.page(player_a)
    assert "approved by the Dealer" in html
    assert "You may discard up to <strong>4</strong>" in html  # Shootin' 4 (R13)
    assert "Stand pat" in html
    # The odds meter, against every other hand in play (issue 30)
    theirs = len(hand_of(table, pid_of(pc_b)))
    against = f"{pc_b.name}&#x27;s {theirs} cards and the Dealer&#x27;s 5-card stud"
    assert f"to win against {against}" in html


def test_it_draws_with_the_knack_limit_and_refuses_one_over_R13(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    mine = hand_of(table, pid_of(pc_a))
    drinkin = pc_a.knacks.get(name="Drinkin'")
    table.ok(player_a, "name-knack", pid=pid_of(pc_a), knack=drinkin.pk)
    response = table.post(
        player_a, "draw", htmx=True, pid=pid_of(pc_a), discards=[c.text for c in mine[:2]]
    )
    assert (
        "(knack 0; Drinkin&#x27; waits for the Dealer&#x27;s approval)."
        in response.content.decode()
    )
    table.ok(dealer, "approve-knack", pid=pid_of(pc_a), knack=drinkin.pk)
    response = table.post(
        player_a, "draw", htmx=True, pid=pid_of(pc_a), discards=[c.text for c in mine[:3]]
    )
    assert "You may discard at most 2 cards (knack 2)." in response.content.decode()
    table.ok(
        player_a, "draw", pid=pid_of(pc_a), extra_chip="on", discards=[c.text for c in mine[:3]]
    )
    after = hand_of(table, pid_of(pc_a))
    assert len(after) == 8
    assert not set(mine[:3]) & set(after)
    pc_a.refresh_from_db()
    assert pc_a.chips == 2  # the extra draw (R15)


def test_it_refuses_a_knack_of_another_character(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    other = pc_b.knacks.first()
    response = table.post(player_a, "name-knack", htmx=True, pid=pid_of(pc_a), knack=other.pk)
    assert "Choose one of the character&#x27;s own knacks." in response.content.decode()
    response = table.post(dealer, "approve-knack", htmx=True, pid=pid_of(pc_a), knack=other.pk)
    assert "Choose one of the character&#x27;s own knacks." in response.content.decode()
    assert table.state().participant(pid_of(pc_a)).knack == ""


def test_it_refuses_discard_and_draw_with_nothing_ticked_R13(
    table: Table, dealer: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    response = table.post(player_b, "draw", htmx=True, pid=pid_of(pc_b))
    assert "Tap the cards to discard first, or stand pat." in response.content.decode()
    assert not table.state().participant(pid_of(pc_b)).drew


def test_it_stands_pat(table: Table, dealer: User, player_b: User, pc_a: Any, pc_b: Any) -> None:
    dealt(table, dealer, pc_a, pc_b)
    before = hand_of(table, pid_of(pc_b))
    table.ok(player_b, "draw", pid=pid_of(pc_b), stand="1", discards=[before[0].text])
    assert hand_of(table, pid_of(pc_b)) == before
    assert Event.objects.filter(text="Bess Doyle stands.").exists()


def test_it_advises_discards_for_the_chosen_knack_from_my_own_cards_R13(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    html = table.page(player_a)
    assert "Working out the best discards" in html
    knack = pc_a.knacks.get(name="Ridin'")
    client = table.as_user(player_a)
    response = client.get(
        f"{table.url}advice/", {"pid": pid_of(pc_a), "knack": knack.pk}, HTTP_HX_REQUEST="true"
    )
    advice = response.content.decode()
    assert response.status_code == 200
    assert "(up to 3)" in advice
    lines = re.findall(r"<li>(.*?)</li>", advice, re.S)
    assert len(lines) == 3
    assert all(re.search(r"(discard .*|stand pat): <strong>\d+%</strong>", li) for li in lines)
    assert card_tokens(advice) <= texts(hand_of(table, pid_of(pc_a)))
    # Now cached: the page shows it at once.
    assert html != table.page(player_a, f"{table.url}?advise=1")


def test_it_gives_no_advice_to_the_dealer_nor_for_a_hand_that_is_not_mine(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    client = table.as_user(dealer)
    assert client.get(f"{table.url}advice/", {"pid": pid_of(pc_a)}).status_code == 404
    client = table.as_user(player_a)
    assert client.get(f"{table.url}advice/", {"pid": pid_of(pc_b)}).status_code == 404


def test_it_offers_the_lays_best_first_with_what_each_alternative_keeps_R4(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    blackjack = cards("3♥ 3♣ 3♦ 7♦ 7♣ K♠ 2♣ 4♦")
    arrange(table.conflict, {pid_of(pc_a): blackjack})
    table.ok(player_a, "draw", pid=pid_of(pc_a), stand="1")
    table.ok(dealer, "call", now="on")
    html = table.page(player_a)
    assert html.index("Full house, 3s over 7s") < html.index("keeps K♠ for narration")
    assert "deals 4 Difficulty" in html
    assert "/rulings/#R4" in html
    table.ok(player_a, "lay", pid=pid_of(pc_a), cards=["3♥", "3♣", "7♦", "7♣", "K♠"])
    assert table.state().participant(pid_of(pc_a)).lay_chosen
    response = table.post(player_a, "lay", htmx=True, pid=pid_of(pc_a), cards=["3♥"])
    assert "Lay exactly 5 cards (R4)." in response.content.decode()


def test_it_runs_the_narration_bids_and_the_restore_R16(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    arrange(
        table.conflict,
        {
            pid_of(pc_a): cards("2♣ 3♠ 4♦ 6♥ 7♣ 8♦ 9♣ J♥"),
            pid_of(pc_b): cards("A♠ 2♦ 3♣ 8♣ 10♦ Q♥"),
            "stud": cards("K♥ K♦ K♠ Q♠ Q♦"),
        },
    )
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    html = table.page(player_a)
    assert "Bess Doyle</strong> holds the narration" in html
    assert "take the narration for" in html
    table.ok(player_a, "bid", pid=pid_of(pc_a), amount=2)
    chips_grant(character_id=pc_b.pk, amount=1, actor=None)
    assert "Keep the narration: match" in table.page(player_b)
    table.ok(dealer, "close-bids")
    state = table.state()
    assert state.narrator == pid_of(pc_a)
    owed = next(o for o in state.owed if o.pid == pid_of(pc_a))
    allocation = engine.default_allocation(owed, state.participant(pid_of(pc_a)).currents)
    table.ok(player_a, "allocate", pid=pid_of(pc_a), **allocation)
    html = table.page(player_a)
    assert "restore one point of" in html
    table.ok(player_a, "restore", pid=pid_of(pc_a), attribute=next(iter(allocation)))
    b_owed = next(o for o in state.owed if o.pid == pid_of(pc_b))
    table.ok(
        player_b, "allocate", pid=pid_of(pc_b),
        **engine.default_allocation(b_owed, state.participant(pid_of(pc_b)).currents),
    )  # fmt: skip
    table.ok(dealer, "finish")
    pc_a.refresh_from_db()
    assert sum(pc_a.rating(a) - pc_a.current(a) for a in ("hand", "eye", "guts", "heart")) == 4
    assert pc_a.chips == 1  # 3 - 2 for the narration


def test_it_records_the_narrators_decree_with_its_reason_R14(
    table: Table, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    response = table.post(dealer, "override", htmx=True, pid=pid_of(pc_a), source="", reason="")
    assert "The narrator&#x27;s decree: This field is required." in response.content.decode()
    table.ok(dealer, "override", pid=pid_of(pc_a), source="", reason="The river breaks the fall")
    assert table.state().owed == () or all(o.pid != pid_of(pc_a) for o in table.state().owed)
    assert "By the narrator&#x27;s decree Abe Slade takes no Difficulty" in table.page(dealer)


# --- The table view, the poll, the timeline -------------------------------------------------------


def test_it_polls_the_version_204_while_still_and_a_trigger_when_moved(
    table: Table, dealer: User, player_a: User, pc_a: Any
) -> None:
    client = table.as_user(player_a)
    url = f"{table.url}version/"
    assert client.get(url, {"v": 0}).status_code == 204
    table.ok(player_a, "propose", pid=pid_of(pc_a), attributes=["hand", "eye"])
    response = table.as_user(player_a).get(url, {"v": 0})
    assert response.status_code == 200
    assert response.json() == {"version": 1}
    assert "conflict-moved" in response["HX-Trigger"]
    html = table.page(player_a)
    assert f'{url}?v=1"' in html
    assert 'hx-trigger="conflict-moved from:body"' in html


def test_it_shows_the_table_the_commitment_and_after_the_end_the_salt_and_the_check_R10(
    table: Table, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    state = table.state()
    html = table.page(dealer, f"{table.url}table/")
    assert state.commitment in html
    assert state.salt not in html
    assert "data-deck-order" not in html
    assert card_tokens(html) == set()  # the shared screen: counts only, even for the Dealer
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    for o in table.state().owed:
        p = table.state().participant(o.pid)
        table.ok(dealer if p.kind != engine.Kind.PC else _player(p.pid, pc_a), "allocate",
                 pid=o.pid, **engine.default_allocation(o, p.currents))  # fmt: skip
    table.ok(dealer, "finish")
    html = table.page(dealer, f"{table.url}table/")
    assert state.salt in html
    assert "It matches: the deck was fixed at the Deal." in html
    order = " ".join(c.text for c in state.order)
    shown = re.search(r"data-deck-order>(.*?)</pre>", html, re.S)
    assert shown is not None
    assert strip_tags(shown.group(1)) == order  # each card named in words (issue 36 #5)
    assert shown.group(1).count('role="img"') == 54


def _player(pid: str, pc_a: Any) -> User:
    return pc_a.player if pid == pid_of(pc_a) else User.objects.get(username="player_b")


def test_it_keeps_a_readable_timeline_on_every_view(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    for url in (table.url, f"{table.url}table/"):
        html = table.page(player_a, url)
        assert "Timeline" in html
        assert "The Dealer sets up “The posse at the canyon”, Stakes 1 chip." in html
        assert "Dealt: Abe Slade 8, Bess Doyle 6, The Dealer&#x27;s stud 5." in html


def test_it_shows_a_member_outside_the_conflict_only_what_the_table_sees(
    campaign: Any, dealer: User, player_b: User, pc_a: Any, client: Client
) -> None:
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Alone", hands=[HandSpec(character=pc_a),
        HandSpec(stud_size=3)],
    )  # fmt: skip
    t = Table(client, conflict)
    t.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], devil=0)
    t.ok(dealer, "deal")
    html = t.page(player_b)
    assert "You are not in this conflict" in html
    assert card_tokens(html) == set()


# --- Setting up, dealing again ------------------------------------------------------------------


def test_it_sets_up_a_conflict_from_the_dealers_form_R12_R14_R18(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    client = client_as(dealer)
    url = f"/c/{campaign.slug}/conflicts/new/"
    html = client.get(url).content.decode()
    assert "Abe Slade" in html
    assert "Mayor Crane" in html
    response = client.post(
        url,
        {
            "title": "Gunfight at the corral",
            "stakes": 2,
            "stud": 0,
            f"take_{pc_a.pk}": "on", f"goal_{pc_a.pk}": "Shoot first",
            f"side_{pc_a.pk}": "players",
            f"take_{pc_b.pk}": "on", f"goal_{pc_b.pk}": "Shoot straighter",
            f"side_{pc_b.pk}": "dealer",
            f"side_{npc.pk}": "dealer",
        },
    )  # fmt: skip
    conflict = Conflict.objects.get(title="Gunfight at the corral")
    assert response.status_code == 302
    assert response["Location"] == conflict.get_absolute_url()
    state = state_from_data(conflict.state)
    assert [(p.pid, p.side) for p in state.participants] == [
        (pid_of(pc_a), "players"),
        (pid_of(pc_b), "dealer"),
    ]
    assert state.stakes == 2
    assert conflict.seats.get(pid=pid_of(pc_a)).goal == "Shoot first"


def test_it_refuses_a_conflict_without_a_player_character_or_two_sides(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, pc_a: Any
) -> None:
    client = client_as(dealer)
    url = f"/c/{campaign.slug}/conflicts/new/"
    html = client.post(url, {"title": "Nobody", "stakes": 0, "stud": 5}).content.decode()
    assert "Tick at least one player character." in html
    html = client.post(
        url, {"title": "No foe", "stakes": 0, "stud": 0, f"take_{pc_a.pk}": "on",
              f"side_{pc_a.pk}": "players"},
    ).content.decode()  # fmt: skip
    assert "A conflict needs at least two opposed hands, on two sides" in html
    assert not Conflict.objects.exists()


def test_it_sizes_a_recovery_conflicts_stud_from_the_points_R22(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, pc_a: Any
) -> None:
    type(pc_a).objects.filter(pk=pc_a.pk).update(hand_current=1, eye_current=1)  # 5 points down
    client = client_as(dealer)
    url = f"/c/{campaign.slug}/conflicts/new/"
    base = {"title": "Doc stitches Abe up", "stakes": 0, "stud": 3, f"side_{pc_a.pk}": "players"}
    html = client.post(url, {**base, "recovery_character": pc_a.pk, "recovery_points": 6})
    assert "only 5 point(s) to recover" in html.content.decode()
    client.post(url, {**base, "recovery_character": pc_a.pk, "recovery_points": 3})
    state = state_from_data(Conflict.objects.get().state)
    assert state.recovery == (pid_of(pc_a), 3)
    assert state.participant("stud").stud_size == 5  # 3–4 points: a 5-card stud


def test_it_deals_again_once_with_the_winner_bonus_when_switched_on_R20_R11(
    table: Table, campaign: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    campaign.winner_bonus = True
    campaign.save(update_fields=["winner_bonus"])
    dealt(table, dealer, pc_a, pc_b)
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    for o in table.state().owed:
        p = table.state().participant(o.pid)
        table.ok(_player(o.pid, pc_a), "allocate", pid=o.pid,
                 **engine.default_allocation(o, p.currents))  # fmt: skip
    table.ok(dealer, "finish")
    winner = table.state().winner
    assert "Deal again" in table.page(dealer)
    client = table.as_user(dealer)
    first = client.post(f"{table.url}again/")
    second = client.post(f"{table.url}again/", HTTP_HX_REQUEST="true")
    fresh = Conflict.objects.get(previous=table.conflict)
    assert first["Location"] == fresh.get_absolute_url()
    assert second["HX-Redirect"] == fresh.get_absolute_url()
    state = state_from_data(fresh.state)
    assert state.phase == engine.Phase.SIZING
    assert [p.pid for p in state.participants] == [pid_of(pc_a), pid_of(pc_b), "stud"]
    bonus = {p.pid: p.winner_bonus for p in state.participants}
    assert bonus == {p: int(p == winner and p != "stud") for p in bonus}
    assert "Go to the next hand" in table.page(dealer)
    # The new hand links back to the last one, on its page and on a live screen, which is
    # rendered from a read of the table without a query (the link needs no read of its own).
    last_hand = f'Continues <a href="{table.url}">the last hand</a>'
    assert last_hand in Table(table.client, fresh).page(dealer)
    data = table_read(fresh.pk)
    assert data is not None
    seat = Membership.objects.get(campaign=campaign, user=dealer)
    with CaptureQueriesContext(connection) as queries:
        panel = render_to_string("conflicts/detail.html#main", conflict_view(data, seat))
    assert last_hand in panel
    assert queries.captured_queries == []


def test_it_refuses_to_deal_again_before_the_end_R20(table: Table, dealer: User) -> None:
    response = table.as_user(dealer).post(f"{table.url}again/")
    assert response.status_code == 302
    assert "Only a finished conflict can be dealt again." in table.messages(dealer)
    assert Conflict.objects.count() == 1


def test_it_lists_the_campaigns_conflicts(
    table: Table, player_a: User, dealer: User, campaign: Any
) -> None:
    html = table.page(player_a, f"/c/{campaign.slug}/conflicts/")
    assert "The posse at the canyon" in html
    assert "New conflict" not in html
    assert "New conflict" in table.page(dealer, f"/c/{campaign.slug}/conflicts/")


# --- The Rulings page ---------------------------------------------------------------------------


def test_it_shows_every_ruling_to_anyone_with_anchors(client: Client) -> None:
    html = client.get("/rulings/").content.decode()
    for n in range(1, 30):
        assert f'id="R{n}"' in html
    sections = re.findall(r'<h2 class="panel__title" id="g-\d">(.*?)</h2>', html)
    assert sections[:6] == [
        "Cards and hands", "The conflict", "Sessions", "The action deck (combat rounds)",
        "Death Enters the Saloon", "Characters",
    ]  # fmt: skip
    assert "The Gunfighter" in sections[6:]  # the games follow the Dust Devils rulings
    r11 = html[html.index('id="R11"') : html.index('id="R12"')]
    assert "The Deal" in r11
    assert "the two attributes the Dealer approves" in r11
    assert "The Deal" in html
    assert "Narration bids" in html


def test_it_links_the_rulings_from_where_they_decide_something(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    html = table.page(dealer) + table.page(player_a)
    for ruling in ("R11", "R18", "R19", "R15"):
        assert f"/rulings/#{ruling}" in html
    dealt(table, dealer, pc_a, pc_b)
    assert "/rulings/#R13" in table.page(player_a)
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    html = table.page(player_a)
    for ruling in ("R8", "R16", "R9", "R14"):
        assert f"/rulings/#{ruling}" in html


def test_it_counts_controlled_hands_for_the_dealer_and_players(
    posse: Conflict, campaign: Any, dealer: User, player_a: User, pc_a: Any
) -> None:
    d = Membership.objects.get(user=dealer, campaign=campaign)
    a = Membership.objects.get(user=player_a, campaign=campaign)
    assert controlled_pids(posse, d) == {"stud"}
    assert controlled_pids(posse, a) == {pid_of(pc_a)}


def test_the_answer_to_a_move_shows_the_sheet_as_the_move_left_it_R15(
    table: Table, player_a: User, pc_a: Any
) -> None:
    """After a chip is spent the mover's answer shows what is left."""

    def chips_shown(html: str) -> str:
        found = re.search(r"Chips <strong>(\d+)</strong>", html)
        assert found is not None
        return found.group(1)

    pid = pid_of(pc_a)
    assert chips_shown(table.page(player_a)) == "3"
    spent = table.post(player_a, "extra-card", htmx=True, pid=pid)
    assert chips_shown(spent.content.decode()) == "2"  # R15: the extra card's chip
    proposed = table.post(player_a, "propose", htmx=True, pid=pid, attributes=["hand", "eye"])
    assert chips_shown(proposed.content.decode()) == "2"


def test_the_new_conflict_form_carries_a_key_and_a_resent_form_sets_up_once(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    """Issue 19 #8 (the threaded race is in test_concurrency.py, on PostgreSQL)."""
    client = client_as(dealer)
    url = f"/c/{campaign.slug}/conflicts/new/"
    keys = re.findall(r'name="key" value="([0-9a-f]+)"', client.get(url).content.decode())
    assert len(keys) == 1
    form = {
        "key": keys[0], "title": "Twice", "stakes": 0, "stud": 5,
        f"take_{pc_a.pk}": "on", f"side_{pc_a.pk}": "players", f"side_{pc_b.pk}": "players",
    }  # fmt: skip
    first = client.post(url, form)
    second = client.post(url, form)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Conflict.objects.filter(title="Twice").count() == 1
