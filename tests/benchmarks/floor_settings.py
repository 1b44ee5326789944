"""The project's settings, with the bench's floor views (floor.py) routed beside the app's."""

from __future__ import annotations

from dustdevils.settings import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.floor"
