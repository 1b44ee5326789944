"""Shared pieces of the conflict screens (conflicts.fragments): rendered once from their own
small context, remembered by all of it, never by anything less (R10)."""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from conflicts import fragments
from conflicts.reads import TimelineEntry
from conflicts.selectors import CardView, HandRow
from dustdevils import memo
from tests.conflicts.test_views import card_tokens


@pytest.fixture(autouse=True)
def empty_memo() -> None:
    memo.clear_all()


own_hand_html = fragments.own_hand_html


def test_it_renders_a_piece_once_and_reuses_it_for_the_same_facts() -> None:
    when = datetime(1872, 6, 1, 14, 5, tzinfo=UTC)
    events = [TimelineEntry(1, 1, "Jim proposes Hand + Eye.", when, "Jim")]
    first = fragments.timeline_html(events)
    again = fragments.timeline_html(list(events))
    assert again is first  # remembered
    assert '<time class="timeline__time" datetime="1872-06-01T14:05:00+00:00">14:05</time>' in first
    assert "Jim proposes Hand + Eye. &mdash;" not in first  # the text, then who, apart
    assert '<span class="timeline__who">&mdash; Jim</span>' in first
    events.append(TimelineEntry(2, 2, "The <Dealer> deals.", when, ""))
    other = fragments.timeline_html(events)
    assert other is not first
    assert "The &lt;Dealer&gt; deals." in other


def test_it_renders_from_its_own_context_only() -> None:
    """Nothing from a screen's context can reach a shared piece: it gets no request, no user,
    no parent context — only what its key is made of."""
    empty = fragments.timeline_html([])
    assert "Nothing yet." in empty


def row(pid: str, *, cards: list[CardView], lay: list[CardView], mine: bool) -> HandRow:
    return HandRow(
        pid=pid, name=pid.title(), kind="pc", kind_label="Player character", side="players",
        side_label="The posse", goal="", player="", character_id=None, count=len(cards),
        deal_count=5, deal_lines="", proposal="", approved="", approve_initial={},
        devil_rating=0, folded=False, drew=False, lay_chosen=bool(lay), last_stand=False,
        awards=0, extra_card=False, extra_draw=False, mine=mine, cards=cards, discarded=[],
        lay=lay, lay_text="", winner=False, narrator=False,
    )  # fmt: skip


def test_it_keys_the_roster_by_what_it_shows_so_private_cards_never_matter_R10() -> None:
    """Two players' screens hold different private cards (their own); the roster shows counts
    only before the reveal, so both get the very same roster, and it names no card."""
    ace = CardView("A♠", "A", "♠", False, "ace of spades")
    king = CardView("K♥", "K", "♥", True, "king of hearts")
    jim_sees = [
        ("The posse", [row("jim", cards=[ace], lay=[], mine=True),
                       row("zeke", cards=[], lay=[], mine=False)])
    ]  # fmt: skip
    zeke_sees = [
        ("The posse", [row("jim", cards=[], lay=[], mine=False),
                       row("zeke", cards=[king], lay=[], mine=True)])
    ]  # fmt: skip
    jim_sees[0][1][1].count = 1  # the roster shows how many cards each hand holds, not which
    zeke_sees[0][1][0].count = 1
    for_jim = fragments.roster_html(jim_sees, "draw", False)
    for_zeke = fragments.roster_html(zeke_sees, "draw", False)
    assert for_jim is for_zeke
    assert card_tokens(for_jim) == set()
    assert "1 card" in for_jim


def test_it_shows_the_lays_once_revealed_and_keys_by_them() -> None:
    ace = CardView("A♠", "A", "♠", False, "ace of spades")
    rows = [("The posse", [row("jim", cards=[ace], lay=[ace], mine=False)])]
    shown = fragments.roster_html(rows, "resolution", True)
    assert 'data-card="A♠"' in shown
    hidden = fragments.roster_html(rows, "laying", False)
    assert 'data-card="A♠"' not in hidden


def test_the_roster_line_is_a_projection_of_the_hand_row() -> None:
    """Every field the roster reads exists on the row under the same name."""
    names = {f.name for f in fields(HandRow)}
    assert {f.name for f in fields(fragments.RosterLine)} <= names


def table_context(**extra: Any) -> dict[str, Any]:
    return {
        "campaign": SimpleNamespace(slug="dry-gulch"),
        "conflict": SimpleNamespace(pk=7),
        "state_phase": "sizing",
        "revealed": False,
        "version": 12,
        "csrf_token": "the-csrf-token",
        "move_base": "/c/dry-gulch/conflicts/7/move/ACTION/",
        "scope_field": "pid",
        "bases": {"jim": "jims-basis"},
        **extra,
    }


class Sheet:
    """A character as the row holds it: its repr names it and says nothing of its traits."""

    def __init__(self, traits: list[str]) -> None:
        self.traits = traits

    def __repr__(self) -> str:
        return "<Character: Jim>"


def sizing_row(pid: str, traits: list[str]) -> HandRow:
    hand = row(pid, cards=[], lay=[], mine=True)
    hand.character = Sheet(traits)  # type: ignore[assignment]
    return hand


def test_a_hand_fills_in_the_version_a_fresh_key_per_form_and_the_csrf_token() -> None:
    html = own_hand_html(sizing_row("jim", ["Quick"]), table_context())
    keys = re.findall(r'name="key" value="([^"]*)"', html)
    assert len(keys) >= 2  # Propose, Extra card, Fold…
    assert len(set(keys)) == len(keys)  # each form its own
    assert all(re.fullmatch(r"[0-9a-f]{24}", k) for k in keys)
    assert 'name="version" value="12"' in html
    assert 'name="csrfmiddlewaretoken" value="the-csrf-token"' in html
    assert "/c/dry-gulch/conflicts/7/move/propose/" in html
    again = own_hand_html(sizing_row("jim", ["Quick"]), table_context(version=13))
    assert 'name="version" value="13"' in again  # rendered again with the new version
    assert set(re.findall(r'name="key" value="([^"]*)"', again)).isdisjoint(keys)
    assert 'name="basis" value="jims-basis"' in html  # what each of Jim's moves is based on


