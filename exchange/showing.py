"""Every conflict an import writes is shown to every kind of viewer before the import commits
(issue 28): the engine's loader reads each state (``exchange.conflict_checks``), and then, in the
import's own transaction, each conflict's page is made as its screens make it — the Dealer's
console, the phone of each player with a hand in it, a player watching without one, the shared
table screen — and, once it is over, its replay at every step. A state the screens cannot show
(a value the engine took but a page trips on) refuses the file, naming the conflict, and the
transaction rolls back: nothing is written. So no file can leave a table that answers 500.
"""

from __future__ import annotations

import json

from django.contrib.auth.models import User
from django.template.loader import render_to_string

from campaigns.models import Campaign, Membership
from conflicts.models import Conflict, Seat
from conflicts.reads import TableRead, table_read
from conflicts.selectors import conflict_view
from conflicts.selectors.replay import replay_snapshots, replay_view
from conflicts.selectors.view import conflict_links


def unshowable(campaign: Campaign, dealer: User) -> list[str]:
    """The problems, one per conflict of ``campaign`` (in the file's order) that some viewer's
    page cannot show; [] when every page shows. A state shown once (the same state, the same
    seats) is not shown again: the pages would be the same."""
    problems: list[str] = []
    shown: set[str] = set()
    seats: dict[int, list[tuple[str, int | None]]] = {}
    for conflict_id, pid, character_id in Seat.objects.filter(
        conflict__campaign=campaign
    ).values_list("conflict_id", "pid", "character_id"):
        seats.setdefault(conflict_id, []).append((pid, character_id))
    conflicts = campaign.conflicts.order_by("pk").values_list("pk", "phase", "state")
    for index, (conflict_id, phase, state) in enumerate(conflicts):
        seen = json.dumps([phase, state, sorted(seats.get(conflict_id, []))], sort_keys=True)
        if seen in shown:
            continue
        shown.add(seen)
        read = table_read(conflict_id)
        if read is None:  # pragma: no cover - written in this same transaction
            continue
        try:
            _show(read, dealer)
        except Exception as error:  # noqa: BLE001 — whatever a page trips on, the file is refused
            reason = f"{type(error).__name__}: {error}"[:200]
            problems.append(
                f"conflicts[{index}].state: the engine loads it, but its page cannot be shown "
                f"({reason})"
            )
    return problems


def _show(read: TableRead, dealer: User) -> None:
    campaign = read.conflict.campaign
    seats = [
        Membership(campaign=campaign, user=dealer, role=Membership.Role.DEALER),
        *(
            Membership(campaign=campaign, user_id=player_id, role=Membership.Role.PLAYER)
            for player_id in {s.character.player_id for s in read.seats if s.character}
            if player_id is not None
        ),
        Membership(campaign=campaign, user_id=0, role=Membership.Role.PLAYER),  # a watcher
    ]
    # The main panel (what depends on the state; the page around it is the same for any
    # conflict), for each viewer, and the shared screen.
    for membership in seats:
        render_to_string("conflicts/detail.html#main", conflict_view(read, membership))
    render_to_string("conflicts/table.html#main", conflict_view(read, seats[0], as_table=True))
    if read.conflict.phase in Conflict.OVER:
        # Once it is over every viewer sees every card of each step (R10): one viewer's steps.
        snapshots = replay_snapshots(read.conflict)
        for index in range(len(snapshots)):
            context = replay_view(read, snapshots, seats[0], index)
        if snapshots:  # the page itself, once: the steps differ only in their cards
            context["links"] = conflict_links(campaign.slug, read.conflict.pk)
            render_to_string("conflicts/replay.html", context)
