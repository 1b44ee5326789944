"""What a refused conflict set-up or move raises: plain words for the table, nothing changed."""

from __future__ import annotations


class ConflictError(ValueError):
    """A move the table refuses, in plain words; nothing was changed."""


class StaleMove(ConflictError):
    """The form was made for an older version of the table."""
