"""The one error family of every table's moves: plain words for the table, nothing changed."""

from __future__ import annotations


class Refused(ValueError):
    """A move the table refuses, in plain words; nothing was changed."""


class StaleMove(Refused):
    """What the move was based on (its own hand or seat, the phase; the whole table for a
    table-wide move) changed since its page was loaded."""


class NotYours(Refused):
    """A move that is not the mover's to make: another's hand, the Dealer's, or a game they do
    not sit at."""


STALE = "The table has moved on since that page was loaded; here it is now."
