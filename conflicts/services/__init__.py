"""Writes to conflicts, by concern:

- ``setup``: setting a conflict up and dealing again;
- ``moves``: ``conflict_move``, the one way a table move reaches a conflict;
- ``results``: what a finished conflict does to the characters;
- ``errors``: what a refusal raises.
"""

from conflicts.services.errors import ConflictError, StaleMove
from conflicts.services.moves import (
    DEALER_MOVES,
    conflict_move,
    conflict_move_read,
    conflict_narrate,
    controlled_pids,
    controlled_pids_among,
)
from conflicts.services.setup import (
    HandSpec,
    conflict_create,
    conflict_create_once,
    conflict_deal_again,
    pid_of,
)

__all__ = [
    "DEALER_MOVES",
    "ConflictError",
    "HandSpec",
    "StaleMove",
    "conflict_create",
    "conflict_create_once",
    "conflict_deal_again",
    "conflict_move",
    "conflict_move_read",
    "conflict_narrate",
    "controlled_pids",
    "controlled_pids_among",
    "pid_of",
]
