"""“In play now”: every running table the viewer is part of, one tap away on every page.

Each game app (conflicts, fights, the saloon, and the games to come) registers its kind of
table here when it is ready (``AppConfig.ready``): how to read, in one query, its tables still
being played that a viewer sits in, and the model whose rows are those tables. So this app
lists every game's tables and imports none of them (campaigns sits below the games).

What counts as over is each model's own ``OVER`` (``Conflict.OVER``, ``Fight.OVER``,
``Saloon.OVER``): a provider excludes those phases and nothing else decides it. Who is part
of a table: a player whose character (or seat) is in it; the Dealer of its campaign, every
table of that campaign. Only campaigns the viewer still sits at.

When a table is set up or ends (``table_saved``, a ``post_save`` receiver connected for each
registered model), the campaign's pages and every member's banner hear of it on commit
(``campaigns.streams``): a nudge, never a card; each page then fetches its banner again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Model, Q
from django.db.models.signals import post_init, post_save
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import urlencode

from campaigns import streams
from campaigns.models import Campaign, Membership

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_RUNNING = 4  # the ribbon stays one line on a phone


@dataclass(frozen=True)
class RunningTable:
    kind: str  # the game's name for its tables: "conflict", "fight", "saloon"
    table_id: int
    title: str
    phase_label: str
    campaign_id: int
    campaign_name: str
    campaign_slug: str
    url: str
    dealer: bool  # the viewer runs it (the Dealer's chair) rather than plays in it
    created_at: datetime

    @property
    def key(self) -> str:
        """``<kind>-<id>``, as the page it is on names it (``here`` below)."""
        return f"{self.kind}-{self.table_id}"


# What a provider reads of each of its tables for ``running_row`` (with ``.values(*ROW)``).
ROW = ("pk", "title", "phase", "created_at", "campaign_id", "campaign__name", "campaign__slug")


def running_row(
    kind: str,
    row: dict[str, Any],
    *,
    url_name: str,
    labels: Mapping[str, StrOrPromise],
    dealer: bool,
) -> RunningTable:
    """A banner entry from a row read with ``ROW``; its URL is ``url_name`` taking the slug and
    ``<kind>_id``, its phase named by ``labels``."""
    return RunningTable(
        kind=kind,
        table_id=row["pk"],
        title=row["title"],
        phase_label=str(labels.get(row["phase"], row["phase"])),  # in the reader's language
        campaign_id=row["campaign_id"],
        campaign_name=row["campaign__name"],
        campaign_slug=row["campaign__slug"],
        url=reverse(url_name, kwargs={"slug": row["campaign__slug"], f"{kind}_id": row["pk"]}),
        dealer=dealer,
        created_at=row["created_at"],
    )


@dataclass(frozen=True)
class Seats:
    """Where the viewer sits: their campaigns, and those of them they deal."""

    user_id: int
    campaign_ids: tuple[int, ...]
    dealing: frozenset[int]


Provider = Callable[[Seats], Iterable[RunningTable]]


@dataclass(frozen=True)
class Game:
    kind: str
    running: Provider  # at most MAX_RUNNING of its tables, newest first, in one query
    model: type[Model]  # its rows are the tables: has ``campaign_id`` and ``is_over``


_GAMES: dict[str, Game] = {}


def register(kind: str, *, running: Provider, model: type[Model]) -> None:
    """A game's tables join the banner; their set-up, end (and a return to play, like the
    saloon's "Continue playing") are announced on commit."""
    _GAMES[kind] = Game(kind, running, model)
    post_init.connect(table_read, sender=model, dispatch_uid=f"running-tables-{kind}")
    post_save.connect(table_saved, sender=model, dispatch_uid=f"running-tables-{kind}")


