"""A plain ``pip install .`` ships every app of the project (issue 35: two games were once left
out of the package list): setuptools' discovery, as pyproject.toml configures it, finds every
installed app of the project's own and no tests."""

from __future__ import annotations

import tomllib
from pathlib import Path

from django.apps import apps
from django.conf import settings
from setuptools import find_packages

BASE_DIR = Path(settings.BASE_DIR)


def discovered() -> list[str]:
    config = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())
    find = config["tool"]["setuptools"]["packages"]["find"]
    return find_packages(
        where=str(BASE_DIR / find["where"][0]), include=find["include"], exclude=find["exclude"]
    )


def test_every_installed_app_of_the_project_is_packaged() -> None:
    packages = set(discovered())
    ours = [c.name for c in apps.get_app_configs() if Path(c.path).parent == BASE_DIR]
    assert ours
    assert "gunfighter" in ours
    assert [app for app in ours if app not in packages] == []
    assert "cards" in packages
    assert "dustdevils.live" in packages


def test_no_tests_are_packaged() -> None:
    assert not [p for p in discovered() if p == "tests" or p.startswith("tests.")]
