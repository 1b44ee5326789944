"""What every character view does first: find the seat and the character, and say no plainly."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect

from campaigns.access import membership_for
from campaigns.models import Membership
from characters.models import Character
from characters.selectors import character_for
from dustdevils.types import HtmxHttpRequest


def load(request: HtmxHttpRequest, slug: str, character_id: int) -> tuple[Membership, Character]:
    """The viewer's seat and the character; 404 for non-members and other campaigns' ids."""
    membership = membership_for(request.user, slug)
    return membership, character_for(membership, character_id)


def require(allowed: bool, message: str) -> None:
    if not allowed:
        raise PermissionDenied(message)


def edit_refusal(character: Character) -> str:
    if character.is_pc:
        return f"Only {character.name}'s player or the Dealer can change this sheet."
    return "Only the Dealer can change a non-player character."


def read_only(request: HtmxHttpRequest, character: Character) -> HttpResponse:
    """R17: a character who left play keeps its sheet, unchanged."""
    messages.info(request, f"{character.name} has left play; the sheet is kept as it was.")
    return redirect(character)
