"""The character list, the sheet, making and editing sheets (R28, R29) and leaving play (R17)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import dealer_membership_for, membership_for
from campaigns.models import Membership
from characters import services
from characters.forms import LeavePlayForm, SheetForm, sheet_initial
from characters.history import character_history
from characters.models import Character
from characters.rules import Problem
from characters.selectors import (
    bought_points,
    character_for,
    characters_of,
    latest_devil_rating,
    may_edit,
    may_end,
    may_see_all,
    may_spend,
    seated_players,
    wanted_links,
)
from characters.services import CharacterError, chip_totals
from characters.views.shared import edit_refusal, load, read_only, require
from dustdevils.idempotency import key_of
from dustdevils.paging import paged_into
from dustdevils.types import HtmxHttpRequest
from tables.once import MadeAndGone, made_once

T = TypeVar("T")
GET_POST = require_http_methods(["GET", "POST"])


@login_required
@require_GET
def character_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request.user, slug)
    context: dict[str, Any] = {"campaign": membership.campaign, "membership": membership}
    context |= characters_of(membership)
    paged_into(context, request.GET, "pcs", "npcs")  # a page at a time: issue 37
    return render(request, "characters/list.html", context)


@login_required
@require_GET
def sheet(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """The character sheet, laid out like the seed's. NPCs: players see the outside only."""
    membership, character = load(request, slug, character_id)
    return render(request, "characters/sheet.html", _sheet_context(membership, character))


@login_required
@GET_POST
def character_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A player makes their own character; the Dealer makes one for a seated player."""
    membership = membership_for(request.user, slug)
    players = seated_players(membership.campaign) if membership.is_dealer else None
    form = SheetForm(request.POST or None, is_pc=True, players=players)
    if form.is_bound and form.is_valid():
        player = form.cleaned_data.get("player") or membership.user
        character = _saved(form, lambda: made_once(  # once per form: its key
            user=membership.user, key=key_of(request.POST),
            make=lambda: _create(membership, form, Character.Kind.PC, player),
        ))  # fmt: skip
        if character is not None:
            _hint(request, form)
            # Waiting for the approval is said in the sheet's live standing, which the approval
            # clears at once: a flash saying so would stay above a sheet turned Active (issue 36).
            return _to_sheet(
                request, character, "is ready" if not character.approved else "is at the table"
            )
    return _form_page(request, membership, form)


@login_required
@GET_POST
def npc_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The Dealer's non-player characters: free ratings; a Devil makes one important."""
    membership = dealer_membership_for(request.user, slug, "make non-player characters")
    form = SheetForm(request.POST or None, is_pc=False)
    if form.is_bound and form.is_valid():
        character = _saved(form, lambda: made_once(  # once per form: its key
            user=membership.user, key=key_of(request.POST),
            make=lambda: _create(membership, form, Character.Kind.NPC, None),
        ))  # fmt: skip
        if character is not None:
            _hint(request, form)
            return _to_sheet(request, character, "is in the story")
    return _form_page(request, membership, form)


