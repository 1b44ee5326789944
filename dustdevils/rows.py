"""Reads by key whose SQL is made once per process, for the queries every request makes.

The ORM builds and compiles a query afresh at every call: for a read by key that is most of
its cost (``Membership...get()`` with its campaign: ~0.7 ms of CPU, of which the database's
answer is ~0.1 ms). A move's POST made three such reads before it even reached the move (the
session, the user, the membership), and a busy table gets a hundred moves a second
(``make bench BENCH=live``). Here a read's SQL is written once from the models' own fields and
its rows become model instances exactly as the ORM makes them: ``Model.from_db`` with the
columns' converters applied (a JSONField is decoded, SQLite's datetimes parsed). Plain SQL
(quoted names, ``%s`` parameters): the same on PostgreSQL and SQLite.

The tests compare each read with the ORM's (tests/test_rows.py, tests/conflicts/
test_table_reads.py). The reads use the default database (the project has no database router).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class ModelColumns(Generic[M]):
    """A model's concrete columns under a table alias, and how to make an instance of them."""

    model: type[M]
    alias: str
    names: tuple[str, ...]  # attnames, in column order
    converters: tuple[tuple[int, Any, Any], ...]  # (column index, converter, expression)

    @classmethod
    def of(cls, model: type[M], alias: str) -> ModelColumns[M]:
        fields: Sequence[Any] = model._meta.concrete_fields
        converters = tuple(
            (i, converter, f.get_col(alias))
            for i, f in enumerate(fields)
            for converter in (
                *connection.ops.get_db_converters(f.get_col(alias)),
                *f.get_db_converters(connection),
            )
        )
        return cls(model, alias, tuple(f.attname for f in fields), converters)

    @property
    def sql(self) -> str:
        """The columns for a SELECT list: ``alias."column", ...``."""
        q = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{q(f.column)}" for f in self.model._meta.concrete_fields)

    def col(self, field_name: str) -> str:
        """One field's column under the alias, quoted: ``alias."column"``."""
        column: str = self.model._meta.get_field(field_name).column  # type: ignore[union-attr,assignment]
        return f"{self.alias}.{connection.ops.quote_name(column)}"

    @property
    def table(self) -> str:
        """``"table" alias`` for a FROM or JOIN clause."""
        return f"{connection.ops.quote_name(self.model._meta.db_table)} {self.alias}"

    def instance(self, row: Sequence[Any], start: int = 0) -> M | None:
        """The instance from ``row[start:start + width]`` (None when its key is NULL: the
        missing side of an outer join), as the ORM would make it."""
        values = list(row[start : start + len(self.names)])
        if values[0] is None:
            return None
        for i, converter, expression in self.converters:
            values[i] = converter(values[i], expression, connection)
        return self.model.from_db(connection.alias, self.names, values)


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row of ``sql`` with ``params``, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
    return row
