"""Idempotency keys for forms: a double click or a resent form is done once.

Each form prints a fresh key in a hidden ``key`` field; the service that carries the form out
stores the key beside its write, under a lock, and recognises a key it has seen (the chip
ledger: ``characters.services.claim_key``; a conflict's moves: ``conflicts.models.MoveKey``).
"""

from __future__ import annotations

import secrets

KEY_FIELD = "key"


class FreshKey:
    """Renders as a new key each time a template prints it: one key per form, so a double click
    repeats its own form's key and never another's."""

    def __str__(self) -> str:
        return secrets.token_hex(12)


def key_of(data: object) -> str:
    """The key a form sent (at most 64 characters), or "" when it sent none."""
    get = getattr(data, "get", None)
    value = get(KEY_FIELD, "") if get is not None else ""
    return str(value)[:64]