@login_required
@GET_POST
def character_edit(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    membership, character = load(request, slug, character_id)
    require(may_edit(character, membership), edit_refusal(character))
    if character.out_of_play:
        return read_only(request, character)
    form = _sheet_form(request, character, membership)
    if form.is_bound and form.is_valid():
        saved = _saved(
            form,
            lambda: services.character_update(
                character_id=character.pk,
                data=form.sheet_data(),
                knacks=form.knacks(),
                currents=form.currents(),
                by_dealer=membership.is_dealer,
            ),
        )
        if saved is not None:
            _hint(request, form)
            return _to_sheet(request, saved, "is saved")
    return _form_page(request, membership, form, character)


@login_required
@require_POST
def sheet_check(
    request: HtmxHttpRequest, slug: str, character_id: int | None = None
) -> HttpResponse:
    """Live feedback while typing (R28): the tally and what is wrong. Saves nothing."""
    membership = membership_for(request.user, slug)
    if character_id is None:
        is_npc = membership.is_dealer and request.POST.get("kind") == Character.Kind.NPC
        form = SheetForm(request.POST, is_pc=not is_npc)
    else:
        character = character_for(membership, character_id)
        require(may_edit(character, membership), edit_refusal(character))
        form = _sheet_form(request, character, membership)
    context = {"summary": form.summary(), "is_pc": form.is_pc}
    return render(request, "characters/sheet_form.html#summary", context)


@login_required
@require_POST
def approve(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """The Dealer approves a player's new character (from the campaign page): it can now be
    seated in a conflict, and its ratings are set."""
    membership = dealer_membership_for(request.user, slug, "approve characters")
    character = character_for(membership, character_id)
    try:
        services.character_approve(character_id=character.pk, actor=membership.user)
    except CharacterError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{character.name} is approved and may be seated.")
    return redirect(membership.campaign.get_absolute_url() + "#pcs")


@login_required
@GET_POST
def leave_play(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """R17: on the Road to Hell the player writes the end; the sheet is kept, read-only."""
    membership, character = load(request, slug, character_id)
    require(may_end(character, membership), edit_refusal(character))
    if character.out_of_play and not character.awaiting_epitaph:
        return read_only(request, character)
    form = LeavePlayForm(request.POST or None)
    if form.is_bound and form.is_valid():
        ended = _saved(
            form,
            lambda: services.character_leave_play(
                character_id=character.pk, actor=membership.user, **form.cleaned_data
            ),
        )
        if ended is not None:
            return _to_sheet(request, ended, "has left play. The sheet is kept")
    context = {"campaign": membership.campaign, "character": character, "form": form}
    return render(request, "characters/leave_play.html", context)


# --- Helpers -----------------------------------------------------------------------------------


def _create(membership: Membership, form: SheetForm, kind: str, player: User | None) -> Character:
    """A player's own new character waits for the Dealer's approval; the Dealer's do not."""
    return services.character_create(
        campaign=membership.campaign,
        kind=kind,
        player=player,
        data=form.sheet_data(),
        knacks=form.knacks(),
        approved=membership.is_dealer,
    )


def _hint(request: HtmxHttpRequest, form: SheetForm) -> None:
    """The sheet's gentle hints (a trait as a lone adjective), after a save they did not stop."""
    for hint in form.summary().hints:
        messages.info(request, hint)


def _saved(form: forms.Form, save: Callable[[], T]) -> T | None:
    """Run a service; its refusal goes onto the form, field by field, and nothing is saved."""
    try:
        return save()
    except MadeAndGone as error:  # the form was sent before, and what it made is gone since
        form.add_error(None, str(error))
        return None
    except CharacterError as error:
        for problem in error.problems or (Problem("", str(error)),):
            if isinstance(form, SheetForm):
                form.add_problem(problem)
            else:
                field = problem.field if problem.field in form.fields else None
                form.add_error(field, problem.message)
        return None


def _sheet_form(
    request: HtmxHttpRequest, character: Character, membership: Membership
) -> SheetForm:
    """The editing form. A player's approved character keeps its ratings (``locked``)."""
    is_pc = character.is_pc
    return SheetForm(
        request.POST or None,
        initial=sheet_initial(character),
        is_pc=is_pc,
        with_currents=not is_pc,
        bought=bought_points(character.pk) if is_pc else (0, 0),
        locked=is_pc and character.approved and not membership.is_dealer,
    )


def _form_page(
    request: HtmxHttpRequest,
    membership: Membership,
    form: SheetForm,
    character: Character | None = None,
) -> HttpResponse:
    slug = membership.campaign.slug
    if character is None:
        check_url = reverse("characters:check", kwargs={"slug": slug})
    else:
        check_url = reverse("characters:check_existing", args=[slug, character.pk])
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "form": form,
        "character": character,
        "summary": form.summary(),
        "check_url": check_url,
        "attribute_rows": form.attribute_rows(character),
    }
    return render(request, "characters/sheet_form.html", context)


def _to_sheet(request: HtmxHttpRequest, character: Character, what: str) -> HttpResponse:
    messages.success(request, f"{character.name} {what}.")
    return redirect(character)


def _sheet_context(membership: Membership, character: Character) -> dict[str, Any]:
    full = may_see_all(character, membership)
    active = not character.out_of_play
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "full": full,
        "totals": chip_totals(character) if full else None,
        "history": character_history(character) if full else None,
        "devil_now": latest_devil_rating(character) if full else None,
        "knacks": list(character.knacks.all()) if full else [],
        "wanted": wanted_links(character) if membership.is_dealer else [],
        "can_edit": active and may_edit(character, membership),
        "can_spend": active and may_spend(character, membership),
        "can_end": (character.status == "road" or character.awaiting_epitaph)
        and may_end(character, membership),
    }
