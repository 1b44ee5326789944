"""Cards announced in words (issue 36 #5): every card a screen shows as a face or a short code
carries its name for a screen reader ("ten of hearts", "red joker"), through one shared tag
library (tables/templatetags/table_tags.py), and the words never name a card the text did
not already show."""

from __future__ import annotations

import re

import pytest
from django.template import engines

from cards.deck import FULL_DECK, parse_card
from conflicts.selectors import card_view


def render(source: str, **context: object) -> str:
    return engines["django"].from_string("{% load table_tags %}" + source).render(context)


@pytest.mark.parametrize(
    ("text", "words"),
    [("10♥", "ten of hearts"), ("A♠", "ace of spades"), ("2♣", "two of clubs"),
     ("Q♦", "queen of diamonds"), ("RJ", "red joker"), ("BJ", "black joker")],
)  # fmt: skip
def test_a_card_is_named_in_words(text: str, words: str) -> None:
    card = parse_card(text)
    assert card.words == words
    assert card_view(card).name == words


def test_every_card_has_its_own_name() -> None:
    assert len({c.words for c in FULL_DECK}) == 54


@pytest.mark.parametrize("card", ["10♥", parse_card("10♥"), card_view(parse_card("10♥"))])
def test_the_card_tag_draws_any_card_with_its_name(card: object) -> None:
    html = render("{% card c %}", c=card)
    assert 'role="img" aria-label="ten of hearts"' in html
    assert 'data-card="10♥"' in html


def test_a_short_code_in_running_text_is_named() -> None:
    html = render("{% card_text c %}", c="RJ")
    assert html == (
        '<span class="ctext ctext--red" data-card="RJ" role="img" aria-label="red joker">RJ</span>'
    )


def test_a_timeline_line_names_the_cards_it_shows_and_nothing_else() -> None:
    html = render(
        "{{ line|card_words }}", line="Abe <b> discards 10♥ and A♠, keeps RJ; 10♥♥ x7♦ BJX"
    )
    named = re.findall(r'aria-label="([^"]+)"', html)
    assert named == ["ten of hearts", "ace of spades", "red joker"]
    assert "&lt;b&gt;" in html  # the line's own text stays escaped
    assert "10♥♥ x7♦ BJX" in html  # not cards: left as they are
