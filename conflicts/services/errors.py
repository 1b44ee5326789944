"""What a refused conflict set-up or move raises: the table kit's one error family
(``tables.errors``), under the names the conflict's code reads best with."""

from __future__ import annotations

from tables.errors import Refused, StaleMove

__all__ = ["ConflictError", "StaleMove"]

ConflictError = Refused  # a move the table refuses, in plain words; nothing was changed
