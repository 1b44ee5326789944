"""Saloon Showdown's screens: a table's page for the game (its games, and starting one), each
player's phone (their money, wounds and what they may do now; their own bullet count only), the
shared table screen, and the moves. Every move is a POST through ``showdown_move`` and answered
by the table kit (``tables.views.answer``): refusals in plain words, nothing written."""

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
from campaigns.selectors import members_of
from dustdevils.parsing import an_id
from dustdevils.types import HtmxHttpRequest
from showdown.engine.state import Options
from showdown.forms import PARSERS, NewGameForm, parse_move
from showdown.models import Showdown
from showdown.selectors import showdown_view, showdowns_of, story_markdown
from showdown.services import ShowdownError, display_name, showdown_create, showdown_move
from tables.clock import now_ms
from tables.errors import NotYours
from tables.forms import problem_of
from tables.views import answer, markdown_file, table_version


@login_required
@require_GET
def showdown_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A table's Saloon Showdown page: its games and the form to start one."""
    membership = membership_for(request.user, slug)
    if request.htmx and (
        fresh := new_seat(membership.user, membership.campaign, request.GET.get("known"))
    ):
        return HttpResponseClientRedirect(fresh.url)  # the host seated this guest: go there
    template = "showdown/list.html" + ("#games" if request.htmx else "")
    return render(request, template, _list_context(membership))


def _list_context(
    membership: Membership, error: str = "", form: NewGameForm | None = None
) -> dict[str, Any]:
    members = members_of(membership.campaign)  # the host first
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "games": showdowns_of(membership.campaign, membership.user),
        "known": seats_in_play(membership.user, membership.campaign),
        "other_games": tablegames.others("showdown"),
        "members": [(m.user, display_name(m.user)) for m in members],
        "error": error,
        # A refused start keeps what was ticked and chosen, and says next to the field when
        # the dealer token went to someone not ticked (issue 36).
        "ticked": None if form is None else form.seated(),
        "dealer_id": None if form is None else an_id(form.data.get("dealer")),
    }


@login_required
@require_POST
def showdown_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Start a game (once per form: the same form sent again finds the game the first made)."""
    membership = membership_for(request.user, slug)
    form = NewGameForm(request.POST)
    if not form.is_valid():
        context = _list_context(membership, problem_of(form), form)
        return render(request, "showdown/list.html", context)
    ids = form.seated()
    users = {u.pk: u for u in User.objects.filter(pk__in=ids)}
    dealer = users.get(form.cleaned_data["dealer"] or 0)
    data = form.cleaned_data
    options = Options(simple=data["simple"], roulette=data["roulette"], events=data["events"])
    try:
        if dealer is None:
            raise ShowdownError("Say who saw a western last: they take the dealer token.")
        showdown = made_once(
            user=membership.user, key=data["key"],
            make=lambda: showdown_create(
                campaign=membership.campaign, actor=membership.user,
                players=[users[i] for i in ids if i in users], dealer=dealer, options=options,
            ),
        )  # fmt: skip
    except (ShowdownError, MadeAndGone) as error:
        return render(request, "showdown/list.html", _list_context(membership, str(error), form))
    messages.success(request, "Saloon Showdown: the cards are dealt.")
    return redirect(showdown)


def _load(request: HtmxHttpRequest, slug: str, showdown_id: int) -> Showdown:
    membership = membership_for(request.user, slug)  # 404 for non-members
    return get_object_or_404(
        Showdown.objects.select_related("campaign"), pk=showdown_id, campaign=membership.campaign
    )


@never_cache  # a player's own count: no cache, no back-forward copy
@login_required
@require_GET
def detail(request: HtmxHttpRequest, slug: str, showdown_id: int) -> HttpResponse:
    """A seated player's phone; the host and anyone else at the table watch the public facts."""
    return _screen(request, _load(request, slug, showdown_id))


@login_required
@require_GET
def table(request: HtmxHttpRequest, slug: str, showdown_id: int) -> HttpResponse:
    """The shared screen for a laptop or TV: public facts only."""
    showdown = _load(request, slug, showdown_id)
    context = showdown_view(showdown, request.user, as_table=True)  # type: ignore[arg-type]
    return render(request, "showdown/table.html" + ("#main" if request.htmx else ""), context)


@login_required
@require_GET
def story(request: HtmxHttpRequest, slug: str, showdown_id: int) -> HttpResponse:
    """The game's story (its public timeline and the scores) as a Markdown file."""
    showdown = _load(request, slug, showdown_id)
    return markdown_file(story_markdown(showdown), f"showdown-{showdown.pk}.md")


@login_required
@require_GET
def version(request: HtmxHttpRequest, slug: str, showdown_id: int) -> HttpResponse:
    """The kit's safety-net poll: 204 while the game stands still. Never a number."""
    membership = membership_for(request.user, slug)
    tables = Showdown.objects.filter(campaign=membership.campaign)
    return table_version(request, tables=tables, table_id=showdown_id, event="showdown-moved")


@login_required
@require_POST
def act(request: HtmxHttpRequest, slug: str, showdown_id: int, action: str) -> HttpResponse:
    """One move: the server's clock is read first, as the move arrives (a duel's race)."""
    at = now_ms()
    if action not in PARSERS:
        raise Http404("No such move.")
    showdown = _load(request, slug, showdown_id)
    try:
        move, version, key, basis = parse_move(action, request.POST, at)
        showdown = showdown_move(
            showdown_id=showdown.pk, campaign=showdown.campaign, user=request.user,  # type: ignore[arg-type]
            move=move, version=version, key=key, basis=basis,
            for_pid=str(request.POST.get("pid", ""))[:20],  # SS19: the host, for a phone gone
        )  # fmt: skip
    except NotYours as error:
        raise PermissionDenied(str(error)) from None
    except ShowdownError as error:  # a refusal shows the table as it is now
        showdown.refresh_from_db()
        return _after(request, showdown, error=str(error))
    return _after(request, showdown, moved=True)


def _screen(
    request: HtmxHttpRequest, showdown: Showdown, *, notice: str = "", error: str = ""
) -> HttpResponse:
    context = showdown_view(showdown, request.user)  # type: ignore[arg-type]
    context.update(notice=notice, error=error)
    return render(request, "showdown/detail.html" + ("#main" if request.htmx else ""), context)


def _after(
    request: HtmxHttpRequest, showdown: Showdown, *, error: str = "", moved: bool = False
) -> HttpResponse:
    notice = ""
    if moved:
        lines = showdown.lines.filter(version=showdown.version).exclude(kind="turn")
        notice = " ".join(line.text for line in lines.order_by("seq"))
    return answer(
        request, notice=notice, error=error, url=showdown.get_absolute_url(),
        panel="showdown-main",
        screen=lambda notice, error: _screen(request, showdown, notice=notice, error=error),
    )  # fmt: skip
