"""The saloon's screens: a table's lobby (its games and how to start one; for a one-off table
also who sits there and the invitation links), each player's phone (their archetype and hand,
whose turn, what to do now, the prompt to read out, the Unwanted card always in reach), the
shared table screen, and the story as Markdown. Every move is a POST through ``saloon_move``:
without htmx, post/redirect/get with the message; with htmx, the main panel comes back
re-rendered with the message, refusals included. Card faces reach templates only through
``saloon_view``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns import tablegames
from campaigns.access import membership_for
from campaigns.models import Membership
from campaigns.once import MadeAndGone, made_once
from campaigns.running import new_seat, seats_in_play
from campaigns.services import CampaignError
from dustdevils.idempotency import FreshKey, key_of
from dustdevils.types import HtmxHttpRequest
from saloon.engine import game as g
from saloon.engine import tables
from saloon.forms import PARSERS, NewGameForm, OneOffForm, move_basics, parse_move
from saloon.models import Saloon
from saloon.reads import SaloonRead
from saloon.selectors import lobby_members, saloon_view, saloons_of, story_markdown
from saloon.services import (
    NotSeated,
    SaloonError,
    display_name,
    oneoff_create,
    oneoff_invite,
    saloon_create,
    saloon_line_strike,
    saloon_move_read,
)
from tables.forms import problem_of
from tables.views import answer, markdown_file, version_answer


@login_required
@require_POST
def oneoff_new(request: HtmxHttpRequest) -> HttpResponse:
    """Start a one-off table (no campaign needed); its lobby next, to invite the others. Once
    per form: the same form sent again finds the table the first made."""
    form = OneOffForm(request.POST)
    if not form.is_valid():
        messages.error(request, problem_of(form))
        return redirect("home")
    user: User = request.user  # type: ignore[assignment]
    try:
        table = made_once(
            user=user, key=form.cleaned_data["key"],
            make=lambda: oneoff_create(host=user, name=form.cleaned_data["name"]),
        )  # fmt: skip
    except CampaignError as error:  # its key's table is gone, or too many opened at once
        messages.error(request, str(error))
        return redirect("home")
    messages.success(request, f"{table.name} is open. Invite the others with links.")
    return redirect(table)


@never_cache  # the new link is in this response only
@login_required
@require_POST
def invite(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The host of a one-off table makes a single-use invitation link, shown here only once
    (only its hash is stored), as a campaign's invitations are."""
    membership = membership_for(request.user, slug)
    try:
        token = oneoff_invite(membership=membership, key=key_of(request.POST))
    except SaloonError as error:
        raise PermissionDenied(str(error)) from None
    link = request.build_absolute_uri(reverse("campaigns:join", args=[token]))
    template = "saloon/list.html" + ("#invite" if request.htmx else "")
    return render(request, template, _list_context(membership, new_link=link))


