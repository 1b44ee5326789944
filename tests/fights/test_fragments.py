"""Pieces shared between fight screens (fights/templatetags/fight_tags.py, on
conflicts.fragments): a combatant's line on the Dealer's console, the public picture and the
timeline are each rendered once and reused only for the very same facts (R30), while every
form still gets the current version, its own fresh key and the viewer's CSRF token."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from dustdevils import memo
from fights.selectors import Line, PublicLine
from tests.conflicts.test_views import card_tokens
from tests.fights.conftest import FightTable
from tests.fights.test_views import deal

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates" / "fights"


@pytest.fixture(autouse=True)
def empty_memo() -> None:
    memo.clear_all()


def console_lines(html: str) -> dict[str, str]:
    """Each combatant's <li> on the Dealer's console, by its cid."""
    found = re.findall(r'(<li class="fight-line[^"]*" data-cid="([^"]+)">.*?</li>)', html, re.S)
    return {cid: li for li, cid in found}


def test_a_console_lines_forms_stay_current(
    table: FightTable, dealer: User, cids: dict[str, str]
) -> None:
    first = table.page(dealer)
    table.ok(dealer, "quickness", cid=cids["abe"], total=13)  # Abe's line changes, no other
    second = table.page(dealer)
    assert 'name="version" value="1"' in second
    assert 'name="version" value="0"' not in second
    before, after = console_lines(first), console_lines(second)
    assert "Quickness 13" in after[cids["abe"]]
    assert "Quickness 13" not in before[cids["abe"]]
    keys = re.findall(r'name="key" value="([^"]*)"', second)
    assert len(keys) == len(set(keys)) >= 8  # a fresh key for every form, reused pieces too
    old = set(re.findall(r'name="key" value="([^"]*)"', first))
    assert old.isdisjoint(keys)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', second)
    assert token is not None
    assert token.group(1) not in ("", "ddCSRFTOKENdd")


def test_only_the_line_that_is_up_shows_the_card_up_R30(
    table: FightTable, dealer: User, cids: dict[str, str]
) -> None:
    deal(table, dealer, cids)
    lines = console_lines(table.page(dealer))
    up = [cid for cid, li in lines.items() if "fight-line--up" in li]
    assert len(up) == 1
    assert "data-up" in lines[up[0]]
    assert all("data-up" not in li for cid, li in lines.items() if cid not in up)


def test_the_public_picture_is_one_piece_for_players_and_the_table(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    deal(table, dealer, cids)

    def public(html: str) -> str:
        start = html.index('<section class="panel fight-order"')
        return " ".join(html[start : html.index('<section class="panel timeline"', start)].split())

    for_a = public(table.page(player_a))
    for_b = public(table.page(player_b))
    on_table = public(table.page(dealer, f"{table.url}table/"))
    assert for_b == on_table
    assert card_tokens(for_a) == card_tokens(on_table)  # nobody's hand: only what was played
    # The one thing in it that is not for everyone: Abe's player alone reads Abe's Fate draw
    # (the red joker's, R25), so theirs is another piece (R30).
    assert "Abe Slade drew" in for_a
    assert "Abe Slade drew" not in on_table
    without_fate = for_a[: for_a.index('<section class="panel" aria-labelledby="h-fate"')]
    assert without_fate.strip() == for_b.strip()


def test_the_public_line_is_all_the_public_template_reads() -> None:
    """_public.html is rendered from PublicLine alone: every ``line.x`` it reads is a field of
    PublicLine, and each of those is a field of the viewer's Line under the same name."""
    read = set(re.findall(r"\bline\.(\w+)", (TEMPLATES / "_public.html").read_text()))
    public = {f.name for f in fields(PublicLine)}
    assert read <= public
    assert public <= {f.name for f in fields(Line)} | {"kind_label"}
    assert not public & {"hand", "sleeve", "fate", "dice", "mine"}  # no card, no secret


def test_a_secret_line_is_not_shared_with_those_who_may_not_read_it_R30(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str]
) -> None:
    """The deal writes each hand on the timeline as a secret line for its owner: the Dealer and
    Abe's player read "Dealt to Abe Slade", Bess's player and the table view do not — though
    their timelines are otherwise the same lines, shared."""
    deal(table, dealer, cids)

    def timeline(user: User, url: str | None = None) -> str:
        html = table.page(user, url)
        return html[html.index('id="h-fight-timeline"') :]

    for_dealer, for_a, for_b = timeline(dealer), timeline(player_a), timeline(player_b)
    on_table = timeline(dealer, f"{table.url}table/")
    assert "Dealt to Abe Slade" in for_dealer
    assert "Dealt to Abe Slade" in for_a
    assert "Dealt to Abe Slade" not in for_b
    assert "Dealt to Abe Slade" not in on_table
    assert "Dealt to Bess" in for_b
    assert "Dealt to Bess" not in for_a
    assert "and the Dealer" in for_a
    assert "and the Dealer" not in for_dealer
