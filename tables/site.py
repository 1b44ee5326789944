"""The site every declared game plugs into (``tables.game.Game``; docs/architecture.md).

``site.register(game)`` (from the game's ``game.py``, found by ``autodiscover`` for every
installed app) puts the game in "In play now", in the lobby's and the campaign page's games,
and its readings on the Rulings page; ``site.urls()`` gives every game its pages, under
``c/<slug>/<kind>/`` in the namespace ``<kind>``:

=========================  ==========  =================================================
``""``                     ``list``    the table's games of this kind, and starting one
``new/``                   ``new``     start one (POST; once per form)
``<id>/``                  ``detail``  a seat's phone, or a watcher's screen
``<id>/table/``            ``table``   the shared screen (``Game.shared_screen``)
``<id>/story.md``          ``story``   the story to download (``Game.has_story``)
``<id>/version/``          ``version`` the safety-net poll (204 while still)
``<id>/stream/``           ``stream``  the live stream (SSE)
``<id>/move/<action>/``    ``move``    one move (POST), one Django form per move
``invite/``                ``invite``  a one-off table's invitation link (``Game.one_off``)
=========================  ==========  =================================================

and a game whose lobby is a one-off table's (``tables.oneoff``) ``<kind>/new/`` (``oneoff_new``).

The views are plain functions taking the game first; a ``Game`` subclass overrides the one
that differs (``Game.detail_view``…) and adds its own URLs (``Game.extra_urls``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.urls import URLPattern, URLResolver, include, path
from django.utils.module_loading import autodiscover_modules

from campaigns.access import membership_for
from dustdevils.live.tables import LiveTable, Viewer
from tables import codecs, oneoff, pages, rulings, tablegames
from tables.game import Game
from tables.running import RunningTable, Seats, seated_running
from tables.streams import member_table, stream_view


class Site:
    """The registry of declared games."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}
        self._live: dict[str, LiveTable[Any]] = {}

    def register(self, game: Game) -> Game:
        """A game joins the table (see the module docstring). Once per kind."""
        if game.kind in self._games:
            raise ValueError(f"A game of kind {game.kind!r} is registered already.")
        self._games[game.kind] = game
        game.model.KIND = game.kind  # type: ignore[attr-defined]
        from tables import running

        running.register(game.kind, running=partial(running_tables, game), model=game.model)
        tablegames.register(
            tablegames.TableGame(
                kind=game.kind, name=game.name, players=game.players, blurb=game.blurb,
                url_name=f"{game.kind}:list", order=game.order,
            )
        )  # fmt: skip
        rulings.register(*game.rulings)
        if game.codec is not None:
            codecs.register(game.codec(game))
        return game

    def live(self, kind: str) -> LiveTable[Any]:
        """The game's live table (one per process: its open screens are counted on it)."""
        if kind not in self._live:
            self._live[kind] = live_table(self.get(kind))
        return self._live[kind]

    def games(self) -> list[Game]:
        return sorted(self._games.values(), key=lambda g: (g.order, g.name))

    def get(self, kind: str) -> Game:
        return self._games[kind]

    def urls(self) -> list[URLResolver]:
        """Every registered game's URLs, each in its own namespace (its kind)."""
        return [
            path("", include(([
                path(f"c/<slug:slug>/{game.kind}/", include(game_urls(game))), *root_urls(game)
            ], game.kind)))
            for game in self.games()
        ]  # fmt: skip


site = Site()


def autodiscover() -> None:
    """Import every installed app's ``game`` module (each registers its game)."""
    autodiscover_modules("game")


def game_urls(game: Game) -> list[URLPattern]:
    one = f"<int:{game.kind}_id>/"
    views: list[tuple[str, str, Callable[..., Any]]] = [
        ("", "list", pages.game_list),
        ("new/", "new", pages.game_new),
        (one, "detail", pages.detail),
        (one + "version/", "version", pages.version),
        (one + "move/<slug:action>/", "move", pages.act),
    ]
    if game.shared_screen:
        views.append((one + "table/", "table", pages.table))
    if game.has_story:
        views.append((one + "story.md", "story", pages.story))
    if game.one_off:
        views.append(("invite/", "invite", oneoff.invite))
    patterns = [path(route, _bound(view, game), name=name) for route, name, view in views]
    live = site.live(game.kind)
    patterns.append(path(one + "stream/", stream_view(live), name="stream"))
    if game.shared_screen:
        patterns.append(
            path(one + "table/stream/", stream_view(live, as_table=True), name="table_stream")
        )
    return [*patterns, *game.extra_urls()]


def root_urls(game: Game) -> list[URLPattern]:
    """The game's URLs outside a table: a one-off table's ``<kind>/new/``, and its own."""
    made = [path(f"{game.kind}/new/", _bound(oneoff.oneoff_new, game), name="oneoff_new")]
    return [*(made if game.one_off else []), *game.root_urls()]


def _bound(view: Callable[..., Any], game: Game) -> Callable[..., Any]:
    """``view`` closed over ``game`` (its table id passed as ``table_id``), decorated."""
    key = f"{game.kind}_id"

    @wraps(view)
    def bound(request: Any, **kwargs: Any) -> Any:
        if key in kwargs:
            kwargs["table_id"] = kwargs.pop(key)
        return view(game, request, **kwargs)

    for decorator in reversed(getattr(view, "decorators", ())):
        bound = decorator(bound)
    return bound


def running_tables(game: Game, seats: Seats) -> list[RunningTable]:
    """The game's tables in "In play now" (``tables.running``)."""
    mine = game.seat_model._default_manager.filter(
        **{game.fk: OuterRef("pk"), "user_id": seats.user_id}
    )
    return seated_running(
        seats, kind=game.kind, model=game.model, seated=Exists(mine), labels=game.labels,
        url_name=f"{game.kind}:detail",
    )  # fmt: skip


# --- Live ----------------------------------------------------------------------------------------
def live_table(game: Game) -> LiveTable[Any]:
    """The game's screens live, on the one live-table protocol: each screen's main panel
    rendered through the game's per-viewer ``view``, the same partial the page renders (the
    shared screen's for a ``table`` stream: public facts only)."""

    def render_panel(viewer: Viewer, row: Any) -> str:
        user = get_user_model()(pk=viewer.user_id)  # only the key is read: their seat
        context = game.view(row, user, as_table=viewer.as_table)
        context.update(csrf_token=viewer.csrf_token, notice="", error="")
        page = "table" if viewer.as_table else "detail"
        return render_to_string(game.template(page) + "#main", context)

    return member_table(
        kind=game.kind, model=game.model, render=render_panel, admit=membership_for,
        missing=game.missing, load_row=game.screen_row, reads_db=game.screens_query,
    )  # fmt: skip
