"""The layout's promises (docs/architecture.md), read from every module's own imports.

From the bottom up: ``cards`` (pure: the deck, hands, odds, dice, IllegalMove); the engines
(``conflicts.engine``, ``fights.engine``, ``saloon.engine``: pure, on ``cards``); the project
package ``dustdevils`` (settings, accounts, the generic live protocol: it imports no app); the
apps; ``exchange`` on top (it reads every app; no app imports it). No import circle anywhere,
no file outside the engines over 400 lines, no database vendor check in app code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)
PROJECT = ("dustdevils",)
# Every app of the project's own (INSTALLED_APPS under BASE_DIR, the table kit included), and
# every game's engine (an ``engine/`` package in an app): a new game is covered with no edit here.
APPS = tuple(
    config.name
    for config in django_apps.get_app_configs()
    if Path(config.path).parent == BASE_DIR and config.name not in PROJECT
)
PACKAGES = ("cards", *PROJECT, *APPS)
ENGINES = tuple(f"{app}/engine" for app in APPS if (BASE_DIR / app / "engine").is_dir())
MAX_LINES = 400


def package_of(path: Path) -> list[str]:
    """The dotted package a module file belongs to, as a list of names."""
    parts = list(path.relative_to(BASE_DIR).with_suffix("").parts)
    return parts[:-1]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BASE_DIR).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, package: list[str]) -> set[str]:
    """Every module ``source`` imports, inside functions too, relative imports resolved
    against ``package``; ``from x import y`` yields both ``x`` and ``x.y`` (y may be a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - (node.level - 1)])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def source_files(*tops: str) -> list[Path]:
    return sorted(
        path
        for top in tops
        for path in (BASE_DIR / top).rglob("*.py")
        if "migrations" not in path.parts
    )


def imports_of(path: Path) -> set[str]:
    return imported_modules(path.read_text(), package_of(path))


def top(module: str) -> str:
    return module.split(".")[0]


def offences(paths: list[Path], allowed: object) -> list[str]:
    """``path imports module`` for every first-party (or Django-ish) import ``allowed`` refuses."""
    return [
        f"{path.relative_to(BASE_DIR)} imports {module}"
        for path in paths
        for module in sorted(imports_of(path))
        if not allowed(path, module)  # type: ignore[operator]
    ]


# Nothing of these may reach a pure package: Django, services, the apps above.
IMPURE = ("django", "celery", "redis", "psycopg", "dustdevils", *APPS)


def test_it_reads_every_app_and_engine_from_the_registry() -> None:
    assert {"tables", "conflicts", "gunfighter", "showdown", "saloon", "exchange"} <= set(APPS)
    assert {"conflicts/engine", "fights/engine", "gunfighter/engine"} <= set(ENGINES)


def test_cards_is_pure() -> None:
    paths = source_files("cards")
    assert paths
    assert offences(paths, lambda _p, m: top(m) not in IMPURE) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_each_engine_is_pure_and_on_cards_alone(engine: str) -> None:
    """An engine imports the standard library, ``cards`` and itself: nothing of Django, of
    its own app's models or views, nor of another game."""
    paths = source_files(engine)
    assert paths, engine
    own = engine.replace("/", ".")
    assert (
        offences(paths, lambda _p, m: top(m) not in IMPURE or m == own or m.startswith(own + "."))
        == []
    )


def test_the_project_package_imports_no_app() -> None:
    assert offences(source_files(*PROJECT), lambda _p, m: top(m) not in ("cards", *APPS)) == []


def test_no_app_imports_the_exchange() -> None:
    """The export/import reads every app, so it sits on top."""
    others = [p for p in source_files(*PACKAGES) if package_of(p)[:1] != ["exchange"]]
    assert offences(others, lambda _p, m: top(m) != "exchange") == []


def import_graph() -> dict[str, set[str]]:
    files = {module_name(path): path for path in source_files(*PACKAGES)}
    return {
        name: {m for m in imports_of(path) if m in files} - {name} for name, path in files.items()
    }


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that import each other, directly or round a longer loop."""

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    reached = {name: reach(name) for name in graph}
    groups: list[set[str]] = []
    for name in sorted(graph):
        group = {name} | {other for other in reached[name] if name in reached[other]}
        if len(group) > 1 and group not in groups:
            groups.append(group)
    return groups


def test_it_finds_a_circle_hidden_in_a_function() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [{"a", "b", "c"}]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_circle_anywhere() -> None:
    assert circles(import_graph()) == []


def test_it_catches_every_way_of_importing() -> None:
    source = (
        "import django\n"
        "from django.db import models\n"
        "from .. import models as m\n"
        "from ..views import table\n"
        "from cards.deck import Card\n"
        "def f():\n    from exchange.api import campaign_export\n"
    )
    found = imported_modules(source, ["conflicts", "engine"])
    assert {"django", "django.db", "conflicts.models", "conflicts.views.table"} <= found
    assert {"cards.deck", "exchange.api.campaign_export"} <= found


def test_the_broadcaster_and_the_live_protocol_know_no_app() -> None:
    paths = source_files("dustdevils/live")
    assert offences(paths, lambda _p, m: top(m) not in APPS) == []


def test_no_file_outside_the_engines_is_over_400_lines() -> None:
    long = [
        f"{path.relative_to(BASE_DIR)}: {n} lines"
        for path in source_files(*PACKAGES)
        if not any(str(path.relative_to(BASE_DIR)).startswith(e) for e in ("cards", *ENGINES))
        and (n := len(path.read_text().splitlines())) > MAX_LINES
    ]
    assert long == []


def test_no_database_vendor_check_in_app_code() -> None:
    """One ORM path for PostgreSQL and SQLite: no ``connection.vendor`` outside settings."""
    found = [
        str(path.relative_to(BASE_DIR))
        for path in source_files(*PACKAGES)
        if ".vendor" in path.read_text() and path.name != "settings.py"
    ]
    assert found == []
