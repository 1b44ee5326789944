"""The one error family of every table's moves: plain words for the table, nothing changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.utils.translation import gettext_lazy as _

T = TypeVar("T")


class Refused(ValueError):
    """A move the table refuses, in plain words; nothing was changed."""


class StaleMove(Refused):
    """What the move was based on (its own hand or seat, the phase; the whole table for a
    table-wide move) changed since its page was loaded."""


class NotYours(Refused):
    """A move that is not the mover's to make: another's hand, the Dealer's, or a game they do
    not sit at."""


STALE = _("The table has moved on since that page was loaded; here it is now.")


class Unreadable(Exception):
    """A table's stored state its engine cannot read (a corrupted row, a file's value the engine
    refuses): its pages answer 409 with a page in plain words (``tables.middleware``), never a
    server error, and its moves change nothing."""


UNREADABLE = _(
    "This table's saved state cannot be read, so it cannot be shown or played on. Nothing was "
    "changed. The Dealer can restore the campaign from an earlier file."
)


def readable(load: Callable[[Any], T], data: Any) -> T:
    """``load(data)``, a game's state loader; ``Unreadable`` whatever it trips on."""
    try:
        return load(data)
    except Exception as error:
        raise Unreadable(f"{type(error).__name__}: {error}"[:300]) from error
