"""Dust Devils combat rounds on the action deck (seed 004) at the table: their declaration
(``tables.game.Game``). The rules live in ``fights.engine.action_deck``; every move is one
Django form (``fights.forms.ACTIONS``); every screen is made in ``fights.selectors.fight_view``
(R30: the one per-viewer choke point) from the fight as ``fights.reads.load_fight`` reads it.

The site serves a fight's console or phone (``detail``), the shared screen, the safety-net poll
and the live streams, and moves it through the kit's pipeline (``Game.table``). What is the
fight's own (``fights.views``): its seats are combatants (characters and lines of extras, by
``cid``), not the table's users, so its list, "In play now" and the moves are its own — the
Dealer runs the round and plays every combatant, a player only their own player character;
the Dealer's new-fight form (a fight may start from a conflict, R32); bringing someone in;
secret timeline lines for the Dealer and the players of the characters they name (R30).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Q, prefetch_related_objects
from django.urls import path, reverse

from campaigns.models import Membership
from fights import views
from fights.codec import FightCodec
from fights.engine import action_deck as engine
from fights.engine.serial import state_from_data, state_to_data
from fights.forms import ACTIONS
from fights.models import Fight, FightEvent, FightMoveKey, FightSeat
from fights.reads import KIND, combatant_basis, fight_from, load_fight
from fights.selectors import fight_view
from tables.forms import GameMove
from tables.game import Game
from tables.running import MAX_RUNNING, RunningTable, Seats
from tables.site import site

# The phases still being played, as "In play now" names them.
PHASE_LABELS = {
    engine.Phase.QUICKNESS.value: "Quickness rolls",
    engine.Phase.COUNTDOWN.value: "the countdown",
}


class Fights(Game):
    kind = KIND
    app = "fights"  # its URLs c/<slug>/fights/…, the namespace fights:, its templates
    name = "A fight"
    blurb = "combat rounds on the action deck"
    missing = "No such fight in this campaign."
    labels: ClassVar[Mapping[str, str]] = PHASE_LABELS
    model, seat_model, line_model, key_model = Fight, FightSeat, FightEvent, FightMoveKey
    fk = "fight"
    codec = FightCodec
    # One form per move (``GameMove``; the Dealer's are ``host_only``): a move about one
    # combatant names it (``cid``), and the services judge who may play it (its own ``act``).
    moves: ClassVar[Mapping[str, type[GameMove]]] = ACTIONS
    in_lobby = False  # the Dealer starts a fight from a session, not from the table's games
    shared_screen = True
    host_acts_for = False  # the Dealer plays every combatant as the Dealer, not for a seat
    screens_query = False  # every screen is made from ``screen_row`` alone

    # The fight's own pages (``fights.views``).
    list_view = views.fight_list
    new_view = views.fight_new
    act_view = views.act

    def extra_urls(self) -> list[Any]:
        return [
            path("<int:fight_id>/join/", views.fight_join, name="join"),
            path("quickness/<int:character_id>/", views.quickness_dice, name="quickness_dice"),
        ]

    # --- The engine -------------------------------------------------------------------------
    def load(self, data: Any) -> engine.FightState:
        return state_from_data(data)

    def dump(self, state: Any) -> Any:
        return state_to_data(state)

    def seat_name(self, state: Any, pid: str) -> str | None:
        """The combatant ``pid`` (its cid)'s name."""
        try:
            return str(state.combatant(pid).name)
        except engine.IllegalMove:
            return None

    def basis(self, state: Any, pid: str) -> str:
        return combatant_basis(state, pid)

    # --- Reads --------------------------------------------------------------------------------
    def read_rows(self, rows: Any) -> Fight | None:
        return fight_from(rows)  # what its screens read: the answer needs no other read

    def page_row(self, table_id: int, campaign: Any) -> Fight | None:
        return load_fight(table_id, campaign)

    def screen_row(self, table_id: int) -> Fight | None:
        """The fight as its screens read it, with its campaign's members (their roles): four
        queries, once per version, whoever looks."""
        fight = load_fight(table_id)
        if fight is not None:
            prefetch_related_objects([fight], "campaign__memberships")
        return fight

    def view(self, row: Any, user: User | None, *, as_table: bool = False) -> dict[str, Any]:
        return fight_view(row, member(row, user), as_table=as_table)

    def running(self, seats: Seats) -> list[RunningTable]:
        """The fights not over in which the viewer's character fights, or that they run (the
        campaign's Dealer)."""
        rows = (
            Fight.objects.filter(campaign_id__in=seats.campaign_ids)
            .exclude(phase__in=Fight.OVER)
            .filter(Q(campaign_id__in=seats.dealing) | Q(seats__character__player_id=seats.user_id))
            .values("pk", "title", "phase", "round", "created_at", "campaign_id",
                    "campaign__name", "campaign__slug")
            .distinct()
            .order_by("-created_at", "-pk")
        )  # fmt: skip
        return [self._running(row, seats) for row in rows[:MAX_RUNNING]]

    def _running(self, row: Mapping[str, Any], seats: Seats) -> RunningTable:
        phase = PHASE_LABELS.get(row["phase"], row["phase"])
        return RunningTable(
            kind=KIND, table_id=row["pk"], title=row["title"],
            phase_label=f"round {row['round']}, {phase}", campaign_id=row["campaign_id"],
            campaign_name=row["campaign__name"], campaign_slug=row["campaign__slug"],
            url=reverse("fights:detail", args=[row["campaign__slug"], row["pk"]]),
            dealer=row["campaign_id"] in seats.dealing, created_at=row["created_at"],
        )  # fmt: skip


def member(fight: Fight, user: User | None) -> Membership:
    """The viewer's membership of the fight's campaign: from the members ``screen_row`` read,
    else asked for (a page's viewer is a member: ``tables.play.load``)."""
    if user is None:
        raise PermissionDenied("Only the campaign's members see its fights.")
    user_id, campaign = user.pk, fight.campaign
    if "memberships" in getattr(campaign, "_prefetched_objects_cache", {}):
        found = next((m for m in campaign.memberships.all() if m.user_id == user_id), None)
    else:
        found = Membership.objects.filter(campaign=campaign, user_id=user_id).first()
    if found is None:
        raise PermissionDenied("Only the campaign's members see its fights.")
    found.campaign = campaign  # read with the fight: no query for it
    return found


FIGHTS = site.register(Fights())
