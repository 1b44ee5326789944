"""The campaign page and what the Dealer and players do on it: Dealer prep (notes, Wanted!
links), sessions and their Devil ratings (R21). Actions answer an htmx request with the section
they changed and anyone else with post/redirect/get."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import selectors, services, starters
from campaigns.access import dealer_membership_for, membership_for
from campaigns.forms import (
    CampaignForm,
    DevilRatingForm,
    NoteForm,
    NoteMoveForm,
    SessionEndForm,
    SessionPlanForm,
    WantedLinkForm,
)
from campaigns.models import GameSession, Membership, Note, WantedLink
from campaigns.services import CampaignError
from campaigns.session_story import session_story
from campaigns.views.shared import AuthedRequest, apply, as_int, go
from characters.models import Character
from dustdevils.paging import paged, paged_into
from dustdevils.types import HtmxHttpRequest
from fights.selectors import fights_queryset, session_fights
from tables import tablegames
from tables.once import made_once

# The campaign page's lists, each a page at a time (dustdevils.paging).
LISTS = ("pcs", "npcs", "public_npcs", "devils_to_set", "links", "notes", "sessions")


def _page(
    membership: Membership, query: Mapping[str, str] | None = None, **extra: Any
) -> dict[str, Any]:
    """The campaign page's context, with blank forms unless ``extra`` brings bound ones. Each
    list comes a page at a time (``query``: the request's, which asks for the pages)."""
    campaign = membership.campaign
    context: dict[str, Any] = selectors.campaign_page(membership)
    context["playing"] = context["sessions"].filter(status=GameSession.Status.OPEN).first()
    context["devils_to_set"] = selectors.devils_to_set(context["playing"], membership)
    paged_into(context, query, *LISTS)
    context["table_games"] = tablegames.games()  # between sessions: every game it can start
    if membership.is_dealer:
        context |= {
            "note_form": NoteForm(),
            "link_form": WantedLinkForm(campaign=campaign),
            "plan_form": SessionPlanForm(),
        }
    return context | extra


def _section(
    request: HtmxHttpRequest, membership: Membership, section: str, *, done: bool, **extra: Any
) -> HttpResponse:
    """After an action on one section of the campaign page: htmx gets that section again;
    otherwise a redirect when it worked, or the whole page with the errors when it did not."""
    if done and not request.htmx:
        return redirect(membership.campaign.get_absolute_url() + f"#{section}")
    template = "campaigns/detail.html"
    if request.htmx:
        template += f"#{section}"
    return render(request, template, _page(membership, request.GET, **extra))


# --- Starting a campaign and the campaign page ---------------------------------------------------


@login_required
@require_POST
def campaign_create(request: AuthedRequest) -> HttpResponse:
    form = CampaignForm(request.POST)
    created: list[Any] = []

    def start(d: dict[str, Any]) -> None:
        key = d.pop("key")
        make = lambda: starters.campaign_start(dealer=request.user, **d)  # noqa: E731
        created.append(made_once(user=request.user, key=key, make=make))

    if apply(form, start):
        messages.success(request, f"{created[0].name} is open. You are its Dealer.")
        return go(request, created[0].get_absolute_url())
    context = {"form": form, **selectors.home_tables(request.user)}
    return render(request, "home.html#new-campaign" if request.htmx else "home.html", context)


@login_required
@require_GET
def detail(request: AuthedRequest, slug: str) -> HttpResponse:
    membership = membership_for(request.user, slug)
    if membership.campaign.is_one_off:  # a one-off table's page is its saloon lobby
        return redirect(membership.campaign)
    return render(request, "campaigns/detail.html", _page(membership, request.GET))


# --- Dealer prep: notes ---------------------------------------------------------------------------


@login_required
@require_POST
def note_create(request: AuthedRequest, slug: str) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "write prep notes")
    form = NoteForm(request.POST)
    done = apply(form, lambda d: made_once(
        user=request.user, key=d.pop("key"),
        make=lambda: services.note_save(campaign=membership.campaign, **d),
    ))  # fmt: skip
    return _section(
        request, membership, "notes", done=done, **({} if done else {"note_form": form})
    )


@login_required
@require_http_methods(["GET", "POST"])
def note_edit(request: AuthedRequest, slug: str, note_id: int) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "edit prep notes")
    note = get_object_or_404(Note, pk=note_id, campaign=membership.campaign)
    form = NoteForm(request.POST or None, instance=note)
    if request.method == "POST" and apply(  # setting a note's words twice is setting them once
        form, lambda d: services.note_save(
            campaign=membership.campaign, note=note, title=d["title"], body=d["body"]
        ),
    ):  # fmt: skip
        return _section(request, membership, "notes", done=True)
    if request.htmx:  # edit in place: the notes section with this note's form open
        return _section(request, membership, "notes", done=False, editing=note.pk, edit_form=form)
    return render(
        request, "campaigns/note_edit.html", {**_page(membership, request.GET), "form": form}
    )


@login_required
@require_POST
def note_delete(request: AuthedRequest, slug: str, note_id: int) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "delete prep notes")
    services.note_delete(note=get_object_or_404(Note, pk=note_id, campaign=membership.campaign))
    return _section(request, membership, "notes", done=True)


