"""The fight screens (docs/architecture.md, "The shape of a table action").

One URL shows each viewer their own screen: the Dealer's console (every combatant's cards, the
deck, the Fate pot) or the player's phone (their own cards); the table view is the shared screen
(public facts only). Every move is a POST through ``fight_move``: without htmx,
post/redirect/get with the message; with htmx, the main panel comes back re-rendered with the
message, refusals included. Cards reach templates only through ``selectors.fight_view`` (R30).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import dealer_membership_for, membership_for
from campaigns.models import Membership
from characters.models import Character
from dustdevils.types import HtmxHttpRequest
from fights.forms import (
    ACTIONS,
    FightCreateForm,
    JoinForm,
    QuicknessDiceForm,
)
from fights.joining import conflict_to_fight
from fights.models import Fight
from fights.reads import load_fight
from fights.selectors import fight_view, join_context
from fights.services import FightError, fight_create, fight_move, fight_move_read
from tables.forms import problem_of
from tables.once import MadeAndGone, made_once
from tables.views import answer, version_answer


@login_required
@require_http_methods(["GET", "POST"])
def fight_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The Dealer starts a fight in a running session (R23, R26, R27)."""
    membership = dealer_membership_for(request.user, slug, "start a fight")
    conflict = conflict_to_fight(request.GET.get("conflict", ""), membership.campaign)
    initial = {"session": request.GET.get("session")} if request.GET.get("session") else None
    form = FightCreateForm(
        membership.campaign, request.POST or None, initial=initial, conflict=conflict
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            fight = made_once(
                user=membership.user, key=d["key"],
                make=lambda: fight_create(
                    campaign=membership.campaign, actor=membership.user, session=d["session"],
                    title=d["title"], characters=form.chosen(), extras=d["extras"],
                    surprised=form.surprised(), cap=d["cap"], fate_pot=d["fate_pot"],
                    from_conflict=conflict,
                ),
            )  # fmt: skip
        except (FightError, MadeAndGone) as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"“{fight.title}” is on: everyone rolls Quickness.")
            return redirect(fight)
    context = {"campaign": membership.campaign, "membership": membership, "form": form}
    context["conflict"] = conflict
    return render(request, "fights/new.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def fight_join(request: HtmxHttpRequest, slug: str, fight_id: int) -> HttpResponse:
    """The Dealer brings someone into the fight under way: a character, or a line of extras."""
    membership = dealer_membership_for(request.user, slug, "bring someone into the fight")
    fight = get_object_or_404(Fight, pk=fight_id, campaign=membership.campaign)
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            fight_move(
                fight_id=fight.pk, membership=membership, move=form.move,
                version=d["version"], key=d["key"],
            )  # fmt: skip
        except FightError as error:
            form.add_error(None, str(error))
        else:
            return _after(request, slug, fight.pk, membership, moved=True)
    return render(request, "fights/join.html", join_context(fight, membership, form))


@never_cache  # it may show a private hand: no cache, no back-forward copy (issue 19)
@login_required
@require_GET
def detail(request: HtmxHttpRequest, slug: str, fight_id: int) -> HttpResponse:
    """The Dealer's console or the player's phone, whichever this viewer is."""
    membership, fight = _load(request, slug, fight_id)
    return _screen(request, fight, membership)


@never_cache
@login_required
@require_GET
def table(request: HtmxHttpRequest, slug: str, fight_id: int) -> HttpResponse:
    """The shared screen: public facts only, whoever is looking (R30)."""
    membership, fight = _load(request, slug, fight_id)
    context = fight_view(fight, membership, as_table=True)
    template = "fights/table.html" + ("#main" if request.htmx else "")
    return render(request, template, context)


@login_required
@require_GET
def version(request: HtmxHttpRequest, slug: str, fight_id: int) -> HttpResponse:
    """The safety-net poll: 204 while the fight stands still, else its version. Never a card."""
    membership = membership_for(request.user, slug)
    current = (
        Fight.objects.filter(pk=fight_id, campaign=membership.campaign)
        .values_list("version", flat=True)
        .first()
    )
    return version_answer(request, current=current, event="fight-moved")


@never_cache
@login_required
@require_POST
def act(request: HtmxHttpRequest, slug: str, fight_id: int, action: str) -> HttpResponse:
    """One move (see the module docstring)."""
    form_class = ACTIONS.get(action)
    if form_class is None:
        raise Http404("No such move.")
    if form_class.dealer_only():
        membership = dealer_membership_for(request.user, slug, "run the fight")
    else:
        membership = membership_for(request.user, slug)
    form = form_class(request.POST)
    try:
        if not form.is_valid():
            raise FightError(problem_of(form))
        data = form.cleaned_data
        _, fight = fight_move_read(
            fight_id=fight_id, membership=membership, move=form.move, version=data["version"],
            key=data["key"], basis=data["basis"],
            scope="" if form.dealer_only() else data.get("cid", ""),
        )  # fmt: skip
    except Fight.DoesNotExist:
        raise Http404("No such fight in this campaign.") from None
    except FightError as error:
        return _after(request, slug, fight_id, membership, error=str(error))
    return _after(request, slug, fight_id, membership, moved=True, read=fight)


@login_required
@require_POST
def quickness_dice(request: HtmxHttpRequest, slug: str, character_id: int) -> HttpResponse:
    """R27 (house rule): the Dealer sets a character's Quickness dice, from its sheet."""
    membership = dealer_membership_for(request.user, slug, "set Quickness dice")
    character = get_object_or_404(Character, pk=character_id, campaign=membership.campaign)
    form = QuicknessDiceForm(request.POST)
    if form.is_valid():
        character.quickness_dice = form.cleaned_data["quickness_dice"]
        character.save(update_fields=["quickness_dice", "updated_at"])
        messages.success(request, f"{character.name}'s Quickness dice: {character.quickness}.")
    else:
        messages.error(request, problem_of(form))
    return redirect(character)


# --- Helpers -----------------------------------------------------------------------------------


def _load(request: HtmxHttpRequest, slug: str, fight_id: int) -> tuple[Membership, Fight]:
    membership = membership_for(request.user, slug)
    fight = load_fight(fight_id, membership.campaign)
    if fight is None:
        raise Http404("No such fight in this campaign.")
    return membership, fight


def _screen(
    request: HtmxHttpRequest,
    fight: Fight,
    membership: Membership,
    *,
    notice: str = "",
    error: str = "",
) -> HttpResponse:
    context = fight_view(fight, membership)
    context.update(notice=notice, error=error)
    return render(request, "fights/detail.html" + ("#main" if request.htmx else ""), context)


def _after(
    request: HtmxHttpRequest,
    slug: str,
    fight_id: int,
    membership: Membership,
    *,
    error: str = "",
    moved: bool = False,
    read: Fight | None = None,
) -> HttpResponse:
    """htmx: the main panel as it is now, with the message (``moved``: what the move did, in
    the timeline's words); otherwise post/redirect/get. ``read``: the fight as the move left
    it (``fight_move_read``: the move's own read, no second one)."""
    fight = read or load_fight(fight_id, membership.campaign)
    if fight is None:
        raise Http404("No such fight in this campaign.")
    notice = ""
    if moved:
        notice = " ".join(
            e.text for e in fight.events.all() if e.version == fight.version and not e.secret
        )
    return answer(
        request, notice=notice, error=error, url=fight.get_absolute_url(), panel="fight-main",
        screen=lambda notice, error: _screen(
            request, fight, membership, notice=notice, error=error
        ),
    )  # fmt: skip
