"""Boundaries the layout promises (DESIGN.md): the rules engine stays pure Python."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)
ENGINE_DIR = BASE_DIR / "conflicts" / "engine"

# The engine may import the standard library, its own modules and small pure libraries,
# but nothing of Django, of the services, nor of the apps that sit on top of it.
FORBIDDEN = ("django", "dustdevils", "campaigns", "characters", "celery", "redis", "psycopg")


def package_of(path: Path) -> list[str]:
    """The dotted package a module file belongs to, as a list of names."""
    parts = list(path.relative_to(BASE_DIR).with_suffix("").parts)
    return parts[:-1]


def imported_modules(source: str, package: list[str]) -> set[str]:
    """Every module ``source`` imports, relative imports resolved against ``package``;
    ``from x import y`` yields both ``x`` and ``x.y`` (y may be a module)."""
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


def is_forbidden(module: str) -> bool:
    top = module.split(".")[0]
    if top in FORBIDDEN:
        return True
    # Inside the conflicts app only the engine itself may be imported (not models, views...).
    return (
        top == "conflicts" and module != "conflicts" and not module.startswith("conflicts.engine")
    )


def test_it_keeps_django_out_of_the_engine() -> None:
    files = sorted(ENGINE_DIR.rglob("*.py"))
    assert files, f"no engine modules found under {ENGINE_DIR}"
    offences = [
        f"{path.relative_to(BASE_DIR)} imports {module}"
        for path in files
        for module in sorted(imported_modules(path.read_text(), package_of(path)))
        if is_forbidden(module)
    ]
    assert offences == []


def test_it_catches_every_way_of_importing_django() -> None:
    source = (
        "import django\n"
        "from django.db import models\n"
        "from .. import models as m\n"
        "from ..views import table\n"
        "from .cards import Card\n"
        "import dataclasses\n"
    )
    found = imported_modules(source, ["conflicts", "engine"])
    assert sorted(m for m in found if is_forbidden(m)) == [
        "conflicts.models",
        "conflicts.views",
        "conflicts.views.table",
        "django",
        "django.db",
        "django.db.models",
    ]
    assert "conflicts.engine.cards" in found


# --- Import circles ------------------------------------------------------------------------------

APPS = ("campaigns", "characters", "conflicts", "dustdevils")
# None: the last one (conflicts.fragments <-> selectors) went with the selectors' split.
KNOWN_CIRCLES: list[set[str]] = []


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BASE_DIR).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Which first-party module imports which, counting imports made inside functions too (a
    circle hidden in a function is still a circle)."""
    files = {
        module_name(path): path
        for app in APPS
        for path in (BASE_DIR / app).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph = {}
    for name, path in files.items():
        found = imported_modules(path.read_text(), package_of(path))
        graph[name] = {m for m in found if m in files and m != name}
    return graph


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


def test_it_keeps_the_apps_free_of_import_circles() -> None:
    """Issue 16: campaigns.services <-> starters and campaigns' sessions <-> tasks were broken
    by moving the shared piece (campaign_start to starters, the recovery job to recovery)."""
    assert [c for c in circles(import_graph()) if c not in KNOWN_CIRCLES] == []


def test_it_keeps_the_broadcaster_free_of_the_apps() -> None:
    """The broadcaster carries versions only (DESIGN.md step 3): it needs nothing of the
    apps, so anything may import it."""
    path = BASE_DIR / "dustdevils" / "live" / "broadcast.py"
    found = imported_modules(path.read_text(), package_of(path))
    assert sorted(m for m in found if m.split(".")[0] in APPS) == []
