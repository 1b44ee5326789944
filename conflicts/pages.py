"""The conflict's own pages on the site (``conflicts.game``; ``tables.site`` builds the rest:
the version poll, the live streams): site views taking the game first, marked with
``tables.pages.page``.

One URL shows each viewer their own screen: the Dealer's console (every hand) or the player's
view (their own hand, phone first); the table view is the shared screen (public facts only).
Every move is a POST through ``conflict_move``: without htmx, post/redirect/get with the message;
with htmx, the main panel comes back re-rendered with the message, refusals included (status
200, the current state). Cards reach templates only through ``selectors.conflict_view`` (R10).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.access import dealer_membership_for, membership_for
from campaigns.models import Membership
from conflicts.forms import ACTIONS, AdviceForm, ConflictCreateForm, NarrateForm, problem_of
from conflicts.models import Conflict
from conflicts.reads import TableRead, table_read
from conflicts.selectors import conflict_view, conflicts_of, events_at
from conflicts.selectors.replay import replay_snapshots, replay_view
from conflicts.selectors.view import conflict_links
from conflicts.services import (
    ConflictError,
    conflict_create_once,
    conflict_deal_again,
    conflict_move_read,
    conflict_narrate,
)
from dustdevils.idempotency import FreshKey
from dustdevils.paging import paged_into
from dustdevils.parsing import an_id, whole_number
from dustdevils.types import HtmxHttpRequest
from fights.models import Fight
from tables import rulings as rulings_text
from tables.game import Game
from tables.pages import page
from tables.views import answer


@page(login_required, require_GET)
def conflict_list(game: Game, request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request.user, slug)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "conflicts": conflicts_of(membership.campaign),
    }
    paged_into(context, request.GET, "conflicts")  # a page at a time: issue 37
    return render(request, "conflicts/list.html", context)


@page(login_required, require_http_methods(["GET", "POST"]))
def conflict_new(game: Game, request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The Dealer sets a conflict up: who, which sides, goals, Stakes, the stud (R12, R14, R18,
    R22)."""
    membership = dealer_membership_for(request.user, slug, "set up a conflict")
    fight = _fight_to_settle(request, membership)
    form = ConflictCreateForm(membership.campaign, request.POST or None, fight=fight)
    if request.method == "POST" and form.is_valid():
        try:
            conflict = conflict_create_once(
                form.cleaned_data["key"],
                campaign=membership.campaign, actor=membership.user, hands=form.hands(),
                title=form.cleaned_data["title"], stakes=form.cleaned_data["stakes"],
                session=form.cleaned_data["session"], recovery=form.recovery(),
                fight=fight, fight_round=form.cleaned_data.get("fight_round"),
            )  # fmt: skip
        except ConflictError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"“{conflict.title}” is set up: time to size the Deal.")
            return redirect(conflict)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "form": form,
        "fight": fight,
        "fresh_key": FreshKey(),
    }
    return render(request, "conflicts/new.html", context)


def _fight_to_settle(request: HtmxHttpRequest, membership: Membership) -> Fight | None:
    """R32: ``?fight=<id>`` (kept in the form's action): the fight whose action this conflict
    settles; 404 for a fight of another campaign."""
    if not request.GET.get("fight"):
        return None
    fight_id = an_id(request.GET["fight"])
    if fight_id is None:
        raise Http404("No such fight in this campaign.")
    return get_object_or_404(
        Fight.objects.select_related("campaign").prefetch_related("seats"),
        pk=fight_id,
        campaign=membership.campaign,
    )


