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
