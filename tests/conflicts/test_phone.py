"""The player's phone shows what matters first (issue 18): what to do now and the hand before
the numbers (folded into one line), the cards sorted with the lay marked, the result told in
plain words with its form right there, and the panel marked when it is this player's turn."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from conflicts.engine import conflict as engine
from conflicts.services import pid_of
from tests.conflicts.test_views import Table, arrange, cards, dealt, posse, quick_odds, table

pytestmark = pytest.mark.django_db
__all__ = ["posse", "quick_odds", "table"]


def own(html: str, pid: str) -> str:
    start = html.index(f'id="hand-{pid}"')
    return html[start : html.index("</section>", start)]


def turn(html: str) -> str:
    found = re.search(r'id="conflict-main"[^>]*data-my-turn="(\d)"', html)
    assert found is not None
    return found.group(1)


def test_it_puts_the_cards_and_the_draw_before_the_numbers_on_one_line(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    hand = own(table.page(player_a), pid_of(pc_a))
    assert hand.index("data-card=") < hand.index("data-numbers")
    assert hand.index("Discard and draw") < hand.index("data-numbers")
    assert '<dl class="numbers">' not in hand  # the stat block is one short line now
    assert re.search(r"Hand <strong>4</strong>.*Chips <strong>3</strong>", hand)


def test_it_sorts_the_hand_jokers_first_then_rank_and_suit(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    arrange(table.conflict, {pid_of(pc_a): cards("2♣ K♦ BJ 10♠ K♠ RJ 3♥ A♣")})
    hand = own(table.page(player_a), pid_of(pc_a))
    shown = re.findall(r'<label class="pcard[^"]*" data-card="([^"]+)"', hand)
    assert shown == ["RJ", "BJ", "A♣", "K♠", "K♦", "10♠", "3♥", "2♣"]


def test_it_marks_the_lays_cards_in_the_hand_R4(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    arrange(table.conflict, {pid_of(pc_a): cards("3♥ 3♣ 3♦ 7♦ 7♣ K♠ 2♣ 4♦")})
    table.ok(player_a, "draw", pid=pid_of(pc_a), stand="1")
    table.ok(dealer, "call", now="on")
    hand = own(table.page(player_a), pid_of(pc_a))
    assert hand.index("The Call: choose your lay") < hand.index("data-numbers")
    table.ok(player_a, "lay", pid=pid_of(pc_a), cards=["3♥", "3♣", "7♦", "7♣", "K♠"])
    hand = own(table.page(player_a), pid_of(pc_a))
    marked = set(re.findall(r'pcard--laid" data-card="([^"]+)"', hand))
    assert marked == {"3♥", "3♣", "7♦", "7♣", "K♠"}


def _revealed(table: Table, dealer: User, pc_a: Any, pc_b: Any, a: str, b: str, stud: str) -> None:
    dealt(table, dealer, pc_a, pc_b)
    hands = {pid_of(pc_a): cards(a), pid_of(pc_b): cards(b), "stud": cards(stud)}
    arrange(table.conflict, hands)
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")


def test_it_tells_the_loser_and_offers_the_bid_at_the_top_R9_R16(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    _revealed(
        table, dealer, pc_a, pc_b,
        "2♣ 3♠ 4♦ 6♥ 7♣ 8♦ 9♣ J♥", "A♠ 2♦ 3♣ 8♣ 10♦ Q♥", "K♥ K♦ K♠ Q♠ Q♦",
    )  # fmt: skip
    html = table.page(player_a)
    hand = own(html, pid_of(pc_a))
    owed = next(o for o in table.state().owed if o.pid == pid_of(pc_a))
    assert f"You lost: take {owed.points} Difficulty" in hand
    assert "Bess Doyle holds the narration &mdash; bid to take it?" in hand
    assert hand.index("You lost") < hand.index('name="amount"') < hand.index("data-numbers")
    assert hand.index("Take the Difficulty") < hand.index("data-numbers")
    assert turn(html) == "1"
    # Bess holds the narration: she is told so, and nobody bid yet.
    assert "You hold the narration" in own(table.page(player_b), pid_of(pc_b))


def test_it_tells_the_winner_R6(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any
) -> None:
    _revealed(
        table, dealer, pc_a, pc_b,
        "A♠ A♥ A♦ A♣ K♠ 2♦ 3♣ 4♦", "5♠ 2♥ 3♠ 8♠ 10♣ Q♣", "K♥ K♦ 9♠ Q♠ Q♦",
    )  # fmt: skip
    assert table.state().winner == pid_of(pc_a)
    hand = own(table.page(player_a), pid_of(pc_a))
    assert "<strong>You won</strong>" in hand


def test_it_marks_the_panel_when_it_is_the_players_turn(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    assert turn(table.page(player_a)) == "1"  # propose your Deal
    table.ok(player_a, "propose", pid=pid_of(pc_a), attributes=["hand", "eye"])
    assert turn(table.page(player_a)) == "0"  # waiting for the Dealer
    dealt(table, dealer, pc_a, pc_b)
    assert turn(table.page(player_a)) == "1"  # discard and draw
    table.ok(player_a, "draw", pid=pid_of(pc_a), stand="1")
    assert turn(table.page(player_a)) == "0"  # waiting for the Call
    assert turn(table.page(dealer)) == "0"  # waiting for Bess to draw
    table.ok(player_b, "draw", pid=pid_of(pc_b), stand="1")
    assert turn(table.page(dealer)) == "1"  # the Call
    assert table.state().phase == engine.Phase.DRAW


# --- Nobody stranded: "Deal again" takes everyone along (R20) ------------------------------


def _finished(table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any) -> None:
    dealt(table, dealer, pc_a, pc_b)
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    if not table.state().bids_closed:
        table.ok(dealer, "close-bids")
    for o in table.state().owed:
        p = table.state().participant(o.pid)
        who = player_a if o.pid == pid_of(pc_a) else None
        if o.pid == pid_of(pc_b):
            who = User.objects.get(username="player_b")
        table.ok(who or dealer, "allocate", pid=o.pid, **engine.default_allocation(o, p.currents))
    table.ok(dealer, "finish")


def test_it_takes_every_screen_of_the_finished_hand_to_the_next_R20(
    table: Table, dealer: User, player_a: User, pc_a: Any, pc_b: Any,
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    from conflicts.models import Conflict
    from dustdevils.live import broadcast

    _finished(table, dealer, player_a, pc_a, pc_b)
    html = table.page(player_a)
    assert "sse-connect=" in html  # a finished hand still listens, until it is dealt again
    assert "data-next-hand" not in html
    before = table.version
    published: list[tuple[str, int]] = []
    monkeypatch.setattr(broadcast, "publish", lambda t, v: published.append((t, v)))
    with django_capture_on_commit_callbacks(execute=True):
        table.as_user(dealer).post(f"{table.url}again/")
    fresh = Conflict.objects.get(previous=table.conflict)
    assert fresh.title == "The posse at the canyon — hand 2"
    assert table.version == before + 1  # every open screen of the old hand re-renders...
    assert (f"conflict-{table.conflict.pk}", before + 1) in published
    for user in (player_a, dealer):
        html = table.page(user)  # ...with the next hand's address, which the page follows
        assert f'data-next-hand="{fresh.get_absolute_url()}"' in html
        assert "The fight goes on &rarr; next hand" in html  # without JavaScript: the link
        assert "sse-connect=" not in html  # nothing more will happen here
    shared = table.page(player_a, f"{table.url}table/")
    assert f'data-next-hand="{fresh.get_absolute_url()}table/"' in shared
    assert "deals again" in html  # the old hand's timeline says where the fight went


def test_it_numbers_the_hands_of_one_fight() -> None:
    from conflicts.services.setup import next_hand_title

    assert next_hand_title("Showdown") == "Showdown — hand 2"
    assert next_hand_title("Showdown — hand 2") == "Showdown — hand 3"
    assert next_hand_title("Showdown — hand 9") == "Showdown — hand 10"


def test_it_makes_your_turn_noticeable_from_a_static_file_no_inline_script(
    table: Table, player_a: User
) -> None:
    html = table.page(player_a)
    assert "js/seat.js" in html
    assert "data-notify" in html  # the opt-in for notifications
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # CSP: no inline script
    from pathlib import Path

    from django.conf import settings

    js = (Path(settings.BASE_DIR) / "static/js/seat.js").read_text()
    for needed in ("navigator.vibrate", "Notification.requestPermission", "data-my-turn",
                   "document.title", "data-next-hand"):  # fmt: skip
        assert needed in js


# --- The Dealer's console agrees with itself ---------------------------------------------------


def top_action(html: str) -> str:
    """The first button (or button-styled link) of the console's actions, as a person reads it."""
    start = html.index('class="panel console-actions"')
    found = re.search(r'<(?:button|a) class="button[^"]*"[^>]*>([^<]+)<', html[start:])
    assert found is not None
    text = found.group(1).replace("&#x27;", "'").replace("&rsquo;", "'")
    return text.replace("&darr;", "").strip()


def next_banner(html: str) -> str:
    found = re.search(r'<strong class="next-step__text">([^<]+)</strong>', html)
    assert found is not None
    return found.group(1).replace("&#x27;", "'")


def test_the_consoles_top_button_is_the_action_next_names(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    html = table.page(dealer)
    assert next_banner(html) == "Set Abe Slade's Deal, or wait for the proposal"
    assert top_action(html) == "Set Abe Slade's Deal"
    dealt(table, dealer, pc_a, pc_b)
    table.ok(player_a, "name-knack", pid=pid_of(pc_a), knack=pc_a.knacks.get(name="Ridin'").pk)
    html = table.page(dealer)
    assert next_banner(html) == "Approve Abe Slade's knack"
    assert top_action(html) == "Approve Abe Slade's knack"
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    html = table.page(dealer)
    assert next_banner(html) == "Close the bids"
    assert top_action(html) == "Close the bids"  # not "Finish" while the bids are open
    assert html.count(">Close the bids</button>") == 1
