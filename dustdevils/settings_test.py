"""Settings for the test suite: the real settings plus speed-ups that must never ship."""

from __future__ import annotations

import os

from dustdevils.settings import *

# A deliberately weak, fast hasher: creating the cast of users should cost microseconds.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Tests never need hashed, compressed static files (and must not depend on collectstatic).
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Browser tests serve the app from a uvicorn subprocess, which cannot see an in-memory SQLite
# test database: give SQLite a test file then (PostgreSQL test databases are shared anyway).
if DATABASES["default"]["ENGINE"].endswith("sqlite3") and os.environ.get("E2E"):
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test_db.sqlite3")}

# No connection pool in the test process itself: pytest-django drops the test database at the
# end, which a pooled connection left behind by a test's thread would hold open. The uvicorn
# processes that the live and browser tests start use the real settings, pool included.
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)
INSTALLED_APPS = [*INSTALLED_APPS, "tests.highcard"]  # the test-only game (issue 35)
