"""A game is one declaration (docs/architecture.md, "The site").

A game at the table subclasses ``Game`` once, in its app's ``game.py``, and registers an
instance with the site (``tables.site.site.register``). It declares what is its own:

* who it is: ``kind`` (its live channel and "In play now" kind, and its URL namespace, pages'
  URL and templates' folder unless ``app`` names another: the conflicts' kind is "conflict",
  their app "conflicts"), ``name``, ``players``, ``blurb``, ``order``; the phases' ``labels``;
  its ``rulings``;
* its models, on the kit's bases (``TableRow``, ``TableSeat``, ``TimelineLine``,
  ``MoveKeyBase``); the foreign key of seats, lines and keys to the row is ``fk``;
* its engine: ``new_state`` (a new game's state and opening events), ``apply`` (a move),
  ``load``/``dump`` (the state to and from the row's JSON), ``seat_name`` and ``basis``
  (what a seat's move is based on), ``lines`` (events as timeline lines), ``note`` (an event
  the kit writes: the host acting for a seat);
* its forms: ``new_form`` (a ``NewGameForm``) and ``moves``, one Django form per move
  (``GameMove``: its ``move(pid, now_ms)`` is the engine's move for the mover's seat);
* its screens: ``screen`` (its part of a viewer's context, from the engine's per-viewer view;
  ``view`` adds what every screen has), for the host ``proxies`` (the seats they may act for),
  and the templates ``<app>/list.html`` and ``<app>/detail.html`` (with a ``main``
  partial), optionally ``<app>/table.html`` (``shared_screen``) and the story
  (``story_markdown``); ``one_off`` when its list page is a one-off table's lobby.

The site (``tables.site``) builds the rest from it: the views, their URLs, the live table, the
"In play now" provider, the lobby's games list, the Rulings entries. A game overrides a page
only where it really differs, as a method ``<name>_view(request, slug, …)`` marked like the
site's own (``tables.pages.page``; think ``ModelAdmin``), "In play now" (``running``) where
its seats are not the site's users at a table, its pipeline's ``table`` and its ``live`` table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from django.contrib.auth.models import User
from django.db import models
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from tables.errors import readable
from tables.forms import GameMove, NewGameForm, md
from tables.moves import Table
from tables.seating import hosts, viewer_pid

if TYPE_CHECKING:
    from tables.words import Text


class GameTable(Table[Any]):
    """A declared game's table, as the move pipeline (``tables.moves``) needs it (made by
    ``Game.table``: a subclass with the game's models)."""

    game: ClassVar[Game]

    reads_rows = True  # the kit's lock folds into the read's statement

    def read(self, table_id: int) -> Any:
        return self.game.read(table_id)

    def read_rows(self, rows: models.QuerySet[Any]) -> Any:
        return self.game.read_rows(rows)

    def row(self, read: Any) -> Any:
        return self.game.row(read)

    def basis(self, read: Any, scope: str) -> str:
        return self.game.basis(self.game.load(self.row(read).state), scope)