@login_required
@require_GET
def saloon_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A table's lobby: its games of Death Enters the Saloon and the form to start one; for a
    one-off table also who sits there (htmx asks again every few seconds: ``#lobby``)."""
    membership = membership_for(request.user, slug)
    context = _list_context(membership)
    if request.htmx and (
        fresh := new_seat(membership.user, membership.campaign, request.GET.get("known"))
    ):
        # The host started a game this guest plays, of any kind: take them to their seat.
        return HttpResponseClientRedirect(fresh.url)
    template = "saloon/list.html" + ("#lobby" if request.htmx else "")
    return render(request, template, context)


def _list_context(membership: Membership, error: str = "", **extra: object) -> dict[str, Any]:
    members = lobby_members(membership.campaign)
    saloons = saloons_of(membership.campaign, membership.user)
    in_play = [game.saloon.pk for game in saloons if not game.saloon.is_over]
    return {
        "campaign": membership.campaign,
        "membership": membership,
        "saloons": saloons,
        # The games in play this lobby shows: a new one for the viewer takes them to it.
        "known": seats_in_play(membership.user, membership.campaign),
        "other_games": tablegames.others("saloon"),
        "in_play": bool(in_play),
        "members": [(m.user, display_name(m.user)) for m in members],
        "seated": members,
        "error": error,
        "readings": g.READINGS,
        "credit": tables.CREDIT,
        **extra,
    }


@login_required
@require_POST
def saloon_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Start a game: 3–5 members, seated clockwise by the seat numbers given. Once per form:
    the same form sent again finds the game the first started."""
    membership = membership_for(request.user, slug)
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return render(request, "saloon/list.html", _list_context(membership, problem_of(form)))
    ids = form.seated()
    users = {u.pk: u for u in User.objects.filter(pk__in=ids)}
    try:
        saloon = made_once(
            user=membership.user, key=form.cleaned_data["key"],
            make=lambda: saloon_create(
                campaign=membership.campaign, actor=membership.user,
                players=[users[i] for i in ids if i in users], pick=form.cleaned_data["pick"],
            ),
        )  # fmt: skip
    except (SaloonError, MadeAndGone) as error:
        return render(request, "saloon/list.html", _list_context(membership, str(error)))
    messages.success(request, "Death enters the saloon.")
    return redirect(saloon)


@never_cache  # a private hand: no cache, no back-forward copy (issue 19)
@login_required
@require_GET
def detail(request: HtmxHttpRequest, slug: str, saloon_id: int) -> HttpResponse:
    """A seated player's phone; anyone else in the campaign watches the public facts."""
    saloon = _load(request, slug, saloon_id)
    return _screen(request, saloon)


@login_required
@require_GET
def version(request: HtmxHttpRequest, slug: str, saloon_id: int) -> HttpResponse:
    """The client's safety-net poll (the table kit's): 204 while the game stands still, else
    its version and "saloon-moved". Never a card."""
    membership = membership_for(request.user, slug)  # 404 for non-members
    current = (
        Saloon.objects.filter(pk=saloon_id, campaign=membership.campaign)
        .values_list("version", flat=True)
        .first()
    )
    return version_answer(request, current=current, event="saloon-moved")


@login_required
@require_GET
def table(request: HtmxHttpRequest, slug: str, saloon_id: int) -> HttpResponse:
    """The shared screen for a laptop or TV: public facts only, whoever looks."""
    saloon = _load(request, slug, saloon_id)
    context = saloon_view(saloon, request.user, as_table=True)  # type: ignore[arg-type]
    return render(request, "saloon/table.html" + ("#main" if request.htmx else ""), context)


@login_required
@require_GET
def story(request: HtmxHttpRequest, slug: str, saloon_id: int) -> HttpResponse:
    """ "What we learned about the saloon", as a Markdown file."""
    saloon = _load(request, slug, saloon_id)
    return markdown_file(story_markdown(saloon), f"saloon-{saloon.pk}.md")


@login_required
@require_POST
def act(request: HtmxHttpRequest, slug: str, saloon_id: int, action: str) -> HttpResponse:
    """One move (see the module docstring)."""
    if action not in PARSERS:
        raise Http404("No such move.")
    membership = membership_for(request.user, slug)  # 404 for non-members
    try:
        move, version, key, basis = parse_move(action, request.POST)
        read = saloon_move_read(
            saloon_id=saloon_id, campaign=membership.campaign, user=request.user,  # type: ignore[arg-type]
            move=move, version=version, key=key, basis=basis, as_host=action == "lower-host",
        )  # fmt: skip
    except Saloon.DoesNotExist:
        raise Http404("No such game in this campaign.") from None
    except NotSeated as error:
        raise PermissionDenied(str(error)) from None
    except SaloonError as error:  # a refusal shows the table as it is now
        return _after(request, _load(request, slug, saloon_id), error=str(error))
    return _after(request, read.saloon, moved=True, read=read)


@login_required
@require_POST
def strike(request: HtmxHttpRequest, slug: str, saloon_id: int, line_id: int) -> HttpResponse:
    """S4: strike words from the story while the Unwanted card is up (answers as ``act``)."""
    saloon = _load(request, slug, saloon_id)
    try:
        version, key, _ = move_basics(request.POST)
        saloon = saloon_line_strike(
            saloon_id=saloon.pk, campaign=saloon.campaign, user=request.user,  # type: ignore[arg-type]
            line_id=line_id, version=version, key=key,
        )  # fmt: skip
    except NotSeated as error:
        raise PermissionDenied(str(error)) from None
    except SaloonError as error:
        saloon.refresh_from_db()
        return _after(request, saloon, error=str(error))
    return _after(request, saloon, moved=True)


def _load(request: HtmxHttpRequest, slug: str, saloon_id: int) -> Saloon:
    membership = membership_for(request.user, slug)  # 404 for non-members
    return get_object_or_404(
        Saloon.objects.select_related("campaign"), pk=saloon_id, campaign=membership.campaign
    )


def _screen(
    request: HtmxHttpRequest,
    saloon: Saloon,
    *,
    notice: str = "",
    error: str = "",
    read: SaloonRead | None = None,
) -> HttpResponse:
    context = saloon_view(saloon, request.user, read=read)  # type: ignore[arg-type]
    context.update(notice=notice, error=error, fresh_key=FreshKey())
    return render(request, "saloon/detail.html" + ("#main" if request.htmx else ""), context)


def _after(
    request: HtmxHttpRequest,
    saloon: Saloon,
    *,
    error: str = "",
    moved: bool = False,
    read: SaloonRead | None = None,
) -> HttpResponse:
    """htmx: the main panel with the message; otherwise post/redirect/get. ``read``: the game
    as the move left it (``saloon_move_read``: no second read)."""
    notice = ""
    if moved:
        lines = (
            sorted(read.lines, key=lambda line: line.seq)
            if read is not None
            else saloon.lines.filter(version=saloon.version).order_by("seq")
        )
        notice = " ".join(
            line.text for line in lines if line.version == saloon.version and line.kind == "rule"
        )
    return answer(
        request, notice=notice, error=error, url=saloon.get_absolute_url(), panel="saloon-main",
        screen=lambda notice, error: _screen(
            request, saloon, notice=notice, error=error, read=read
        ),
    )  # fmt: skip
