"""The chip ledger (R15): the player spends between conflicts, the Dealer grants.

Every action is a POST. A refusal (the form's or the rules') re-renders the chips section with
the message and changes nothing; success redirects (post/redirect/get), or, for htmx, swaps in
the fresh chips section.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import dealer_membership_for
from campaigns.models import Membership
from characters import services
from characters.forms import AttributeImproveForm, ChipGrantForm, KnackBuyForm, KnackImproveForm
from characters.models import Character
from characters.rules import ATTRIBUTE_LABELS
from characters.selectors import character_for, ledger, may_see_all, may_spend, purchases
from characters.services import AlreadyDone, CharacterError, chip_totals
from characters.views.shared import load, require
from dustdevils.idempotency import FreshKey, key_of
from dustdevils.paging import paged_into
from dustdevils.types import HtmxHttpRequest

LEDGER_PAGE = 50  # ledger rows a page (a ledger may hold thousands: issue 37)


@login_required
@require_GET
def page(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """The ledger; spending for the character's player, grants for the Dealer."""
    membership, character = load(request, slug, character_id)
    require(may_see_all(character, membership), "Only the Dealer sees an NPC's chips.")
    return _chips_page(request, membership, character)


@login_required
@require_POST
def attribute_improve(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """Twice the new rating, max 5; the current value rises with the rating (R29)."""
    membership, character = _spender(request, slug, character_id)
    form = AttributeImproveForm(request.POST)

    def spend() -> str:
        name = form.cleaned_data["attribute"]
        done = services.attribute_improve(
            character_id=character.pk, attribute=name, actor=membership.user,
            key=key_of(request.POST),
        )  # fmt: skip
        return f"{ATTRIBUTE_LABELS[name]} is now {done.rating(name)}."

    return _spend(request, membership, character, form, spend)


@login_required
@require_POST
def knack_improve(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """One more point for the new rating in chips, max 4."""
    membership, character = _spender(request, slug, character_id)
    form = KnackImproveForm(request.POST, character=character)

    def spend() -> str:
        knack = form.cleaned_data["knack"]
        done = services.knack_improve(
            knack_id=knack.pk, actor=membership.user, key=key_of(request.POST)
        )
        return f"{done.name} is now {done.rating}."

    return _spend(request, membership, character, form, spend)


@login_required
@require_POST
def knack_buy(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """A new knack at 1 for two chips, within max(Hand + Eye, 6) knacks."""
    membership, character = _spender(request, slug, character_id)
    form = KnackBuyForm(request.POST)

    def spend() -> str:
        name = form.cleaned_data["name"]
        done = services.knack_buy(
            character_id=character.pk, name=name, actor=membership.user,
            key=key_of(request.POST),
        )  # fmt: skip
        return f"{character.name} has a new knack: {done.name} 1."

    return _spend(request, membership, character, form, spend)


@login_required
@require_POST
def grant(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """The Dealer gives chips to any character, with a reason (starting chips, a reward)."""
    membership = dealer_membership_for(request.user, slug, "grant chips")
    character = character_for(membership, character_id)
    form = ChipGrantForm(request.POST)

    def give() -> str:
        entry = services.chips_grant(
            character_id=character.pk, actor=membership.user, key=key_of(request.POST),
            **form.cleaned_data,
        )  # fmt: skip
        return f"{character.name} gets {entry.amount} chip{'s' if entry.amount != 1 else ''}."

    return _spend(request, membership, character, form, give)


# --- Helpers -----------------------------------------------------------------------------------


def _spender(
    request: HtmxHttpRequest, slug: str, character_id: int
) -> tuple[Membership, Character]:
    """R15: a player spends their own character's chips; nobody else does."""
    membership, character = load(request, slug, character_id)
    if not character.is_pc:
        require(False, "Non-player characters don't spend chips; the Dealer edits their sheet.")
    require(may_spend(character, membership), f"Only {character.name}'s player spends their chips.")
    return membership, character


def _chips_page(
    request: HtmxHttpRequest,
    membership: Membership,
    character: Character,
    *,
    error: str = "",
    notice: str = "",
) -> HttpResponse:
    spending = may_spend(character, membership) and not character.out_of_play
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "totals": chip_totals(character),
        "ledger": ledger(character),
        "purchases": purchases(character) if spending else None,
        "grant_form": ChipGrantForm() if membership.is_dealer else None,
        "fresh_key": FreshKey(),
        "error": error,
        "notice": notice,
    }
    paged_into(context, request.GET, "ledger", per=LEDGER_PAGE)
    template = "characters/chips.html" + ("#chips_body" if request.htmx else "")
    return render(request, template, context)


def _spend(
    request: HtmxHttpRequest,
    membership: Membership,
    character: Character,
    form: forms.Form,
    action: Callable[[], str],
) -> HttpResponse:
    """Run one chip action. A refusal comes back as a message and changes nothing."""
    try:
        if not form.is_valid():
            raise CharacterError(str(next(iter(form.errors.values()))[0]))
        notice = action()
    except AlreadyDone as repeat:  # a double click: the first submit did it
        notice = str(repeat)
    except CharacterError as error:
        character.refresh_from_db()
        return _chips_page(request, membership, character, error=str(error))
    character.refresh_from_db()
    if request.htmx:
        return _chips_page(request, membership, character, notice=notice)
    messages.success(request, notice)
    return redirect("characters:chips", slug=membership.campaign.slug, character_id=character.pk)
