"""The saloon's engine is pure Python like the conflict engine (DESIGN.md): nothing of Django,
the services or the apps; only the standard library, itself and the conflict engine's cards."""

from __future__ import annotations

from tests.test_architecture import BASE_DIR, imported_modules, is_forbidden, package_of

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
