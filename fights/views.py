"""The fight's own pages beside the site's (``tables.site``; ``fights.game`` declares them):
what a fight does its own way. The site serves the rest — the Dealer's console or a player's
phone (``detail``: ``fights.selectors.fight_view`` per viewer, R30), the shared screen, the
safety-net poll and the live streams.

* ``fight_list``: the campaign's fights (a fight's seats are its combatants, not users);
* ``fight_new``: the Dealer starts a fight in a running session (R23, R26, R27), maybe from a
  conflict that turns into a gunfight (``?conflict=<id>``, R32's mirror);
* ``act``: one move, by the Dealer (every combatant, and the table-wide moves) or by a player
  for their own player character (the combatant is posted: ``cid``);
* ``fight_join`` and ``quickness_dice``: the Dealer brings someone in; R27's house rule.
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
from fights.forms import ACTIONS, FightCreateForm, JoinForm, QuicknessDiceForm
from fights.joining import conflict_to_fight
from fights.models import Fight
from fights.reads import KIND, load_fight
from fights.selectors import join_context
from fights.services import FightError, fight_create, fight_move, fight_move_read
from tables.clock import now_ms
from tables.forms import problem_of
from tables.game import Game
from tables.once import MadeAndGone, made_once
from tables.pages import page, screen
from tables.views import answer


@page(login_required, require_GET)
def fight_list(game: Game, request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The campaign's fights, newest first (each on its session's page too)."""
    membership = membership_for(request.user, slug)
    fights = Fight.objects.filter(campaign=membership.campaign).select_related("session")
    context = {"campaign": membership.campaign, "membership": membership, "fights": fights}
    return render(request, "fights/list.html", context)


@page(login_required, require_http_methods(["GET", "POST"]))
def fight_new(game: Game, request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The Dealer starts a fight in a running session (R23, R26, R27). Once per form."""
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
                user=membership.user, key=d["key"], form=f"new:{game.kind}",
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


@page(never_cache, login_required, require_POST)
def act(
    game: Game, request: HtmxHttpRequest, slug: str, table_id: int, action: str
) -> HttpResponse:
    """One move: the Dealer's (``host_only``) or a combatant's, whoever plays it (the
    service judges: a player only their own player character's)."""
    form_class = ACTIONS.get(action)
    if form_class is None:
        raise Http404("No such move.")
    if form_class.host_only:
        membership = dealer_membership_for(request.user, slug, "run the fight")
    else:
        membership = membership_for(request.user, slug)
    form = form_class(request.POST)
    try:
        if not form.is_valid():
            raise FightError(problem_of(form))
        data = form.cleaned_data
        scope = "" if form.host_only else data.get("cid", "")
        _, fight = fight_move_read(
            fight_id=table_id, membership=membership, move=lambda: form.move(scope, now_ms()),
            version=data["version"], key=data["key"], basis=data["basis"], scope=scope,
        )  # fmt: skip
    except Fight.DoesNotExist:
        raise Http404(game.missing) from None
    except FightError as error:
        return _after(game, request, table_id, membership, error=str(error))
    return _after(game, request, table_id, membership, moved=True, read=fight)


@login_required
@require_http_methods(["GET", "POST"])
def fight_join(request: HtmxHttpRequest, slug: str, fight_id: int) -> HttpResponse:
    """The Dealer brings someone into the fight under way: a character, or a line of extras."""
    from tables.site import site

    membership = dealer_membership_for(request.user, slug, "bring someone into the fight")
    fight = get_object_or_404(Fight, pk=fight_id, campaign=membership.campaign)
    form = JoinForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            fight_move(
                fight_id=fight.pk, membership=membership, move=form.move, version=d["version"],
                key=d["key"],
            )  # fmt: skip
        except FightError as error:
            form.add_error(None, str(error))
        else:
            return _after(site.get(KIND), request, fight.pk, membership, moved=True)
    return render(request, "fights/join.html", join_context(fight, membership, form))


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


def _after(
    game: Game, request: HtmxHttpRequest, fight_id: int, membership: Membership, *,
    error: str = "", moved: bool = False, read: Fight | None = None,
) -> HttpResponse:  # fmt: skip
    """The site's answer to a move (``tables.views.answer``), its notice the move's public
    lines. ``read``: the fight as the move left it (``fight_move_read``: no second read)."""
    fight = read or load_fight(fight_id, membership.campaign)
    if fight is None:
        raise Http404(game.missing)
    notice = ""
    if moved:
        notice = " ".join(
            e.text for e in fight.events.all() if e.version == fight.version and not e.secret
        )
    return answer(
        request, notice=notice, error=error, url=fight.get_absolute_url(), panel=game.panel_id,
        screen=lambda notice, error: screen(game, request, fight, notice=notice, error=error),
    )  # fmt: skip
