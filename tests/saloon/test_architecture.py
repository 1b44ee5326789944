"""The saloon's engine is pure Python like the conflict engine (DESIGN.md): nothing of Django,
the services or the apps; only the standard library, itself and the conflict engine's cards."""

from __future__ import annotations

from tests.test_architecture import (
    APPS,
    BASE_DIR,
    KNOWN_CIRCLES,
    circles,
    imported_modules,
    is_forbidden,
    module_name,
    package_of,
)

ENGINE_DIR = BASE_DIR / "saloon" / "engine"


def test_it_keeps_django_out_of_the_saloon_engine() -> None:
    files = sorted(ENGINE_DIR.rglob("*.py"))
    assert files
    offences = [
        f"{path.relative_to(BASE_DIR)} imports {module}"
        for path in files
        for module in sorted(imported_modules(path.read_text(), package_of(path)))
        if is_forbidden(module)
        or (module.startswith("saloon") and not module.startswith("saloon.engine"))
    ]
    assert offences == []


def test_it_keeps_the_saloon_free_of_import_circles() -> None:
    """The same rule as the other apps' (tests/test_architecture.py), over saloon too."""
    files = {
        module_name(path): path
        for app in (*APPS, "saloon")
        for path in (BASE_DIR / app).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph = {
        name: {m for m in imported_modules(path.read_text(), package_of(path)) if m in files}
        - {name}
        for name, path in files.items()
    }
    assert [c for c in circles(graph) if c not in KNOWN_CIRCLES] == []


def test_the_other_apps_do_not_depend_on_the_saloon() -> None:
    """The saloon sits on top: it imports the campaigns, the cards and the live layer; none of
    them imports it (the only link is a URL in a template)."""
    offences = [
        f"{path.relative_to(BASE_DIR)} imports {module}"
        for app in APPS
        for path in (BASE_DIR / app).rglob("*.py")
        for module in imported_modules(path.read_text(), package_of(path))
        if module.split(".")[0] == "saloon" and "urls.py" not in str(path)
    ]
    assert offences == []
