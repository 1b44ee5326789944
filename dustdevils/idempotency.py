"""Idempotency keys for forms: a double click or a resent form is done once.

Each form prints a fresh key in a hidden ``key`` field; the service that carries the form out
stores the key beside its write, under a lock, and recognises a key it has seen (the chip
ledger: ``characters.services.claim_key``; a table's moves: ``first_submit`` with the table's
``MoveKeyBase``).
"""

from __future__ import annotations

import secrets

from django import forms
from django.db import models

KEY_FIELD = "key"


class FreshKey:
    """Renders as a new key each time a template prints it: one key per form, so a double click
    repeats its own form's key and never another's."""

    def __str__(self) -> str:
        return secrets.token_hex(12)


def key_field() -> forms.CharField:
    """A form's ``key`` field: hidden, optional (a form sent without one is done each time),
    at most 64 characters and no NUL character (a ``CharField``'s own check). An unbound form
    prints a fresh key each time it is rendered (a callable ``initial``)."""
    return forms.CharField(
        max_length=64, required=False, widget=forms.HiddenInput, initial=lambda: str(FreshKey())
    )


def key_of(data: object) -> str:
    """The key a form sent (at most 64 characters), or "" when it sent none — or one no key
    can be (a NUL character, which PostgreSQL's text refuses: the form is then done as if it
    had no key, never answered with a server error)."""
    get = getattr(data, "get", None)
    value = str(get(KEY_FIELD, "") if get is not None else "")[:64]
    return "" if "\x00" in value else value


class MoveKeyBase(models.Model):
    """A table's stored idempotency key (``conflicts.MoveKey``, ``FightMoveKey``,
    ``SaloonMoveKey``): each names its table with a foreign key and keeps a key once per table
    (a named ``UniqueConstraint``)."""

    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.key


def first_submit(
    keys: type[MoveKeyBase], key: str, *, known_new: bool = False, **table: models.Model
) -> bool:
    """Store ``key`` for ``table`` (e.g. ``conflict=conflict``); False when it is there already:
    a double click whose first submit committed. Call it under the table's row lock (no other
    move of that table claims a key in between; the unique constraint stands guard all the
    same), inside the move's transaction: a move that is then refused rolls the key back with
    everything else, so the same form can be sent again. ``known_new``: the caller knows the
    key cannot have been stored (``tables.moves``: a move on the current version), so it is
    only stored, not looked up first."""
    key = key[:64]
    if not known_new and keys._default_manager.filter(key=key, **table).exists():
        return False
    keys._default_manager.create(key=key, **table)
    return True
