"""Small tags for every game's screens, in place of tiny included templates: a ruling's link,
cards as faces or as words in running text.

A table's screens are re-rendered for every viewer after every move (the live streams), so the
markup that repeats the most — the opening of each move form, each ruling link, each card — is
built here in one step instead of by an ``{% include %}`` and a ``{% url %}`` apiece (about
twice as fast for the Dealer's console). The HTML is what those templates made.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from cards.deck import Card, parse_card
from dustdevils.memo import bounded
from tables.cards import CardView, card_view

register = template.Library()


@bounded(1)
def _rulings_url() -> str:
    return reverse("conflicts:rulings")


@register.simple_tag
def ruling(r: str) -> SafeString:
    """A link to one ruling on the Rulings page, e.g. ``{% ruling "R11" %}``."""
    return format_html(
        # A new tab: a ruling looked up mid-conflict never takes the player away from the table.
        '<a class="ruling-link" href="{}#{}" target="_blank" rel="noopener" '
        'title="How the app reads this rule (opens in a new tab)">{}</a>',
        _rulings_url(),
        r,
        r,
    )


@register.simple_tag
def cards(row: Iterable[Any], small: bool = False, laid: Iterable[Any] = ()) -> SafeString:
    """A row of cards (``selectors.CardView``: only ever ones the viewer may see); the cards of
    ``laid`` (the hand's lay) are marked."""
    return format_html(
        '<span class="hand{}">{}</span>', " hand--small" if small else "", card_faces(row, laid)
    )


def shown(c: Any) -> CardView:
    """Any card a screen shows — a ``CardView`` (``tables.cards``), a ``Card``, another game's
    face-up card with a ``text``, or the text itself ("10♥", "RJ") — as a ``CardView``, its name
    in words."""
    if isinstance(c, CardView):
        return c
    return card_view(c if isinstance(c, Card) else parse_card(str(getattr(c, "text", c))))


def card_faces(row: Iterable[Any], laid: Iterable[Any] = ()) -> SafeString:
    """Each card drawn as a face (table.css's .pcard), announced by its name in words ("ten of
    hearts", "red joker"): the one way every game's screens show a card."""
    row = [shown(c) for c in row]
    marked = {shown(c).text for c in laid or ()}
    return format_html_join(
        "",
        '<span class="pcard{}{}{}" data-card="{}" role="img" aria-label="{}"><span '
        'class="pcard__rank" aria-hidden="true">{}</span><span class="pcard__suit" '
        'aria-hidden="true">{}</span></span>\n',
        (
            (
                " pcard--red" if c.red else "",
                "" if c.suit else " pcard--joker",
                " pcard--laid" if c.text in marked else "",
                c.text,
                f"{c.name}, in the lay" if c.text in marked else c.name,
                c.rank,
                c.suit or "joker",
            )
            for c in row
        ),
    )


@register.simple_tag
def card(c: Any) -> SafeString:
    """One card."""
    return card_faces([c])


@register.simple_tag
def card_text(c: Any) -> SafeString:
    """One card as its short code in running text ("10♥"), announced by its name in words."""
    v = shown(c)
    return format_html(
        '<span class="ctext{}" data-card="{}" role="img" aria-label="{}">{}</span>',
        " ctext--red" if v.red else "", v.text, v.name, v.text,
    )  # fmt: skip


_CODE = re.compile(r"(?<![\w♣♦♥♠])(?:(?:10|[2-9JQKA])[♣♦♥♠]|[RB]J)(?![\w♣♦♥♠])")


@register.filter(needs_autoescape=True)
def card_words(text: Any, autoescape: bool = True) -> SafeString:
    """Text (a timeline line) with each card's short code in it announced by its name in
    words: "Abe discards 10♥" reads "Abe discards ten of hearts". Only words already in the
    text are named, so nothing the viewer may not see comes through."""
    escaped = str(conditional_escape(text) if autoescape else text)
    return mark_safe(_CODE.sub(lambda m: str(card_text(m.group(0))), escaped))