class Game:
    """A game at the table (the module's docstring). Subclass it and fill in what is yours."""

    kind: ClassVar[str]
    # Its URL namespace, its pages' URL (``c/<slug>/<app>/``) and its templates' folder, when
    # not ``kind`` (``namespace``).
    app: ClassVar[str] = ""
    name: ClassVar[str]
    players: ClassVar[Text] = ""  # "2–6 players"
    blurb: ClassVar[Text] = ""
    order: ClassVar[int] = 100
    missing: ClassVar[Text] = _("No such game at this table.")
    no_seat: ClassVar[Text] = _("No such player at this game.")
    labels: ClassVar[Mapping[str, Text]] = {}
    rulings: ClassVar[Sequence[Any]] = ()

    model: ClassVar[type[models.Model]]
    seat_model: ClassVar[type[models.Model]]
    line_model: ClassVar[type[models.Model]]
    key_model: ClassVar[type[models.Model]]
    fk: ClassVar[str]

    # Its codec in the campaign file (tables.codecs; a class taking the game, e.g. a
    # ``tables.seated.SeatedCodec``), registered by the site.
    codec: ClassVar[Any] = None

    new_form: ClassVar[type[NewGameForm]] = NewGameForm
    moves: ClassVar[Mapping[str, type[GameMove]]] = {}

    # The flash after a new game, and the opening line ({actor}: who started it).
    # (Marked for the catalogue: each is translated where it is shown, the opening line in
    # each reader's language.)
    started: ClassVar[str] = gettext_noop("The game is on.")
    opening: ClassVar[str] = gettext_noop("{actor} starts a game of {name}.")
    # Listed among the games a table starts (the lobby, the campaign page).
    in_lobby: ClassVar[bool] = True
    # The partial of the list page that htmx asks for again (a one-off table's lobby).
    lobby_partial: ClassVar[str] = "lobby"
    # A shared screen (``<app>/table.html``) and a story to download.
    shared_screen: ClassVar[bool] = False
    has_story: ClassVar[bool] = False
    # The host may act for a seat whose phone is gone (the timeline says so).
    host_acts_for: ClassVar[bool] = True
    # Its list page is a one-off table's lobby (``tables.oneoff``): a new table's name when
    # none is given ({host}: who opens it), and what its invitation links say.
    one_off: ClassVar[bool] = False
    one_off_name: ClassVar[str] = "{host}’s table"
    invite_label: ClassVar[str] = "A seat at the table"
    # The move's server time: read when it arrives (a race's claim) or under the lock.
    time_on_arrival: ClassVar[bool] = False
    # A live screen still reads the database (its viewer's seat…: rendered in a worker
    # thread), or is made from ``screen_row`` alone (in the event loop).
    screens_query: ClassVar[bool] = True

    @property
    def namespace(self) -> str:
        """Its URL namespace, its pages' URL segment and its templates' folder."""
        return self.app or self.kind

    @cached_property
    def table(self) -> Table[Any]:
        """This game's table as the move pipeline moves it."""
        made = type(
            f"{type(self).__name__}Table", (GameTable,),
            {"game": self, "model": self.model, "key_model": self.key_model,
             "line_model": self.line_model, "fk": self.fk, "channel": self.kind,
             "missing": self.missing},
        )  # fmt: skip
        return made()  # type: ignore[no-any-return]

    def live(self) -> Any:
        """Its own ``LiveTable`` (None: the site's, ``tables.site.live_table``)."""
        return None

    def running(self, seats: Any) -> list[Any] | None:
        """Its tables in "In play now" for ``seats`` (``tables.running.Seats``); None: the
        site's, from the seats' users (``tables.site.running_tables``)."""
        return None

    @property
    def event_name(self) -> str:
        """The htmx event on which a page refreshes its main panel (the safety-net poll)."""
        return f"{self.kind}-moved"

    @property
    def panel_id(self) -> str:
        return f"{self.kind}-main"

    def template(self, page: str) -> str:
        return f"{self.namespace}/{page}.html"

    # --- The engine -------------------------------------------------------------------------
    def new_state(
        self, seats: list[tuple[str, str]], data: Mapping[str, Any], pid_of: Mapping[int, str],
        rng: random.Random,
    ) -> tuple[Any, Sequence[Any]]:  # fmt: skip
        """A new game's state and its opening events, for ``seats`` ((pid, name), clockwise),
        the new-game form's ``data`` and ``pid_of`` (user id to pid). Raises ``IllegalMove``."""
        raise NotImplementedError

    def apply(self, state: Any, move: Any, rng: random.Random) -> tuple[Any, Sequence[Any]]:
        """The engine's move: the state after it and the events it made."""
        raise NotImplementedError

    def load(self, data: Any) -> Any:
        raise NotImplementedError

    def dump(self, state: Any) -> Any:
        raise NotImplementedError

    def phase(self, state: Any) -> str:
        return str(state.phase.value)

    def seat_name(self, state: Any, pid: str) -> str | None:
        """The name of the seat ``pid`` in ``state`` (None: no such seat)."""
        raise NotImplementedError

    def basis(self, state: Any, pid: str) -> str:
        """What a move of seat ``pid`` is based on (``tables.moves.basis_of``; "" if no seat)."""
        raise NotImplementedError

    def note(self, text: str, pid: str = "") -> Any:
        """An event the kit writes (the opening, the host acting for a seat)."""
        raise NotImplementedError

    def lines(self, events: Sequence[Any], actor: User, state: Any) -> list[dict[str, Any]]:
        """Events as the line model's fields (text, actor, and the game's own)."""
        return [{"text": e.text, "actor": actor} for e in events]

    def notice(self, lines: Sequence[Any]) -> str:
        """What a move did, from the lines it wrote (the answer's message)."""
        return " ".join(line.text for line in lines)

    def row_fields(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A new row's own fields beside the kit's (a title…), from the new-game form."""
        return {}

    # --- Reads --------------------------------------------------------------------------------
    def read(self, table_id: int) -> Any:
        """The table, read after the pipeline's lock."""
        return self.read_rows(self.model._default_manager.filter(pk=table_id))

    def read_rows(self, rows: models.QuerySet[Any]) -> Any:
        """The table in ``rows`` (None: not there), its row locked by the pipeline as it is
        read (``tables.moves.Table.read_rows``)."""
        return rows.select_related("campaign").first()

    def row(self, read: Any) -> Any:
        return read

    def page_row(self, table_id: int, campaign: Any) -> Any:
        """The table as a page of it reads it (None: no such table at ``campaign``)."""
        tables = self.model._default_manager.select_related("campaign")
        return tables.filter(pk=table_id, campaign=campaign).first()

    def screen_row(self, table_id: int) -> Any:
        """The row every live screen of a table is made from, read once per version by its
        stream (None: no such table): with its campaign, its seats, its campaign's members and
        its ``timeline``, in the row's caches — four queries, whoever looks. A game whose
        ``screen`` reads nothing more says ``screens_query = False``: its live screens then
        query nothing (rendered in the event loop)."""
        rows = self.model._default_manager.select_related("campaign")
        row: Any = rows.filter(pk=table_id).first()
        if row is not None:
            state = readable(self.load, row.state)
            shown = Prefetch("lines", self.timeline(row, state), to_attr="shown_lines")
            prefetch_related_objects([row], "seats", "campaign__memberships", shown)
        return row

    def view(self, row: Any, user: User | None, *, as_table: bool = False) -> dict[str, Any]:
        """One viewer's screen's context (``as_table``: the shared screen, public facts only,
        whoever looks), from the state as stored (``readable``: 409 if it cannot be read). What
        every screen has: the row (under ``fk``), its ``campaign`` and ``version``, the viewer's
        seat ``me`` (None: they watch), whether they ``host``, the ``phase``, ``is_over``, the
        timeline's ``lines``, the ``proxies`` the host may act for (``host_acts_for``), and
        what ``{% move_form %}`` needs: ``move_base`` and ``bases``, the viewer's own seat's
        ``basis`` only. Then the game's own, made from the engine's per-viewer view (``screen``).
        Seats and members are read from the row's caches when ``screen_row`` filled them."""
        state = readable(self.load, row.state)
        me = None if as_table else viewer_pid(row, user)
        host = not as_table and hosts(row.campaign, user)
        basis = self.basis(state, me) if me else ""
        phase, shown = self.phase(state), getattr(row, "shown_lines", None)
        context: dict[str, Any] = {
            self.fk: row,
            "campaign": row.campaign,
            "version": row.version,
            "as_table": as_table,
            "me": me,
            "host": host,
            "phase": phase,
            "is_over": phase in row.OVER,
            "basis": basis,
            "move_base": self.move_base(row),
            "scope_field": "pid",
            "bases": {me: basis} if me else {},
            "proxies": self.proxies(state, me) if host and self.host_acts_for else [],
            "lines": list(self.timeline(row, state)) if shown is None else shown,
        }
        context.update(self.screen(state, me, context))
        return context

    def screen(self, state: Any, me: str | None, context: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own part of a screen's context (``view``), from the engine's per-viewer
        view of ``state`` for the seat ``me`` (None: a watcher, or the shared screen)."""
        raise NotImplementedError

    def proxies(self, state: Any, me: str | None) -> list[dict[str, Any]]:
        """For the host: each other seat that must act now and what it may do (its phone may be
        gone), read from the full ``state``; its forms carry no basis (``tables.play.move``)."""
        return []

    def timeline(self, row: Any, state: Any) -> models.QuerySet[Any]:
        """The timeline's lines a screen shows, newest first (``screen_row`` reads them once
        per version for the live screens)."""
        return self.line_model._default_manager.filter(**{self.fk: row}).order_by("-seq")[:60]

    def list_context(self, membership: Any, form: Any = None) -> dict[str, Any]:
        """What the list page shows beside the kit's context (``form``: a refused start's)."""
        return {}

    def story_markdown(self, row: Any) -> str:
        """The game's story as Markdown (``has_story``): who sat where, every public line in
        order (``in_story``), and what the game adds at the end (``story_end``). Only what the
        timeline holds: nothing that was never shown."""
        state = self.load(row.state)
        seats = row.seats.order_by("position").values_list("pid", flat=True)
        out = [
            f"# {md(str(row))}",
            "",
            f"*{md(row.campaign.name)}*",
            "",
            "## " + gettext("At the table"),
            "",
        ]
        out += [f"- {md(self.seat_name(state, pid) or pid)}" for pid in seats]
        out += ["", "## " + gettext("What happened"), ""]
        lines = row.lines.order_by("seq")  # each in the reader's language
        out += [
            f"- {md(getattr(line, 'shown', line.text))}" for line in lines if self.in_story(line)
        ]
        return "\n".join([*out, *self.story_end(state)]) + "\n"

    def in_story(self, line: Any) -> bool:
        return True

    def story_end(self, state: Any) -> list[str]:
        """The story's last lines (the scores…), as Markdown."""
        return []

    def extra_urls(self) -> list[Any]:
        """The game's own URLs beside the site's (in its namespace, under its base)."""
        return []

    def root_urls(self) -> list[Any]:
        """The game's own URLs in its namespace outside a table (not under ``c/<slug>/``)."""
        return []

    def move_base(self, row: Any) -> str:
        """The URL of a move named ``ACTION`` at ``row`` (``{% move_form %}`` fills it in)."""
        from django.urls import reverse

        kwargs = {"slug": row.campaign.slug, f"{self.kind}_id": row.pk, "action": "ACTION"}
        return reverse(f"{self.namespace}:move", kwargs=kwargs)
