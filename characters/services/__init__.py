"""Writes to characters, by concern:

- ``sheets``: making, editing and approving a character, and leaving play (R17);
- ``chips``: the chip ledger (R15), the one way a character's chips change;
- ``spending``: spending chips between conflicts (R15);
- ``errors``: what a refusal raises.

Every function is keyword-only, runs in one transaction and raises a ``CharacterError`` (a
``ValueError`` with a plain-words message) when the rules say no; nothing is half-written.
Permission checks belong to the caller (the views use ``campaigns.access``).
"""

from characters.services.chips import chip_totals, chips_change, chips_grant, claim_key
from characters.services.errors import AlreadyDone, CharacterError, NotEnoughChips
from characters.services.sheets import (
    character_approve,
    character_create,
    character_leave_play,
    character_update,
    characters_leave_play_now,
)
from characters.services.spending import attribute_improve, knack_buy, knack_improve

__all__ = [
    "AlreadyDone",
    "CharacterError",
    "NotEnoughChips",
    "attribute_improve",
    "character_approve",
    "character_create",
    "character_leave_play",
    "character_update",
    "characters_leave_play_now",
    "chip_totals",
    "chips_change",
    "chips_grant",
    "claim_key",
    "knack_buy",
    "knack_improve",
]