def table_read(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Whether the table was over when read (not when its phase was deferred: no query here)."""
    if "phase" in instance.__dict__:
        instance._was_over = instance.is_over


def table_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """A table set up (it appears in the banner), ended (it goes: done, folded, cancelled,
    settled by a fight, finished) or back in play. A move that leaves it as it was (running, or
    over) tells nobody."""
    fields = kwargs.get("update_fields")
    if not created and fields is not None and "phase" not in fields:
        return
    over, was = instance.is_over, getattr(instance, "_was_over", None)
    instance._was_over = over
    if created or was is None or was != over:  # None: its phase was not read with it
        streams.announce(instance.campaign_id)  # the campaign page lists them too
        streams.announce_running(instance.campaign_id)


def seated_running(
    seats: Seats,
    *,
    kind: str,
    model: type[Model],
    seated: Any,
    labels: Mapping[str, StrOrPromise],
    url_name: str,
) -> list[RunningTable]:
    """A game's provider whose players sit in seats: its tables not over (``model.OVER``) in the
    viewer's campaigns where ``seated`` (an ``Exists`` of the viewer's seat at ``OuterRef("pk")``)
    holds, and every one of a campaign they host, newest first; ``dealer`` when they only host
    it (the lobby takes a seated guest to their seat: ``new_seat``). One query."""
    rows = (
        model._default_manager.filter(campaign_id__in=seats.campaign_ids)
        .exclude(phase__in=model.OVER)  # type: ignore[attr-defined]
        .annotate(seated=seated)
        .filter(Q(campaign_id__in=seats.dealing) | Q(seated=True))
        .values(*ROW, "seated")
        .order_by("-created_at", "-pk")
    )[:MAX_RUNNING]
    return [
        running_row(kind, row, url_name=url_name, labels=labels, dealer=not row["seated"])
        for row in rows
    ]


def running_for(user: User | AnonymousUser, campaign: Campaign | None = None) -> list[RunningTable]:
    """The tables still being played that ``user`` is part of, every game's, newest first (at
    most ``MAX_RUNNING``); only ``campaign``'s if given. One query per game, and one for the
    seats."""
    if not user.is_authenticated:
        return []
    rows = Membership.objects.filter(user_id=user.pk)
    if campaign is not None:
        rows = rows.filter(campaign=campaign)
    sitting = list(rows.values_list("campaign_id", "role"))
    if not sitting:
        return []
    seats = Seats(
        user_id=user.pk,
        campaign_ids=tuple(c for c, _ in sitting),
        dealing=frozenset(c for c, role in sitting if role == Membership.Role.DEALER),
    )
    tables = [table for game in _GAMES.values() for table in game.running(seats)]
    tables.sort(key=lambda t: (t.created_at, t.kind, t.table_id), reverse=True)
    return tables[:MAX_RUNNING]


@dataclass(frozen=True)
class Banner:
    """What a page's ribbon needs: its tables (read lazily: only when a template shows them),
    the URL it fetches itself again from, and its stream (``since``: when it was rendered)."""

    tables: Any
    url: str
    stream: str


def banner(user: User, *, here: str = "", shown: str = "") -> Banner:
    """The ribbon of a page: not the table this page is (``here``: ``<kind>-<id>``), nor those
    of the campaign whose page lists them itself (``shown``: its slug)."""

    def read() -> list[RunningTable]:
        return [
            t
            for t in running_for(user)
            if t.key != here and (not shown or t.campaign_slug != shown)
        ]

    query = {k: v for k, v in (("here", here), ("shown", shown)) if v}
    since = time.time_ns() // 1000  # the broadcaster's clock (live.publish_on_commit)
    return Banner(
        tables=SimpleLazyObject(read),
        url=reverse("campaigns:running") + (f"?{urlencode(query)}" if query else ""),
        stream=f"{reverse('campaigns:running_stream')}?since={since}",
    )


def here_of(kwargs: dict[str, Any]) -> str:
    """The table a page is, from its URL's arguments (``conflict_id``, ``fight_id``…)."""
    for kind in _GAMES:
        table_id = kwargs.get(f"{kind}_id")
        if table_id is not None:
            return f"{kind}-{table_id}"
    return ""


def seats_in_play(user: User, campaign: Campaign) -> str:
    """The tables in play at ``campaign`` where ``user`` plays, as a lobby remembers them
    (``<kind>-<id>,…``): any game's (``new_seat``)."""
    return ",".join(t.key for t in running_for(user, campaign) if not t.dealer)


def new_seat(user: User, campaign: Campaign, known: str | None) -> RunningTable | None:
    """A table in play at ``campaign`` where ``user`` plays that the lobby did not show when it
    was last drawn (``known``, from ``seats_in_play``): the host started it for them, whatever
    the game. None when ``known`` was not sent."""
    if known is None:
        return None
    seen = set(known.split(","))
    for table in running_for(user, campaign):
        if not table.dealer and table.key not in seen:
            return table
    return None
