"""Fights in a campaign file (issue 37; ``tables.codecs``): each fight's state sealed by
``fights.engine.seal`` (no unplayed card, no sleeve, no deck order, no Fate draw not yet
revealed), its combatants (a character's key in the file, or a line of extras), its session
and its public timeline (R30: a secret line is its readers' alone, so a file has none; a
restore writes the secret lines of the hands it dealt again, for their players)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from django.utils import timezone

from campaigns.models import Membership
from cards.deck import system_rng
from fights.engine.seal import renamed, sealed, unsealed
from fights.engine.serial import state_from_data
from fights.models import Fight, FightEvent, FightSeat
from fights.reads import load_fight
from fights.selectors import fight_view
from fights.services import cid_of
from tables.codecs import (
    DB_INT_MAX,
    CheckRefs,
    ExportRefs,
    PlannedGame,
    PlannedLine,
    WriteRefs,
    again_line,
    dated,
    lines_checked,
    lines_data,
    q,
    restored_words,
    shown,
    state_loaded,
    typed,
    when,
    write_lines,
)

EXTRAS_ID = re.compile(r"x[0-9]{1,6}")  # fights.services: a character's is c and its key here


class FightCodec:
    """The fights' codec (``fights.game`` declares it: the site registers it). Its own, not a
    ``tables.seated.SeatedCodec``: a fight's seats are its combatants, not the table's users."""

    kind = "fights"
    noun = "Fight"

    def __init__(self, game: Any = None) -> None:
        self.game = game

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        return sealed(state)

    def export(self, campaign: Any, refs: ExportRefs) -> list[dict[str, Any]]:
        fights = Fight.objects.filter(campaign=campaign).select_related("session")
        return [
            {
                "title": fight.title,
                "session": fight.session.number if fight.session else None,
                "phase": fight.phase,
                "version": fight.version,
                "created_at": when(fight.created_at),
                "state": self.seal(fight.state),
                "seats": [
                    {
                        "cid": seat.cid,
                        "kind": seat.kind,
                        "character": refs.keys.get(seat.character_id or 0),
                        "name": seat.name,
                        "size": seat.size,
                    }
                    for seat in sorted(fight.seats.all(), key=lambda s: s.pk)
                ],
                # R30: the public lines only; a secret one is for the Dealer and its players.
                "timeline": lines_data(
                    fight.events.filter(secret=False).select_related("actor"), ("round",)
                ),
            }
            for fight in sorted(fights, key=lambda f: (f.created_at, f.pk))
        ]

    def check(self, data: list[Any], path: str, refs: CheckRefs) -> list[PlannedGame]:
        c, out = refs.checker, []
        for i, raw in enumerate(data):
            where = f"{path}[{i}]"

            def load(raw: Any = raw) -> Any:
                state, again, secrets = unsealed(raw["state"], system_rng())
                typed(state_from_data(state), "state")
                if not 1 <= state["round"] <= DB_INT_MAX:
                    raise ValueError(f"round must be 1 to {DB_INT_MAX:,}")
                return state, again, secrets

            loaded = state_loaded(c, f"{where}.state", load, "fight")
            state, again, secrets = loaded if loaded is not None else ({}, "", [])
            if state and state["phase"] != raw["phase"]:
                c.fail(
                    f"{where}.phase",
                    f"is {q(raw['phase'])}, but the state's is {q(state['phase'])}",
                )
            if raw["session"] is not None and raw["session"] not in refs.sessions:
                c.fail(f"{where}.session", f"there is no session {raw['session']} in sessions")
            seats = self._seats(c, raw["seats"], where, refs, state)
            running = raw["phase"] not in Fight.OVER
            plan = PlannedGame(
                values={"title": " ".join(raw["title"].split()), "phase": raw["phase"],
                        "version": raw["version"], "state": state},
                created_at=c.moment(raw["created_at"], f"{where}.created_at"),
                seats=seats, lines=lines_checked(c, raw["timeline"], where, ("round",)),
                restored=restored_words(again, running), session=raw["session"],
            )  # fmt: skip
            if again and running:
                at, round_ = timezone.now(), state["round"]
                again_line(plan, again, at, round=round_)
                for secret in secrets:  # R30: each hand dealt again, for its player
                    seq = max(x.seq for x in (*plan.lines, *plan.again)) + 1
                    fields = {"round": round_, "secret": True, "cids": list(secret.cids)}
                    line = PlannedLine(seq, plan.values["version"], at, None, secret.text, fields)
                    plan.again.append(line)
            out.append(plan)
        return out

    def _seats(
        self, c: Any, raw: list[dict[str, Any]], where: str, refs: CheckRefs, state: dict[str, Any]
    ) -> list[dict[str, Any]]:
        kinds = {f["cid"]: f["kind"] for f in state.get("combatants", [])}
        seats: list[dict[str, Any]] = []
        for n, seat in enumerate(raw):
            at, cid, key = f"{where}.seats[{n}]", seat["cid"], seat["character"]
            if any(s["cid"] == cid for s in seats):
                c.fail(f"{at}.cid", f"{q(cid)} has two seats in this fight")
            if state and kinds.get(cid) != seat["kind"]:
                c.fail(f"{at}.kind", f"is {q(seat['kind'])}, but the state's {q(cid)} is "
                       f"{q(kinds.get(cid, 'not a combatant'))}")  # fmt: skip
            if seat["kind"] == FightSeat.Kind.EXTRAS and key is not None:
                c.fail(f"{at}.character", "a line of extras is no character")
            elif seat["kind"] == FightSeat.Kind.EXTRAS and not EXTRAS_ID.fullmatch(cid):
                c.fail(f"{at}.cid", f"a line of extras is x and a number (x1, x2...), got {q(cid)}")
            elif key is not None and any(s["character"] == key for s in seats):
                c.fail(f"{at}.character", f"{q(key)} has two seats in this fight")
            elif seat["kind"] != FightSeat.Kind.EXTRAS and refs.characters.get(key) != seat["kind"]:
                c.fail(f"{at}.character", f"must be the key of a {seat['kind']} in characters")
            seats.append(dict(seat))
        if state and (missing := sorted(set(kinds) - {s["cid"] for s in seats})):
            c.fail(f"{where}.seats", f"the combatants {', '.join(missing)} have no seat")
        return seats

    def clear(self, campaign: Any) -> None:
        Fight.objects.filter(campaign=campaign).delete()

    def write(self, plans: list[PlannedGame], campaign: Any, refs: WriteRefs) -> list[str]:
        said: list[str] = []
        for n, plan in enumerate(plans):
            # A character's combatant id is its primary key here (fights.services.cid_of).
            names = {
                s["cid"]: cid_of(refs.characters[s["character"]])
                for s in plan.seats
                if s["character"] is not None
            }
            state = renamed(plan.values["state"], names)
            fight = Fight.objects.create(
                campaign=campaign, created_by=refs.dealer, round=state["round"],
                session=refs.sessions.get(plan.session) if plan.session is not None else None,
                **{**plan.values, "state": state},
            )  # fmt: skip
            dated(fight, plan.created_at)
            FightSeat.objects.bulk_create(
                FightSeat(
                    fight=fight, cid=names.get(s["cid"], s["cid"]), kind=s["kind"],
                    character=refs.characters[s["character"]] if s["character"] else None,
                    name=s["name"], size=s["size"],
                )
                for s in plan.seats
            )  # fmt: skip
            for line in plan.again:
                if "cids" in line.fields:
                    line.fields["cids"] = [names.get(cid, cid) for cid in line.fields["cids"]]
            write_lines(FightEvent, "fight", fight, [*plan.lines, *plan.again], refs)
            shown(_screens(fight, campaign, refs), f"games.fights[{n}]")
            said.append(f"{self.noun} “{fight.title}”: {plan.restored.rstrip('.')}.")
        return said


def _screens(
    fight: Fight, campaign: Any, refs: WriteRefs
) -> Iterator[tuple[str, Callable[[], dict[str, Any]]]]:
    """The fight's pages, as its screens make them: the Dealer's console, the phone of each
    player with a combatant, a player watching, the shared screen (R30's every viewer)."""
    fight = load_fight(fight.pk) or fight
    players = {
        s.character.player_id for s in fight.seats.all() if s.character and s.character.player_id
    }
    dealer = Membership(campaign=campaign, user=refs.dealer, role=Membership.Role.DEALER)
    seats = [
        dealer,
        *(Membership(campaign=campaign, user_id=p, role=Membership.Role.PLAYER) for p in players),
        Membership(campaign=campaign, user_id=0, role=Membership.Role.PLAYER),  # a watcher
    ]
    for membership in seats:
        yield "fights/detail.html#main", partial(fight_view, fight, membership)
    yield "fights/table.html#main", partial(fight_view, fight, dealer, as_table=True)
