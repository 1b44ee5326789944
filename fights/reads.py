"""The one read of a fight's table: ``load_fight(fight_id)``, and ``carried_on``: the same read
carried past a move (the move's own read, taken under the lock, with the lines the move wrote),
so the mover's answer needs no second read; the table the kit moves (``fights_table``) and what
a combatant's move is based on (``combatant_basis``)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects

from campaigns.models import Campaign
from fights.engine import action_deck as engine
from fights.models import Fight, FightEvent, FightSeat
from tables.moves import Table, basis_of

KIND = "fight"  # the declared game's kind: one fight's ``fight_id``, live channel, "In play now"


def load_fight(fight_id: int, campaign: Campaign | None = None) -> Fight | None:
    """The fight (in that campaign) as its screens read it: the row with its campaign and
    session, its seats with their characters, and the timeline of this round (and of the last
    move: the end of the round before) — the whole timeline once the fight is over. Every screen
    of a busy fight reads it after every move, so the earlier rounds' lines (a few hundred by
    round 5) stay on the session page. Three queries."""
    fights = Fight.objects.filter(pk=fight_id)
    if campaign is not None:
        fights = fights.filter(campaign=campaign)
    return fight_from(fights)


def fight_from(fights: QuerySet[Fight]) -> Fight | None:
    """``load_fight``'s read of the fight in ``fights`` (the pipeline's locked queryset, its
    lock folded into the first statement: ``tables.moves.Table.read_rows``)."""
    fight = (
        fights.select_related("campaign", "session")
        .prefetch_related(Prefetch("seats", queryset=FightSeat.objects.select_related("character")))
        .first()
    )
    if fight is None:
        return None
    events = FightEvent.objects.all()
    if not fight.is_over:
        events = events.filter(Q(round=fight.round) | Q(version=fight.version))
    prefetch_related_objects([fight], Prefetch("events", queryset=events))
    return fight


def carried_on(fight: Fight, lines: Sequence[FightEvent]) -> Fight | None:
    """``fight`` — a ``load_fight`` read whose row a move has just saved (its round, phase,
    state and version are the new ones) — with the timeline ``load_fight`` would read now: the
    lines it held of this round or of this version, and ``lines``, the move's own. None when
    the read cannot say: the fight is over (its whole timeline shows then)."""
    if fight.is_over:
        return None
    events = [e for e in fight.events.all() if e.round == fight.round] + list(lines)
    # What ``prefetch_related_objects`` leaves on a row: the related manager answers from it.
    cached = fight.events.all()
    cached._result_cache = events
    cached._prefetch_done = True  # type: ignore[attr-defined]
    fight._prefetched_objects_cache["events"] = cached  # type: ignore[attr-defined]
    return fight


def fights_table() -> Table[Fight]:
    """The fights' table as the kit's pipeline moves it (``tables.moves``): the declared
    game's (``fights.game``, ``Game.table``): its row read as its screens read it
    (``load_fight``), its keys and timeline, a move of one combatant based on that combatant,
    the round and the phase (``combatant_basis``)."""
    from tables.site import site  # the site imports every game's declaration, this one's too

    return site.get(KIND).table


def combatant_basis(state: engine.FightState, cid: str) -> str:
    """What a move of combatant ``cid`` is based on: that combatant, the round and the phase."""
    try:
        combatant = state.combatant(cid)
    except engine.IllegalMove:
        return ""
    return basis_of(state.phase.value, state.round, repr(combatant))