def test_words_that_look_like_the_old_stand_ins_stay_words_issue_26() -> None:
    """Issue 26: a goal typed as "Grab ddVERSIONdd and ddCSRFTOKENdd" showed the version and
    the viewer's CSRF token; what differs per render now goes in as context, never by
    replacing text in rendered HTML."""
    hand = sizing_row("jim", ["Quick"])
    hand.goal = "Grab ddVERSIONdd and ddCSRFTOKENdd and ddFRESHKEYdd"
    html = own_hand_html(hand, table_context())
    assert "Grab ddVERSIONdd and ddCSRFTOKENdd and ddFRESHKEYdd" in html
    assert html.count("the-csrf-token") == html.count("csrfmiddlewaretoken")


def test_a_hand_shows_what_changed() -> None:
    first = own_hand_html(sizing_row("jim", ["Quick"]), table_context())
    assert "Quick" in first
    assert "Stubborn" in own_hand_html(sizing_row("jim", ["Stubborn"]), table_context())
    proposed = sizing_row("jim", ["Quick"])
    proposed.proposal = "Hand + Eye"
    assert "You proposed Hand + Eye" in own_hand_html(proposed, table_context())
    drawn = own_hand_html(sizing_row("jim", ["Quick"]), table_context(state_phase="draw"))
    assert "Your Deal" not in drawn  # the sizing step is gone in the Draw


def test_it_never_gives_one_players_hand_to_another_R10() -> None:
    ace = CardView("A♠", "A", "♠", False, "ace of spades")
    jim = row("jim", cards=[ace], lay=[], mine=True)
    zeke = row("zeke", cards=[], lay=[], mine=True)
    for hand in (jim, zeke):
        hand.character = Sheet([])  # type: ignore[assignment]
    context = table_context(state_phase="draw")
    assert "A♠" in own_hand_html(jim, context)
    assert card_tokens(own_hand_html(zeke, context)) == set()


def test_a_hands_odds_are_asked_of_the_shared_cache_once_per_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A live screen is rendered in the event loop at every move: the odds meter of a hand
    already seen comes from the process's own memory, not from Redis again (a network wait,
    or an outage's timeout, for every screen); another hand, or the same hand with other
    cards, is never given those odds (R10)."""
    from conflicts.selectors import advice

    asked: list[str] = []
    real_get = advice.cache.get
    monkeypatch.setattr(advice, "ODDS_DEALS", 200)
    monkeypatch.setattr(advice.cache, "get", lambda key, *a: asked.append(key) or real_get(key))

    first = advice.hand_odds(7, *seat("c1", "AS AH KD 2C 3D"), None)
    again = advice.hand_odds(7, *seat("c1", "AS AH KD 2C 3D"), None)
    assert again == first
    assert len(asked) == 1
    advice.hand_odds(7, *seat("c2", "AS AH KD 2C 3D"), None)  # another hand: its own odds
    advice.hand_odds(7, *seat("c1", "2S 7H 9D JC 4D"), None)  # new cards: worked out anew
    assert len(set(asked)) == len(asked) == 3


def seat(pid: str, cards: str) -> tuple[Any, Any]:
    """A player's hand against a 5-card stud, and the table as that player may see it."""
    from cards.deck import parse_cards
    from conflicts.engine import conflict as engine
    from conflicts.selectors import advice

    mine = engine.Participant(
        pid=pid, name=pid, kind=engine.Kind.PC, hand=tuple(parse_cards(cards))
    )
    stud = engine.Participant(
        pid="stud", name="The Dealer's stud", kind=engine.Kind.STUD, stud_size=5,
        hand=tuple(parse_cards("QC QD 8S 8H 6C")),
    )  # fmt: skip
    state = engine.ConflictState(phase=engine.Phase.DRAW, participants=(mine, stud))
    return mine, advice.table_view(state, engine.visible_cards(state, {pid}, dealer=False))


def test_the_odds_cache_key_is_an_hmac_under_the_secret_key_not_a_hash_of_the_hand() -> None:
    """Issue 19 #4: whoever can list a shared cache's keys must not be able to test guesses of
    a hand against them; the key is an HMAC under SECRET_KEY."""
    import hashlib

    from django.test import override_settings

    from cards.deck import format_cards
    from conflicts.selectors import advice as selectors

    hand, view = seat("c1", "AS AH KD 2C 3D")
    table = selectors.odds_table(view, "c1")
    key = selectors._table_key(7, "c1", table)
    for texts in (format_cards(hand.hand), f"{format_cards(hand.hand)}|"):
        assert hashlib.sha256(texts.encode()).hexdigest()[:20] not in key
    assert key == selectors._table_key(7, "c1", table)  # stable: the cache still works
    with override_settings(SECRET_KEY="another-deployment-" * 4):
        assert selectors._table_key(7, "c1", table) != key


def test_the_hand_pieces_read_nothing_of_the_character_but_its_traits() -> None:
    """``HandPiece`` keeps only the traits of the character: a piece that read anything else of
    it could be shown again after that changed."""
    from pathlib import Path

    for name, var in (("_own_hand.html", "hand"), ("_seat.html", "h")):
        text = (Path(__file__).parents[2] / "templates" / "conflicts" / name).read_text()
        read = set(re.findall(rf"\b{var}\.character\.(\w+)", text))
        assert read <= {"traits"}, (name, read)
