"""The one read of a saloon game's table, as its screens show it: ``saloon_read(saloon_id)``.

The game with its campaign, the members' roles (who hosts), who sits in which seat, and the
timeline as the screens show it — four queries, once per version, whoever looks: the live
streams render every screen of a game from one read (in the event loop, with no query), and a
screen's context is made from it by the per-viewer choke point ``selectors.saloon_view``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.db.models import Q

from campaigns.models import Membership
from saloon.engine import game as g
from saloon.engine.serial import state_from_data
from saloon.models import Saloon, SaloonLine, SaloonSeat
from tables.errors import readable

STORY_KINDS = ("question", "cue", "answer", "follow_up", "tell")


@dataclass(frozen=True)
class SaloonRead:
    """A game as read at one version (shared by every screen of it: nothing may change it)."""

    saloon: Saloon  # with its campaign
    roles: Mapping[int, str]  # user id -> Membership.Role of everyone in the campaign
    seats: Mapping[int, str]  # user id -> their seat's pid
    lines: tuple[SaloonLine, ...]  # the timeline as the screens show it (``lines_of``)

    @property
    def version(self) -> int:
        return int(self.saloon.version)

    def is_host(self, user_id: int | None) -> bool:
        return self.roles.get(user_id or 0) == Membership.Role.DEALER


def lines_of(saloon: Saloon, state: g.SaloonState) -> list[SaloonLine]:
    """The timeline as screens show it: the rule lines of the current deal (an earlier deal's
    cards have been dealt out again, hidden) and every line of the story."""
    rows = SaloonLine.objects.filter(saloon=saloon).filter(
        Q(deal=state.deal) | Q(kind__in=STORY_KINDS) | Q(deal__lt=1)
    )
    return list(rows.order_by("-seq")[:80])


def saloon_read(saloon_id: int) -> SaloonRead | None:
    """The game, or None when there is no such game."""
    saloon = Saloon.objects.select_related("campaign").filter(pk=saloon_id).first()
    if saloon is None:
        return None
    state = readable(state_from_data, saloon.state)  # 409 if it cannot be read
    members = Membership.objects.filter(campaign_id=saloon.campaign_id)
    seats = SaloonSeat.objects.filter(saloon=saloon)
    return SaloonRead(
        saloon=saloon,
        roles=dict(members.values_list("user_id", "role")),
        seats=dict(seats.values_list("user_id", "pid")),
        lines=tuple(lines_of(saloon, state)),
    )


def carried_on(read: SaloonRead, lines: Sequence[SaloonLine]) -> SaloonRead:
    """``read`` — taken under a move's lock, its row since saved by the move — with the
    timeline ``saloon_read`` would read now: the move's ``lines`` added, shown as
    ``lines_of`` shows them. The mover's answer needs no second read."""
    deal = readable(state_from_data, read.saloon.state).deal
    shown = [
        line
        for line in (*lines, *read.lines)
        if line.deal == deal or line.kind in STORY_KINDS or line.deal < 1
    ]
    shown.sort(key=lambda line: -line.seq)
    return replace(read, lines=tuple(shown[:80]))
