"""The Gunfighter's screens: a table's page of gunfights (and how to start one), each
gunfighter's phone (their deck, lives, covert cards and counts, what to do now, the showdown
clock, their mat's review), and the story of who shot whom. Every move is a POST through
``gunfight_move``: htmx gets the main panel morphed in place with the message, refusals
included; without JavaScript, post/redirect/get (the table kit's ``answer``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns import tablegames
from campaigns.access import membership_for
from campaigns.models import Membership
from campaigns.once import MadeAndGone, made_once
from campaigns.running import new_seat, seats_in_play
from dustdevils.types import HtmxHttpRequest
from gunfighter.forms import PARSERS, NewGameForm, parse_move
from gunfighter.models import Gunfight
from gunfighter.rulings import RULINGS
from gunfighter.selectors import gunfight_view, gunfights_of, lobby_members
from gunfighter.services import GunfightError, NotSeated, gunfight_create, gunfight_move
from tables.forms import problem_of
from tables.views import answer, table_version


@login_required
@require_GET
def gunfight_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A table's gunfights and the form to start one. At a one-off table, htmx asks again
    (``#lobby``) and a guest is taken to the game the host starts for them."""
    membership = membership_for(request.user, slug)
    if request.htmx and (
        fresh := new_seat(membership.user, membership.campaign, request.GET.get("known"))
    ):
        return HttpResponseClientRedirect(fresh.url)
    template = "gunfighter/list.html" + ("#lobby" if request.htmx else "")
    return render(request, template, _list_context(membership))


def _list_context(membership: Membership, error: str = "") -> dict[str, Any]:
    members = lobby_members(membership.campaign)
    games = gunfights_of(membership.campaign, membership.user)
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "games": games,
        "known": seats_in_play(membership.user, membership.campaign),
        "in_play": any(not game.gunfight.is_over for game in games),
        "other_games": tablegames.others("gunfighter"),
        "members": members,
        "error": error,
        "rulings": RULINGS,
    }


@login_required
@require_POST
def gunfight_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Start a gunfight: 2–6 members, clockwise in the order sent. Once per form."""
    membership = membership_for(request.user, slug)
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return render(request, "gunfighter/list.html", _list_context(membership, problem_of(form)))
    ids = form.seated()
    users = {u.pk: u for u in User.objects.filter(pk__in=ids)}
    western = users.get(form.cleaned_data["western"] or 0)
    try:
        gunfight = made_once(
            user=membership.user, key=form.cleaned_data["key"],
            make=lambda: gunfight_create(
                campaign=membership.campaign, actor=membership.user,
                players=[users[i] for i in ids if i in users], western=western,
                choose=form.cleaned_data["choose"],
            ),
        )  # fmt: skip
    except (GunfightError, MadeAndGone) as error:
        return render(request, "gunfighter/list.html", _list_context(membership, str(error)))
    messages.success(request, "High noon. Draw your six.")
    return redirect(gunfight)


@never_cache
@login_required
@require_GET
def detail(request: HtmxHttpRequest, slug: str, gunfighter_id: int) -> HttpResponse:
    """A seated gunfighter's phone; anyone else at the table watches."""
    return _screen(request, _load(request, slug, gunfighter_id))


@login_required
@require_GET
def version(request: HtmxHttpRequest, slug: str, gunfighter_id: int) -> HttpResponse:
    """The table kit's safety-net poll: 204 while the game stands still. Never a card."""
    tables = Gunfight.objects.filter(campaign=membership_for(request.user, slug).campaign)
    return table_version(request, tables=tables, table_id=gunfighter_id, event="gunfighter-moved")


@login_required
@require_POST
def act(request: HtmxHttpRequest, slug: str, gunfighter_id: int, action: str) -> HttpResponse:
    """One move (see the module docstring): its timeline lines are the notice; a refusal's
    reason is the error, with the table as it is now (nothing was written)."""
    if action not in PARSERS:
        raise Http404("No such move.")
    gunfight = _load(request, slug, gunfighter_id)
    notice = error = ""
    try:
        move, version, key, basis = parse_move(action, request.POST)
        moved = gunfight_move(
            gunfight_id=gunfight.pk, campaign=gunfight.campaign, user=request.user,  # type: ignore[arg-type]
            move=move, version=version, key=key, basis=basis,
        )  # fmt: skip
        notice = " ".join(line.text for line in moved.lines)
    except NotSeated as not_seated:
        raise PermissionDenied(str(not_seated)) from None
    except GunfightError as refused:
        error = str(refused)
    gunfight.refresh_from_db()
    return answer(
        request, notice=notice, error=error, url=gunfight.get_absolute_url(),
        panel="gunfighter-main",
        screen=lambda notice, error: _screen(request, gunfight, notice=notice, error=error),
    )  # fmt: skip


def _load(request: HtmxHttpRequest, slug: str, gunfighter_id: int) -> Gunfight:
    """The game at this table (404 for those who do not sit at it)."""
    tables = Gunfight.objects.filter(campaign=membership_for(request.user, slug).campaign)
    return get_object_or_404(tables.select_related("campaign"), pk=gunfighter_id)


def _screen(
    request: HtmxHttpRequest, gunfight: Gunfight, *, notice: str = "", error: str = ""
) -> HttpResponse:
    context = gunfight_view(gunfight, request.user)  # type: ignore[arg-type]
    context.update(notice=notice, error=error)
    return render(request, "gunfighter/detail.html" + ("#main" if request.htmx else ""), context)
