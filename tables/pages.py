"""The pages every declared game gets from the site (``tables.site``): plain function views
taking the game first (``view(game, request, slug, …)``), closed over it and decorated as
``@page`` says when the site builds the game's URLs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.access import membership_for
from campaigns.models import Membership
from tables import clock, tablegames
from tables.errors import NotYours, Refused
from tables.forms import problem_of
from tables.game import Game
from tables.once import MadeAndGone, made_once
from tables.play import create, games_of, load, lobby_members, move
from tables.running import new_seat, seats_in_play
from tables.views import answer, markdown_file, table_version


def page(*decorators: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Marks a site view with the view decorators it gets once closed over its game
    (``login_required``…)."""

    def mark(view: Callable[..., Any]) -> Callable[..., Any]:
        view.decorators = decorators  # type: ignore[attr-defined]
        return view

    return mark


def list_context(
    game: Game, membership: Membership, error: str = "", form: Any = None
) -> dict[str, Any]:
    """The list page's context; after a refused start, the new-game ``form`` as sent (what was
    ticked is kept: ``ticked``)."""
    games = games_of(game, membership.campaign, membership.user)
    return {
        "game": game,
        "campaign": membership.campaign,
        "membership": membership,
        "games": games,
        "known": seats_in_play(membership.user, membership.campaign),
        "in_play": any(not listed.table.is_over for listed in games),
        "other_games": tablegames.others(game.kind),
        "members": lobby_members(membership.campaign),
        "error": error,
        "rulings": game.rulings,
        "ticked": None if form is None else form.seated(),
        **game.list_context(membership, form),
    }


@page(login_required, require_GET)
def game_list(game: Game, request: Any, slug: str) -> HttpResponse:
    """A table's games of this kind and the form to start one. At a one-off table, htmx asks
    again (the lobby partial) and a guest is taken to the game the host starts for them."""
    membership = membership_for(request.user, slug)
    if request.htmx and (
        fresh := new_seat(membership.user, membership.campaign, request.GET.get("known"))
    ):
        return HttpResponseClientRedirect(fresh.url)
    partial_name = f"#{game.lobby_partial}" if request.htmx else ""
    return render(request, game.template("list") + partial_name, list_context(game, membership))


@page(login_required, require_POST)
def game_new(game: Game, request: Any, slug: str) -> HttpResponse:
    """Start a game of the members ticked, clockwise in the order sent. Once per form."""
    membership = membership_for(request.user, slug)
    form = game.new_form(request.POST)
    if not form.is_valid():
        context = list_context(game, membership, problem_of(form), form)
        return render(request, game.template("list"), context)
    ids = form.seated()
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=ids)}
    try:
        row = made_once(
            user=membership.user, key=form.cleaned_data["key"], form=f"new:{game.kind}",
            make=lambda: create(
                game, campaign=membership.campaign, actor=membership.user,
                players=[users[i] for i in ids if i in users],
                data={**form.cleaned_data, "users": users},
            ),
        )  # fmt: skip
    except (Refused, MadeAndGone) as error:
        return render(
            request, game.template("list"), list_context(game, membership, str(error), form)
        )
    messages.success(request, gettext(game.started))
    return redirect(row)


def screen(
    game: Game, request: Any, row: Any, *, notice: str = "", error: str = "",
    page: str = "detail", as_table: bool = False,
) -> HttpResponse:  # fmt: skip
    context = game.view(row, request.user, as_table=as_table)
    context.update(notice=notice, error=error)
    return render(request, game.template(page) + ("#main" if request.htmx else ""), context)


# A player's own cards or counts: no cache, no back-forward copy.
@page(never_cache, login_required, require_GET)
def detail(game: Game, request: Any, slug: str, table_id: int) -> HttpResponse:
    """A seated player's phone; anyone else at the table watches the public facts."""
    return screen(game, request, load(game, request, slug, table_id))


@page(never_cache, login_required, require_GET)
def table(game: Game, request: Any, slug: str, table_id: int) -> HttpResponse:
    """The shared screen for a laptop or TV: public facts only."""
    row = load(game, request, slug, table_id)
    return screen(game, request, row, page="table", as_table=True)


@page(login_required, require_GET)
def story(game: Game, request: Any, slug: str, table_id: int) -> HttpResponse:
    """The game's story (its public timeline) as a Markdown file."""
    row = load(game, request, slug, table_id)
    return markdown_file(game.story_markdown(row), f"{game.kind}-{row.pk}.md")


@page(login_required, require_GET)
def version(game: Game, request: Any, slug: str, table_id: int) -> HttpResponse:
    """The safety-net poll: 204 while the game stands still. Never a card."""
    tables = game.model._default_manager.filter(
        campaign=membership_for(request.user, slug).campaign
    )
    return table_version(request, tables=tables, table_id=table_id, event=game.event_name)


@page(login_required, require_POST)
def act(game: Game, request: Any, slug: str, table_id: int, action: str) -> HttpResponse:
    """One move: its timeline lines are the notice; a refusal's reason is the error, with the
    table as it is now (nothing was written)."""
    form_class = game.moves.get(action)
    if form_class is None:
        raise Http404("No such move.")
    return answer_move(game, request, slug, table_id, form_class(request.POST))


def answer_move(game: Game, request: Any, slug: str, table_id: int, form: Any) -> HttpResponse:
    """``act`` for a move's form already made (a game's own move view)."""
    at = clock.now_ms() if game.time_on_arrival else None
    row = load(game, request, slug, table_id)
    notice = error = ""
    if not form.is_valid():
        error = problem_of(form)
    else:
        try:
            moved = move(
                game, table_id=row.pk, campaign=row.campaign, user=request.user, form=form,
                at_ms=at, for_pid=str(request.POST.get("pid", ""))[:20],
            )  # fmt: skip
            notice = game.notice(moved.lines)
        except NotYours as not_yours:
            raise PermissionDenied(str(not_yours)) from None
        except Refused as refused:
            error = str(refused)
    row.refresh_from_db()
    return answer(
        request, notice=notice, error=error, url=row.get_absolute_url(), panel=game.panel_id,
        screen=lambda notice, error: screen(game, request, row, notice=notice, error=error),
    )  # fmt: skip