@login_required
@require_POST
def note_move(request: AuthedRequest, slug: str, note_id: int) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "reorder prep notes")
    note = get_object_or_404(Note, pk=note_id, campaign=membership.campaign)
    form = NoteMoveForm(request.POST)
    try:
        if not form.is_valid():
            raise CampaignError("A note moves up or down.")
        made_once(  # once per form: a double click moves the note one place, not two
            user=request.user, key=form.cleaned_data["key"],
            make=lambda: services.note_move(note=note, direction=form.cleaned_data["direction"]),
        )  # fmt: skip
    except CampaignError as error:
        messages.error(request, str(error))
    return _section(request, membership, "notes", done=True)


# --- Dealer prep: Wanted! links -------------------------------------------------------------------


def _save_link(
    membership: Membership, link: WantedLink | None
) -> Callable[[dict[str, Any]], object]:
    """A new link once per form (its key); an edit sets the same values however often."""

    def save(d: dict[str, Any]) -> object:
        key = d.pop("key", "")

        def make() -> WantedLink:
            return services.wanted_link_save(campaign=membership.campaign, link=link, **d)

        return make() if link is not None else made_once(user=membership.user, key=key, make=make)

    return save


@login_required
@require_POST
def wanted_create(request: AuthedRequest, slug: str) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "tie characters together")
    form = WantedLinkForm(request.POST, campaign=membership.campaign)
    done = apply(form, _save_link(membership, None))
    return _section(
        request, membership, "wanted", done=done, **({} if done else {"link_form": form})
    )


@login_required
@require_http_methods(["GET", "POST"])
def wanted_edit(request: AuthedRequest, slug: str, link_id: int) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "edit Wanted! links")
    link = get_object_or_404(WantedLink, pk=link_id, campaign=membership.campaign)
    initial = {
        "npc": link.npc,
        "pc": link.pc,
        "devil_touched": link.devil_touched,
        "notes": link.notes,
    }
    form = WantedLinkForm(request.POST or None, campaign=membership.campaign, initial=initial)
    if request.method == "POST" and apply(form, _save_link(membership, link)):
        return _section(request, membership, "wanted", done=True)
    if request.htmx:
        return _section(request, membership, "wanted", done=False, editing=link.pk, edit_form=form)
    return render(
        request,
        "campaigns/wanted_edit.html",
        {**_page(membership, request.GET), "form": form, "link": link},
    )


@login_required
@require_POST
def wanted_delete(request: AuthedRequest, slug: str, link_id: int) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "delete Wanted! links")
    link = get_object_or_404(WantedLink, pk=link_id, campaign=membership.campaign)
    services.wanted_link_delete(link=link)
    return _section(request, membership, "wanted", done=True)


# --- Sessions and Devil ratings (R21) -------------------------------------------------------------


@login_required
@require_POST
def session_plan(request: AuthedRequest, slug: str) -> HttpResponse:
    membership = dealer_membership_for(request.user, slug, "plan sessions")
    form = SessionPlanForm(request.POST)
    done = apply(form, lambda d: made_once(
        user=request.user, key=d.pop("key"),
        make=lambda: services.session_plan(campaign=membership.campaign, **d),
    ))  # fmt: skip
    return _section(
        request, membership, "sessions", done=done, **({} if done else {"plan_form": form})
    )


def _session_page(
    membership: Membership, session: GameSession, query: Mapping[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:  # fmt: skip
    """The session page; its Devil ratings and its log a page at a time (``query``'s)."""
    story = session_story(session, membership)
    fights = paged(  # the queryset, so only a page of fights (with their lines) is read
        fights_queryset().filter(session=session).order_by("created_at"), query, "fights", per=10
    )
    log = paged(story.events, query, "log")
    story.events = list(log.object_list)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "session": session,
        "rows": selectors.devil_ratings(session, membership),
        "story": story,
        "log_page": log,
        "fights_page": fights,
        "end_form": SessionEndForm(campaign=membership.campaign),
        "fights": session_fights(session, membership, fights),
    }
    paged_into(context, query, "rows")
    return context | extra


@login_required
@require_GET
def session_detail(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    membership = membership_for(request.user, slug)
    session = get_object_or_404(GameSession, campaign=membership.campaign, number=number)
    return render(
        request, "campaigns/session.html", _session_page(membership, session, request.GET)
    )


@login_required
@require_POST
def devil_rating_set(request: AuthedRequest, slug: str, number: int) -> HttpResponse:
    membership = membership_for(request.user, slug)
    session = get_object_or_404(GameSession, campaign=membership.campaign, number=number)
    form = DevilRatingForm(request.POST)
    character = get_object_or_404(
        Character, pk=as_int(form.data.get("character")), campaign=session.campaign
    )
    set_rating = lambda d: services.devil_rating_set(  # noqa: E731
        session=session, character=character, rating=d["rating"], actor=request.user
    )
    if apply(form, set_rating) and not request.htmx:
        return redirect(reverse("campaigns:session", args=[slug, number]) + "#devils")
    messages_ = [*form.errors.get("rating", []), *form.non_field_errors()]
    errors = {character.pk: " ".join(str(m) for m in messages_)}
    template = "campaigns/session.html#devils" if request.htmx else "campaigns/session.html"
    return render(request, template, _session_page(membership, session, request.GET, errors=errors))
