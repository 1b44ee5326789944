"""The codec (``tables.codecs``) of a game whose seats are members: Death Enters the Saloon,
Saloon Showdown, The Gunfighter. The game gives its models, its timeline line's own fields and
how its state is sealed for a file and brought back; the rest — the seats by username, the
lines at their times, the checks and the words of the restore — is here, once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from django.utils import timezone

from tables.codecs import (
    DB_INT_MAX,
    Checker,
    CheckRefs,
    ExportRefs,
    PlannedGame,
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


class SeatedCodec:
    """The codec of a game on the kit's models whose seats are members (``TableSeat``): the
    game gives its models, its line's own fields (``extra``), how its state is sealed for a file
    (``seal``) and brought back (``unseal``: the state to write, loaded by its engine, and the
    words of its timeline line when hidden values were dealt or hidden again, else "")."""

    kind = ""
    noun = ""
    model: Any = None
    seat_model: Any = None
    line_model: Any = None
    fk = ""
    extra: tuple[str, ...] = ()
    game: Any = None  # the declared game (tables.game.Game) whose codec this is

    def __init__(self, game: Any = None) -> None:
        """A declared game's codec takes its models and its screens from the declaration."""
        if game is not None:
            self.game, self.noun = game, self.noun or game.name
            self.model, self.seat_model, self.line_model = (
                game.model,
                game.seat_model,
                game.line_model,
            )
            self.fk = game.fk

    # The state's whole numbers a timeline line or a row copies into the database's integers.
    bounded: tuple[str, ...] = ()

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def unseal(self, data: Any) -> tuple[dict[str, Any], str]:
        raise NotImplementedError

    def pids(self, state: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def screens(
        self, row: Any, viewers: list[Any]
    ) -> Iterator[tuple[str, Callable[[], dict[str, Any]]]]:
        """Each page of a game written, for each viewer (a seated user, the Dealer, None for a
        watcher): its template and the function making its context (``tables.codecs.shown``);
        a declared game's from its ``view`` (and its shared screen's)."""
        if self.game is None:
            raise NotImplementedError
        game = self.game
        for user in viewers:
            yield game.template("detail") + "#main", partial(game.view, row, user)
        if game.shared_screen:
            yield game.template("table") + "#main", partial(game.view, row, None, as_table=True)

    def again_fields(self, state: dict[str, Any]) -> dict[str, Any]:
        """The game's own fields of the restore's timeline line: a line the kit writes (the
        declared game's ``note``, as its ``lines`` has it)."""
        (line,) = self.game.lines([self.game.note("")], None, self.load(state))
        return {name: value for name, value in line.items() if name not in ("text", "actor")}

    def load(self, state: dict[str, Any]) -> Any:
        """The engine's state object of a state the codec wrote (to check its values' types)."""
        return self.game.load(state)

    def phase_of(self, state: dict[str, Any]) -> str:
        return str(self.game.phase(self.load(state)))

    def export(self, campaign: Any, refs: ExportRefs) -> list[dict[str, Any]]:
        rows = self.model.objects.filter(campaign=campaign).prefetch_related(
            "seats__user", "lines__actor"
        )
        return [
            {
                "title": row.title,
                "phase": row.phase,
                "version": row.version,
                "created_at": when(row.created_at),
                "state": self.seal(row.state),
                "seats": [
                    {"pid": s.pid, "user": s.user.get_username(), "position": s.position}
                    for s in sorted(row.seats.all(), key=lambda s: s.position)
                ],
                "timeline": lines_data(row.lines.all(), self.extra),
            }
            for row in sorted(rows, key=lambda row: (row.created_at, row.pk))
        ]

    def check(self, data: list[Any], path: str, refs: CheckRefs) -> list[PlannedGame]:
        c, out = refs.checker, []
        for i, raw in enumerate(data):
            where = f"{path}[{i}]"
            loaded = state_loaded(
                c, f"{where}.state", partial(self._unsealed, raw["state"]), self.noun
            )
            state, again = loaded if loaded is not None else ({}, "")
            running = raw["phase"] not in self.model.OVER
            if state and self.phase_of(state) != raw["phase"]:
                said = f"is {q(raw['phase'])}, but the state's is {q(self.phase_of(state))}"
                c.fail(f"{where}.phase", said)
            seats = self._seats(c, raw["seats"], where, refs, self.pids(state) if state else None)
            lines = lines_checked(c, raw["timeline"], where, self.extra)
            self._fields(c, raw["timeline"], where)
            plan = PlannedGame(
                values={"title": " ".join(raw["title"].split()), "phase": raw["phase"],
                        "version": raw["version"], "state": state},
                created_at=c.moment(raw["created_at"], f"{where}.created_at"),
                seats=seats, lines=lines, restored=restored_words(again, running),
            )  # fmt: skip
            if again and running:
                again_line(plan, again, timezone.now(), **self.again_fields(state))
            out.append(plan)
        return out

    def _unsealed(self, data: Any) -> tuple[dict[str, Any], str]:
        state, again = self.unseal(data)
        typed(self.load(state), "state")
        for name in self.bounded:
            if not 0 <= state[name] <= DB_INT_MAX:
                raise ValueError(f"{name} must be 0 to {DB_INT_MAX:,}")
        return state, again

    def _seats(
        self, c: Checker, raw: list[dict[str, Any]], where: str, refs: CheckRefs,
        pids: list[str] | None,
    ) -> list[dict[str, Any]]:  # fmt: skip
        seats: list[dict[str, Any]] = []
        for n, seat in enumerate(raw):
            at = f"{where}.seats[{n}]"
            for name in ("pid", "user", "position"):
                if any(s[name] == seat[name] for s in seats):
                    c.fail(f"{at}.{name}", f"{q(seat[name])} has two seats in this game")
            if pids is not None and seat["pid"] not in pids:
                c.fail(f"{at}.pid", f"{q(seat['pid'])} is not a player in the state")
            if seat["user"] not in refs.members:
                c.fail(f"{at}.user", f"{q(seat['user'])} is not one of the members")
            seats.append(dict(seat))
        return seats

    def _fields(self, c: Checker, raw: list[dict[str, Any]], where: str) -> None:
        """Each line's own field that has choices holds one of them (the schema checks types)."""
        for name in self.extra:
            choices = self.line_model._meta.get_field(name).choices
            allowed = {value for value, _ in choices or ()}
            for n, line in enumerate(raw):
                if allowed and name in line and line[name] not in allowed:
                    one_of = ", ".join(q(value) for value in sorted(allowed))
                    c.fail(
                        f"{where}.timeline[{n}].{name}",
                        f"must be one of {one_of}; got {q(line[name])}",
                    )

    def clear(self, campaign: Any) -> None:
        self.model.objects.filter(campaign=campaign).delete()

    def write(self, plans: list[PlannedGame], campaign: Any, refs: WriteRefs) -> list[str]:
        said: list[str] = []
        for n, plan in enumerate(plans):
            row = self.model.objects.create(
                campaign=campaign, created_by=refs.dealer, **plan.values
            )
            dated(row, plan.created_at)
            here = [s for s in plan.seats if s["user"] in refs.seated]
            self.seat_model.objects.bulk_create(
                self.seat_model(**{self.fk: row}, user=refs.seated[s["user"]], pid=s["pid"],
                                position=s["position"])
                for s in here
            )  # fmt: skip
            write_lines(self.line_model, self.fk, row, [*plan.lines, *plan.again], refs)
            viewers = [refs.seated[s["user"]] for s in here] + [refs.dealer, None]
            shown(self.screens(row, viewers), f"games.{self.kind}[{n}]")
            empty = [s["user"] for s in plan.seats if s not in here]
            seats = (f" The seats of {', '.join(empty)} stay empty: they are not seated here."
                     if empty else "")  # fmt: skip
            said.append(f"{self.noun} “{row.title}”: {plan.restored.rstrip('.')}.{seats}")
        return said