@page(never_cache, login_required, require_GET)
def detail(game: Game, request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The Dealer's console or the player's view, whichever this viewer is."""
    membership, read = _load(request, slug, table_id)
    return _screen(request, read, membership, advise="advise" in request.GET)


@page(login_required, require_GET)
def table(game: Game, request: HtmxHttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The shared screen: public facts only, whoever is looking (R10)."""
    membership, read = _load(request, slug, table_id)
    context = conflict_view(read, membership, as_table=True)
    return render(request, "conflicts/table.html" + ("#main" if request.htmx else ""), context)


@never_cache
@login_required
@require_GET
def advice(request: HtmxHttpRequest, slug: str, conflict_id: int) -> HttpResponse:
    """The discard advisor for the knack (and chip) chosen in the draw form (R13)."""
    membership, read = _load(request, slug, conflict_id)
    form = AdviceForm(request.GET)
    if not form.is_valid():
        raise Http404("No advice for that hand.")
    limit = form.limit(read.seats)
    context = conflict_view(read, membership, advice_limit=limit, advise=True)
    pid = form.cleaned_data["pid"]
    context["hand"] = next((h for h in context["my_hands"] if h.pid == pid and h.odds), None)
    if context["role"] != "player" or context["hand"] is None:
        raise Http404("No advice for that hand.")
    return render(request, "conflicts/_own_hand.html#advisor", context)


@page(never_cache, login_required, require_POST)
def act(
    game: Game, request: HtmxHttpRequest, slug: str, table_id: int, action: str
) -> HttpResponse:
    """One table move (see the module docstring)."""
    form_class = ACTIONS.get(action)
    if form_class is None:
        raise Http404("No such move.")
    membership = _member(request, slug, dealer=form_class.dealer_only())
    return _move(request, table_id, membership, form_class(request.POST))


def _move(
    request: HtmxHttpRequest, table_id: int, membership: Membership, form: Any
) -> HttpResponse:
    try:
        if not form.is_valid():
            raise ConflictError(problem_of(form))
        data = form.cleaned_data
        read = conflict_move_read(
            conflict_id=table_id, membership=membership, move=form.move,  # given the seats
            version=data["version"], key=data["key"], basis=data["basis"],
            scope="" if form.dealer_only() else data.get("pid", ""),
        )  # fmt: skip
    except Conflict.DoesNotExist:
        raise Http404("No such conflict in this campaign.") from None
    except ConflictError as error:  # a refusal shows the table as it is now
        return _after(request, table_id, membership, error=str(error))
    return _after(request, table_id, membership, moved=True, read=read)


@login_required
@require_POST
def deal_again(request: HtmxHttpRequest, slug: str, conflict_id: int) -> HttpResponse:
    """R20: a new conflict linked to this one, with a fresh deck."""
    membership = _member(request, slug, dealer=True)
    try:
        fresh = conflict_deal_again(conflict_id=conflict_id, membership=membership)
    except Conflict.DoesNotExist:
        raise Http404("No such conflict in this campaign.") from None
    except ConflictError as error:
        return _after(request, conflict_id, membership, error=str(error))
    messages.success(request, f"Dealt again: “{fresh.title}” continues the fight (R20).")
    url = fresh.get_absolute_url()
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def narrate(request: HtmxHttpRequest, slug: str, conflict_id: int) -> HttpResponse:
    """The narrator (or the Dealer) writes down what they narrated: it goes on the timeline."""
    membership = _member(request, slug)
    form = NarrateForm(request.POST)
    try:
        if not form.is_valid():
            raise ConflictError(problem_of(form))
        conflict_narrate(
            conflict_id=conflict_id, membership=membership, text=form.cleaned_data["text"],
            key=form.cleaned_data["key"],
        )  # fmt: skip
    except Conflict.DoesNotExist:
        raise Http404("No such conflict in this campaign.") from None
    except ConflictError as error:
        return _after(request, conflict_id, membership, error=str(error))
    return _after(request, conflict_id, membership, notice="The narration is on the timeline.")


@never_cache
@login_required
@require_GET
def replay(request: HtmxHttpRequest, slug: str, conflict_id: int) -> HttpResponse:
    """A finished conflict, step by step (``?step=`` from 1): what each move left on the table,
    as this viewer may see it (R10). Opens once the conflict has ended."""
    membership, read = _load(request, slug, conflict_id)
    if not read.conflict.is_over:  # before any replay state is read
        raise Http404("The replay opens when the conflict is over.")
    snapshots = replay_snapshots(read.conflict)
    if not snapshots:
        raise Http404("The replay opens when the conflict is over.")
    step = whole_number(request.GET.get("step"), minimum=1)  # clamped by replay_view
    index = step - 1 if step is not None else len(snapshots) - 1
    context = replay_view(read, snapshots, membership, index)
    context["links"] = conflict_links(membership.campaign.slug, conflict_id)
    # Live until dealt again, as the conflict's own page (selectors.view: "live").
    context["live"] = not read.continued_by
    return render(request, "conflicts/replay.html", context)


@require_GET
def rulings(request: HtmxHttpRequest) -> HttpResponse:
    """How the app reads each unclear rule (public: no login needed)."""
    # The saloon's S-readings sit beside R34 (saloon/engine/state.py says them to the table too).
    from saloon.engine.state import READINGS as saloon_readings

    context = {"groups": rulings_text.grouped(), "saloon_readings": saloon_readings}
    return render(request, "rulings.html", context)


# --- Helpers -----------------------------------------------------------------------------------


def _load(
    request: HtmxHttpRequest, slug: str, conflict_id: int, *, dealer: bool = False
) -> tuple[Membership, TableRead]:
    """The viewer's seat (404 for non-members, 403 for a player at a Dealer's move) and the
    table of the conflict, which must belong to that campaign."""
    membership = _member(request, slug, dealer=dealer)
    return membership, _read(membership, conflict_id)


def _member(request: HtmxHttpRequest, slug: str, *, dealer: bool = False) -> Membership:
    if dealer:
        return dealer_membership_for(request.user, slug, "do that")
    return membership_for(request.user, slug)


def _read(membership: Membership, conflict_id: int) -> TableRead:
    read = table_read(conflict_id, campaign_id=membership.campaign_id)
    if read is None:
        raise Http404("No such conflict in this campaign.")
    return read


def _conflict_of(membership: Membership, conflict_id: int) -> Conflict:
    return get_object_or_404(
        Conflict.objects.select_related("campaign"), pk=conflict_id, campaign=membership.campaign
    )


def _screen(
    request: HtmxHttpRequest,
    read: TableRead,
    membership: Membership,
    *,
    notice: str = "",
    error: str = "",
    advise: bool = False,
    moved: bool = False,
    odds: bool = True,
) -> HttpResponse:
    """``moved``: the message is what the last move did, in the timeline's words. ``odds``:
    work out a hand's odds now (a page; not a move's answer, issue 38)."""
    context = conflict_view(read, membership, advise=advise, odds=odds)
    if moved:
        notice = " ".join(e.text for e in read.timeline if e.version == read.version)
    context.update(notice=notice, error=error)
    return render(request, "conflicts/detail.html" + ("#main" if request.htmx else ""), context)


def _after(
    request: HtmxHttpRequest,
    conflict_id: int,
    membership: Membership,
    *,
    notice: str = "",
    error: str = "",
    moved: bool = False,
    read: TableRead | None = None,
) -> HttpResponse:
    """The table kit's answer (``tables.views.answer``), from ``read`` when the move gave one
    (its own read: no second one)."""
    if moved and read is not None:
        notice = " ".join(e.text for e in read.timeline if e.version == read.version)
        moved = False
    elif moved and not request.htmx:
        conflict = _conflict_of(membership, conflict_id)
        notice, moved = events_at(conflict, conflict.version), False

    def screen(notice: str, error: str) -> HttpResponse:
        data = read or _read(membership, conflict_id)
        return _screen(
            request, data, membership, notice=notice, error=error, moved=moved, odds=False
        )

    url = (read.conflict if read else _conflict_of(membership, conflict_id)).get_absolute_url()
    return answer(
        request, screen=screen, url=url, panel="conflict-main", notice=notice, error=error
    )
