"""The one locked move pipeline of every table (docs/architecture.md, "The shape of a table
action").

A game describes its table once (``Table``: its state row, key and timeline models, its live
channel, how it reads a table after the lock and what a move of one hand or seat is based on)
and hands each move to ``table_move`` as ``apply(read) -> Changes``, a function that runs the
game's pure engine on the read. The pipeline, in one transaction:

1. locks the table's row, so the read sees what the move before committed: in the read's own
   first statement (``SELECT … FOR UPDATE OF`` the row, ``Table.read_rows``) for a game
   whose read starts from its row's queryset, else in a statement of its own;
2. reads the table through the game (``Table.read_rows`` or ``Table.read``);
3. claims the form's idempotency key: a repeated submit changes nothing and answers with the
   table as it is (the key is looked up only for a move made on an older version: a form's
   first submit moved the table on from the version it was made at);
4. decides whether the move is still what its player meant (``Basis``): a move made on the
   current version always is; an older page's move still is when what it was based on — its
   own hand or seat and the phase — is unchanged, so players acting at once never lose a tap;
   a table-wide move (the Dealer's) needs the whole table unchanged;
5. applies the move (``apply``: the engine's ``IllegalMove`` becomes ``Refused``);
6. saves the row's new fields with ``version + 1``, writes the timeline lines numbered on from
   the last, marks the session active (at most once a minute);
7. publishes ``<channel>-<id>`` at the new version on commit (a version, never a card).

Nothing else in the project locks a table, checks a version, numbers a timeline line or
publishes a table (tests/tables/test_one_pipeline.py reads the code for it).
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from django.db import models, transaction
from django.db.models import Max
from django.db.transaction import TransactionManagementError
from django.utils.translation import gettext_lazy as _

from cards.errors import IllegalMove
from cards.words import Said
from dustdevils.idempotency import first_submit
from dustdevils.live import broadcast as live
from tables.errors import STALE, Refused, StaleMove
from tables.models import TimelineLine
from tables.words import refusal, values_text

if TYPE_CHECKING:
    from tables.words import Text

R = TypeVar("R")


def basis_of(*parts: Any) -> str:
    """A short fingerprint of what a move is based on (its hand or seat, the phase): the same
    parts give the same string on the page and at the move. It travels in the viewer's own
    form only, and names no card (a hash)."""
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass(frozen=True)
class Basis:
    """What a move's form was made on: the table's ``version`` and, for a move about one hand
    or seat (``scope``: its pid or cid), the ``token`` of that hand and the phase then."""

    version: int | None
    scope: str = ""
    token: str = ""


@dataclass(frozen=True)
class Changes:
    """What a move changes: the row's ``fields`` (the state, the phase…; the kit adds the
    version) and the timeline ``lines`` (each the line model's own fields: text, actor…)."""

    fields: Mapping[str, Any]
    lines: Sequence[Mapping[str, Any]] = ()
    # Anything the game wants back from its ``apply`` (e.g. the engine's outcome).
    extra: Any = None


@dataclass(frozen=True)
class Moved(Generic[R]):
    """A move's result: the table's ``row`` as committed, the game's ``read`` taken under the
    lock (its state as before the move), the ``lines`` written, and ``repeated`` for a double
    click that changed nothing."""

    row: Any
    read: R
    lines: tuple[Any, ...] = ()
    repeated: bool = False
    changes: Changes | None = field(default=None, repr=False)


class Table(ABC, Generic[R]):
    """A kind of table, as the pipeline needs it. A game subclasses it once."""

    model: ClassVar[type[models.Model]]  # the state row: version, state, phase, last_move_at
    key_model: ClassVar[type[models.Model]]  # its idempotency keys (MoveKeyBase)
    line_model: ClassVar[type[models.Model]]  # its timeline: (table, seq) unique
    fk: ClassVar[str]  # the key's and the lines' foreign key to the row: "conflict"…
    channel: ClassVar[str]  # the live channel's prefix: "conflict" -> "conflict-12"
    missing: ClassVar[Text] = _("No such table in this campaign.")

    @abstractmethod
    def read(self, table_id: int) -> R:
        """The table, read after the lock (the row is there: the lock found it)."""

    # A game that reads its table starting from the row's queryset says so, and the kit hands
    # it that queryset already locked: one statement fewer a move (issue 38).
    reads_rows: ClassVar[bool] = False

    def read_rows(self, rows: models.QuerySet[Any]) -> R | None:
        """The table read from ``rows`` (``reads_rows``): the row's queryset, filtered to the
        table and locked by the kit (``FOR UPDATE OF`` the row alone, so the game may join
        what it reads beside it); None when it holds no row."""
        raise NotImplementedError

    def row(self, read: R) -> Any:
        """The state row inside a read."""
        return read

    def last_seq(self, read: R) -> int:
        """The number of the timeline's last line."""
        last = self.line_model._default_manager.filter(**{self.fk: self.row(read)}).aggregate(
            n=Max("seq")
        )["n"]
        return int(last or 0)

    @abstractmethod
    def basis(self, read: R, scope: str) -> str:
        """The fingerprint (``basis_of``) of what a move of one hand or seat ``scope`` is based
        on: that hand's or seat's state and the phase. "" when the scope is not at the table."""

    def channel_of(self, table_id: int) -> str:
        return f"{self.channel}-{table_id}"


def still_meant(table: Table[R], read: R, based_on: Basis) -> bool:
    """Step 4: is the move still what its player meant?"""
    version = int(table.row(read).version)
    if based_on.version is None or based_on.version == version:
        return True
    return bool(
        based_on.scope and based_on.token and based_on.token == table.basis(read, based_on.scope)
    )


def table_move(
    table: Table[R],
    *,
    table_id: int,
    where: Mapping[str, Any],
    key: str,
    based_on: Basis,
    apply: Callable[[R], Changes],
) -> Moved[R]:
    """One move through the pipeline (the module's docstring). Raises ``Refused`` (nothing
    changed) or ``table.model.DoesNotExist`` for a table outside ``where``."""
    with transaction.atomic():
        read = locked_read(table, table_id, where)
        row = table.row(read)
        # A key is looked up only for a move made on an older version (or none): the same
        # form's first submit, if it went through, moved the table on from the version the
        # form was made at, so a key sent with the current version cannot have been used.
        fresh = based_on.version is not None and based_on.version == row.version
        if key and not first_submit(table.key_model, key, known_new=fresh, **{table.fk: row}):  # type: ignore[arg-type]
            return Moved(row, read, repeated=True)
        if not still_meant(table, read, based_on):
            raise StaleMove(STALE)
        try:
            changes = apply(read)
        except IllegalMove as error:
            raise Refused(refusal(error)) from error
        lines = save(table, read, changes)
        return Moved(row, read, lines, changes=changes)


def locked_read(table: Table[R], table_id: int, where: Mapping[str, Any]) -> R:
    """Lock the table's row (raises ``DoesNotExist`` outside ``where``), then read it. Inside
    a transaction, on every database (SQLite has no row locks to complain): a lock released at
    once would protect nothing."""
    if not transaction.get_connection().in_atomic_block:
        raise TransactionManagementError("A locked read must be inside a transaction.")
    rows = table.model._default_manager.filter(pk=table_id, **where)
    if table.reads_rows:
        read = table.read_rows(rows.select_for_update(of=("self",)))
        if read is None:
            raise table.model.DoesNotExist(table.missing)  # type: ignore[attr-defined]
        return read
    if not rows.select_for_update().values_list("pk").order_by():
        raise table.model.DoesNotExist(table.missing)  # type: ignore[attr-defined]
    return table.read(table_id)


def save(table: Table[R], read: R, changes: Changes) -> tuple[Any, ...]:
    """Step 6 and 7 for a read taken under the lock: the row's fields with ``version + 1``, the
    lines numbered on from the last, the session marked active, the table published on
    commit."""
    row = table.row(read)
    for name, value in changes.fields.items():
        setattr(row, name, value)
    row.version += 1
    row.save(update_fields=[*changes.fields, "version", "last_move_at"])
    start = table.last_seq(read) + 1
    lines = tuple(
        table.line_model._default_manager.bulk_create(
            table.line_model(
                **{table.fk: row}, seq=seq, version=row.version, **worded(table, fields)
            )
            for seq, fields in enumerate(changes.lines, start=start)
        )
    )
    _session_active(row)
    publish_on_commit(table.channel_of(row.pk), row.version)
    return lines


def worded(table: Table[R], fields: Mapping[str, Any]) -> Mapping[str, Any]:
    """A line's fields, with what its engine said (``cards.words.Said``: the message and its
    values) beside the English text, so each reader sees it in their own language."""
    text = fields.get("text")
    if (
        isinstance(text, Said)
        and "message" not in fields
        and issubclass(table.line_model, TimelineLine)
    ):
        said = {"message": text.message, "values": values_text(text.values)}
        return {**fields, "text": str(text), **said}
    return fields


def table_note(table: Table[R], *, table_id: int, lines: Sequence[Mapping[str, Any]]) -> Any:
    """Lines on a table's timeline from elsewhere in the app (a conflict that became a
    gunfight, a conflict settling a fight's action): locked, versioned and published like a
    move, changing nothing else. Returns the row."""
    with transaction.atomic():
        read = locked_read(table, table_id, {})
        save(table, read, Changes(fields={}, lines=lines))
        return table.row(read)


ACTIVITY_EVERY = timedelta(minutes=1)


def _session_active(row: Any) -> None:
    """A move keeps its game session from looking stale (the sweep ends idle sessions after
    hours): written at most once a minute, when the session was read with the table."""
    session_id = getattr(row, "session_id", None)
    if not session_id:
        return
    field = row._meta.get_field("session")
    session = row.session if field.is_cached(row) else None
    last = getattr(session, "last_activity_at", None)
    if last is not None and row.last_move_at - last < ACTIVITY_EVERY:
        return
    field.related_model._default_manager.filter(pk=session_id).update(
        last_activity_at=row.last_move_at
    )
    if session is not None:
        session.last_activity_at = row.last_move_at


def publish_on_commit(channel: str, version: int) -> None:
    """Tell every open screen of ``channel`` it is now at ``version``, once the move commits."""
    transaction.on_commit(lambda: live.publish(channel, version))


def opening_lines(table: Table[R], row: Any, lines: Sequence[Mapping[str, Any]]) -> None:
    """A new table's first timeline lines (at version 0, numbered from 1), written with the row
    in its creating transaction."""
    table.line_model._default_manager.bulk_create(
        table.line_model(**{table.fk: row}, seq=seq, version=0, **worded(table, fields))
        for seq, fields in enumerate(lines, start=1)
    )
