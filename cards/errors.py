"""The one error every game's engine raises for a move the rules do not allow."""

from __future__ import annotations


class IllegalMove(ValueError):
    """The rules do not allow that move now; the message says why in plain words."""
