"""Reads for the conflict screens, by what a reader looks for:

- ``view``: ``conflict_view``, the ONE place a template gets cards from (R10), and the lists;
- ``hands``: one hand's row as this viewer may see it (the cards filtered by the ``show`` it
  is given);
- ``rows``: what its context holds (plain rows, cards only as ``CardView``) and the labels;
- ``advice``: the odds meter and the discard advisor, against every other hand in play, from
  what the viewer may see alone (the ``TableView`` ``conflict_view`` builds from R10's set);
- ``steps``: what comes next, in plain words (the Dealer's NEXT banner, a player's line);
- ``replay``: a finished conflict step by step, its cards through the same ``visible_cards``.

The table itself is read by ``conflicts.reads.table_read``.
"""

from conflicts.selectors.rows import HandRow
from conflicts.selectors.view import conflict_view, conflicts_of, events_at
from tables.cards import CardView, card_view

__all__ = ["CardView", "HandRow", "card_view", "conflict_view", "conflicts_of", "events_at"]
