"""What a refused write to a character raises: a ``ValueError`` with a plain-words message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from characters.rules import Problem

if TYPE_CHECKING:
    from characters.models import Character


class CharacterError(ValueError):
    """The rules refuse the change; ``problems`` lists each field's message, if several."""

    def __init__(self, message: str, problems: Sequence[Problem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


class NotEnoughChips(CharacterError):
    pass


class AlreadyDone(CharacterError):
    """The same form was sent again (its idempotency key is in the ledger): nothing more to do.
    Not a refusal: the first submit did what was asked."""


def refuse_if_out(character: Character) -> None:
    """A sheet that has left play (R17) is kept as it was: no change reaches it."""
    if character.out_of_play:
        raise CharacterError(f"{character.name} has left play; the sheet is kept as it was.")
