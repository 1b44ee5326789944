"""Dust Devils conflicts at the table: their declaration on the site (``tables.game.Game``;
docs/architecture.md, "The site").

The site gives a conflict (its ``kind`` "conflict", its ``app`` "conflicts") what every game
has: its URLs under ``c/<slug>/conflicts/`` in the namespace ``conflicts``, the safety-net
poll and the live streams, "In play now". What is the conflict's own it overrides, as a
``ModelAdmin`` does:

* its table (``table``): the pipeline's ``ConflictTable`` (``conflicts.services.moves``): the
  whole table read (``conflicts.reads.table_read``), a move of one hand based on that hand;
* its pages (``conflicts.pages``): the list, the Dealer's set-up wizard, the Dealer's console or
  the player's view (``detail``: one person may hold several hands, each move scoped to its
  hand), the shared screen, the moves (one Django form per move, ``conflicts.forms.ACTIONS``,
  a hand's ``pid`` in the form: who may play it is the service's check), and its own URLs: the
  advisor's odds fragment, deal again (R20), the narration, the replay, the Rulings page;
* its live table (``conflicts.streams``) and its "In play now" rows: a hand is held by a
  character, so "seated" is the character's player, or the campaign's Dealer.

Every screen is made from ``conflicts.selectors.conflict_view`` (``view``), the one place a
viewer's cards are chosen (R10).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar

from django.contrib.auth.models import User
from django.db.models import F, Q
from django.urls import URLPattern, path

from campaigns.models import Membership
from conflicts import pages
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.forms import ACTIONS
from conflicts.models import Conflict, Event, MoveKey, Seat
from conflicts.reads import table_read
from conflicts.selectors import conflict_view
from conflicts.services.moves import CONFLICTS, ConflictTable, hand_basis
from tables.game import Game
from tables.running import MAX_RUNNING, ROW, RunningTable, Seats, running_row
from tables.site import site


class Conflicts(Game):
    kind = "conflict"  # conflict_id, the live channel conflict-<id>, "conflict-moved"
    app = "conflicts"  # its URLs c/<slug>/conflicts/…, the namespace conflicts:, its templates
    name = "Conflict"
    blurb = "A Dust Devils conflict: the Dealer sets the hands up, each plays their own."
    missing = "No such conflict in this campaign."
    no_seat = "No such hand in this conflict."
    # The engine's phases still being played, as "In play now" names them.
    labels: ClassVar[dict[str, str]] = {
        Conflict.Phase.SIZING: "sizing the Deal",
        Conflict.Phase.DRAW: "the Draw",
        Conflict.Phase.LAYING: "the Call",
        Conflict.Phase.RESOLUTION: "the result",
    }
    # Set up by the Dealer from the campaign's pages, not started from a table's lobby; its
    # rulings come first on the Rulings page (``ConflictsConfig.ready``).
    in_lobby = False
    shared_screen = True
    host_acts_for = False  # the Dealer plays the NPC and stud hands as their own

    model = Conflict
    seat_model = Seat
    line_model = Event
    key_model = MoveKey
    fk = "conflict"
    # One Django form per move (the kit's ``MoveForm``): a move of a hand, its ``pid`` in the
    # form, made by ``move(seats)`` (not a seat's ``GameMove``: one person plays several hands).
    moves = ACTIONS  # type: ignore[assignment]

    # Its pages (``tables.site``: ``<name>_view`` overrides the site's).
    list_view = pages.conflict_list
    new_view = pages.conflict_new
    detail_view = pages.detail
    table_view = pages.table
    act_view = pages.act

    @cached_property
    def table(self) -> ConflictTable:
        return CONFLICTS

    def live(self) -> Any:
        from conflicts.streams import CONFLICTS as LIVE

        return LIVE

    def extra_urls(self) -> list[Any]:
        one = "<int:conflict_id>/"
        return [
            path(one + "advice/", pages.advice, name="advice"),
            path(one + "again/", pages.deal_again, name="again"),
            path(one + "narrate/", pages.narrate, name="narrate"),
            path(one + "replay/", pages.replay, name="replay"),
        ]

    def root_urls(self) -> list[URLPattern]:
        return [path("rulings/", pages.rulings, name="rulings")]

    # --- The engine, as the kit's tests and tools read it -------------------------------------
    def load(self, data: Any) -> engine.ConflictState:
        return state_from_data(data)

    def dump(self, state: engine.ConflictState) -> Any:
        return state_to_data(state)

    def seat_name(self, state: engine.ConflictState, pid: str) -> str | None:
        return next((p.name for p in state.participants if p.pid == pid), None)

    def basis(self, state: engine.ConflictState, pid: str) -> str:
        return hand_basis(state, pid)

    def view(self, row: Any, user: User | None, *, as_table: bool = False) -> dict[str, Any]:
        """One viewer's screen, through the one choke point (R10): a member's role at the
        conflict's campaign (no role: the shared screen's public facts)."""
        read = table_read(row.pk)
        assert read is not None
        role = read.roles.get(user.pk) if user is not None else None
        if role is None:
            as_table, role = True, Membership.Role.PLAYER
        membership = Membership(campaign=read.campaign, user=user, role=role)
        return conflict_view(read, membership, as_table=as_table)

    def running(self, seats: Seats) -> list[RunningTable]:
        """Those not over and not left abandoned in which the viewer plays a hand (their
        character's) or deals (the Dealer of the campaign)."""
        rows = (
            Conflict.objects.filter(campaign_id__in=seats.campaign_ids)
            .exclude(phase__in=Conflict.OVER)
            # Not one the sweep marked abandoned, unless a move since has taken it up again.
            .filter(Q(abandoned_at__isnull=True) | Q(abandoned_at__lt=F("last_move_at")))
            .filter(Q(campaign_id__in=seats.dealing) | Q(seats__character__player_id=seats.user_id))
            .values(*ROW)
            .distinct()
            .order_by("-created_at", "-pk")
        )
        return [
            running_row(
                self.kind,
                row,
                url_name="conflicts:detail",
                labels=self.labels,
                dealer=row["campaign_id"] in seats.dealing,
            )
            for row in rows[:MAX_RUNNING]
        ]


CONFLICT = site.register(Conflicts())
