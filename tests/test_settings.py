"""Settings come from the environment, and a bad value stops start-up with a clear message."""

from __future__ import annotations

import json
import os
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from dustdevils.env import (
    env_bool,
    env_int,
    env_list,
    env_redis_url,
    parse_database_url,
)
from dustdevils.settings import BASE_DIR

# Variables that would leak this machine's configuration into the subprocesses below.
_CONFIG_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "DJANGO_ENV",
    "ALLOWED_HOSTS",
    "DATA_DIR",
    "BROADCASTER",
    "DJANGO_SETTINGS_MODULE",
    "CSRF_TRUSTED_ORIGINS",
    "BEHIND_PROXY",
)

_SHOW_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
from dustdevils.celery import app
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "name": str(settings.DATABASES["default"]["NAME"]),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "celery_eager": app.conf.task_always_eager,
    "broker": settings.CELERY_BROKER_URL,
    "broadcaster": settings.BROADCASTER,
    "debug": settings.DEBUG,
    "secret_key": settings.SECRET_KEY,
}))
"""


def run_django(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Start a fresh Python with only the given configuration, as a deployment would."""
    clean = {k: v for k, v in os.environ.items() if k not in _CONFIG_VARS}
    clean |= {"DJANGO_SETTINGS_MODULE": "dustdevils.settings", "DATA_DIR": str(tmp_path)} | env
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def show_settings(tmp_path: Path, **env: str) -> dict[str, object]:
    proc = run_django(_SHOW_SETTINGS, tmp_path, **env)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


# --- Database URLs ----------------------------------------------------------------------


def test_it_parses_a_full_postgres_url() -> None:
    db = parse_database_url("postgres://ada:p%40ss@db.example.com:5433/dust?sslmode=require")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("dust", "ada", "p@ss")
    assert (db["HOST"], db["PORT"]) == ("db.example.com", "5433")
    assert db["OPTIONS"]["sslmode"] == "require"


def test_it_pools_postgres_connections_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONN_MAX_AGE", raising=False)
    monkeypatch.delenv("DATABASE_POOL_MAX", raising=False)
    pooled = parse_database_url("postgres://127.0.0.1/dust")
    assert pooled["OPTIONS"]["pool"]["max_size"] == 10
    assert pooled["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections
    # Django gives the pool psycopg_pool's check: a dead connection never reaches a request
    # (issue 28 #5; tests/test_database_restart.py on PostgreSQL).
    assert pooled["CONN_HEALTH_CHECKS"] is True
    monkeypatch.setenv("DATABASE_POOL_MAX", "3")
    assert parse_database_url("postgres://127.0.0.1/dust")["OPTIONS"]["pool"]["max_size"] == 3
    monkeypatch.setenv("DATABASE_POOL_MAX", "0")
    assert "pool" not in parse_database_url("postgres://127.0.0.1/dust")["OPTIONS"]
    monkeypatch.setenv("DATABASE_POOL_MAX", "5")
    monkeypatch.setenv("CONN_MAX_AGE", "60")
    persistent = parse_database_url("postgres://127.0.0.1/dust")
    assert "pool" not in persistent["OPTIONS"]
    assert persistent["CONN_MAX_AGE"] == 60
    assert persistent["CONN_HEALTH_CHECKS"] is True  # checked at each request's start


def test_it_binds_parameters_on_the_server_only_when_told_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Prepared statements (issue 29): a setting, off unless asked for (PgBouncer in
    transaction mode cannot have them)."""
    monkeypatch.delenv("DATABASE_SERVER_SIDE_BINDING", raising=False)
    assert not parse_database_url("postgres://127.0.0.1/dust")["OPTIONS"]["server_side_binding"]
    monkeypatch.setenv("DATABASE_SERVER_SIDE_BINDING", "1")
    options = parse_database_url("postgres://127.0.0.1/dust")["OPTIONS"]
    assert options["server_side_binding"] is True
    assert "server_side_binding" not in parse_database_url("sqlite:///db.sqlite3")["OPTIONS"]
    monkeypatch.setenv("DATABASE_POOL_MAX", "many")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_MAX"):
        parse_database_url("postgres://127.0.0.1/dust")


def test_it_parses_a_minimal_postgresql_url() -> None:
    db = parse_database_url("postgresql://127.0.0.1/dustdevils")
    assert (db["NAME"], db["HOST"], db["PORT"], db["USER"]) == ("dustdevils", "127.0.0.1", "", "")
    assert parse_database_url("postgresql+psycopg://127.0.0.1/dust")["NAME"] == "dust"


def test_it_takes_a_unix_socket_from_the_query_as_libpq_does() -> None:
    db = parse_database_url("postgres:///dust?host=/var/run/postgresql")
    assert (db["HOST"], db["NAME"]) == ("/var/run/postgresql", "dust")
    assert "host" not in db["OPTIONS"]


def test_it_parses_sqlite_urls() -> None:
    assert (
        parse_database_url("sqlite:////var/lib/dd/db.sqlite3")["NAME"] == "/var/lib/dd/db.sqlite3"
    )
    relative = parse_database_url("sqlite:///data/db.sqlite3")
    assert relative["ENGINE"] == "django.db.backends.sqlite3"
    assert relative["NAME"] == "data/db.sqlite3"
    assert parse_database_url("sqlite:///:memory:")["NAME"] == ":memory:"


def test_it_gives_sqlite_the_apps_options() -> None:
    """Writers queue at BEGIN (IMMEDIATE) instead of failing half-way with "database is
    locked"; the URL's own options win."""
    options = parse_database_url("sqlite:///db.sqlite3")["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in options["init_command"]
    assert parse_database_url("sqlite:///db.sqlite3?timeout=5")["OPTIONS"]["timeout"] == 5


@pytest.mark.parametrize(
    "url",
    [
        "mysql://root@localhost/dust",
        "postgres://localhost:notaport/dust",
        "postgres://[::1/dust",
        "postgres://localhost:5432/",
        "postgres://localhost:5432/a/b",
        "sqlite://somehost/db.sqlite3",
        "sqlite://",
        "just some words",
    ],
)
def test_it_rejects_a_malformed_database_url_naming_the_variable(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        parse_database_url(url)


def test_it_stops_start_up_on_a_bad_database_url(tmp_path: Path) -> None:
    proc = run_django("import django; django.setup()", tmp_path, DATABASE_URL="postgres//oops")
    assert proc.returncode != 0
    assert "ImproperlyConfigured" in proc.stderr
    assert "DATABASE_URL" in proc.stderr


# --- Small helpers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("YES", True),
        (" on ", True),
        ("0", False),
        ("off", False),
        ("", False),
    ],
)
def test_it_reads_booleans(monkeypatch: pytest.MonkeyPatch, raw: str, expected: bool) -> None:
    monkeypatch.setenv("SOME_FLAG", raw)
    assert env_bool("SOME_FLAG") is expected


def test_it_uses_defaults_for_unset_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOME_FLAG", raising=False)
    assert env_bool("SOME_FLAG", True) is True
    assert env_int("SOME_FLAG", 7) == 7
    assert env_list("SOME_FLAG", ["a"]) == ["a"]


def test_it_rejects_a_non_boolean(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe'"):
        env_bool("DEBUG")


def test_it_reads_and_checks_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONN_MAX_AGE", "60")
    assert env_int("CONN_MAX_AGE", 0) == 60
    monkeypatch.setenv("CONN_MAX_AGE", "sixty")
    with pytest.raises(ImproperlyConfigured, match="CONN_MAX_AGE"):
        env_int("CONN_MAX_AGE", 0)
    monkeypatch.setenv("CONN_MAX_AGE", "-1")
    with pytest.raises(ImproperlyConfigured, match="minimum"):
        env_int("CONN_MAX_AGE", 0, minimum=0)


def test_it_splits_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", " a.example, b.example ,,")
    assert env_list("ALLOWED_HOSTS") == ["a.example", "b.example"]


@pytest.mark.parametrize("url", ["http://localhost:6379", "redis://:6379/0", "redis://h:port/0"])
def test_it_rejects_a_bad_redis_url(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("REDIS_URL", url)
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        env_redis_url()


# --- Modes ------------------------------------------------------------------------------


def test_it_defaults_to_the_embedded_setup(tmp_path: Path) -> None:
    shown = show_settings(tmp_path)
    assert shown["engine"] == "django.db.backends.sqlite3"
    assert shown["name"] == str(tmp_path / "db.sqlite3")
    assert shown["eager"] is True
    assert shown["celery_eager"] is True
    assert shown["broadcaster"] == "inprocess"
    assert shown["debug"] is False


def test_it_makes_and_keeps_a_machine_secret_key(tmp_path: Path) -> None:
    first = show_settings(tmp_path)["secret_key"]
    second = show_settings(tmp_path)["secret_key"]
    key_file = tmp_path / ".secret_key"
    assert first == second == key_file.read_text().strip()
    assert len(str(first)) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_it_switches_to_real_services(tmp_path: Path) -> None:
    shown = show_settings(
        tmp_path,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/dustdevils",
        REDIS_URL="redis://127.0.0.1:6379/3",
    )
    assert shown["engine"] == "django.db.backends.postgresql"
    assert shown["eager"] is False
    assert shown["celery_eager"] is False
    assert shown["broker"] == "redis://127.0.0.1:6379/3"
    assert shown["broadcaster"] == "redis"


def production_env(**extra: str) -> dict[str, str]:
    return {
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "table.example.com",
    } | extra


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_it_refuses_production_without(tmp_path: Path, missing: str) -> None:
    env = production_env()
    del env[missing]
    proc = run_django("import django; django.setup()", tmp_path, **env)
    assert proc.returncode != 0
    assert missing in proc.stderr


@pytest.mark.parametrize(
    "weak",
    ["short-but-random-9f8e7d", "a" * 64, "django-insecure-" + secrets.token_urlsafe(64)],
    ids=["short", "few characters", "django-insecure"],
)
def test_it_refuses_a_weak_secret_key_in_production(tmp_path: Path, weak: str) -> None:
    """Issue 19 #5: not only Django's W009 warning — production does not start."""
    proc = run_django("import django; django.setup()", tmp_path, **production_env(SECRET_KEY=weak))
    assert proc.returncode != 0
    assert "SECRET_KEY is too weak" in proc.stderr


def test_it_refuses_debug_in_production(tmp_path: Path) -> None:
    proc = run_django("import django; django.setup()", tmp_path, **production_env(DEBUG="1"))
    assert proc.returncode != 0
    assert "DEBUG" in proc.stderr


def deploy_check(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env={k: v for k, v in os.environ.items() if k not in _CONFIG_VARS}
        | {"DATA_DIR": str(tmp_path)}
        | production_env(**extra),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_it_passes_the_deploy_check_in_production(tmp_path: Path) -> None:
    proc = deploy_check(tmp_path, FORWARDED_ALLOW_IPS="172.28.0.10")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_the_deploy_check_warns_of_a_wildcard_forwarded_allow_list(tmp_path: Path) -> None:
    """Issue 37: FORWARDED_ALLOW_IPS=* believes every client's X-Forwarded-For (any address
    for the login lockout); ``check --deploy`` says so instead of passing silently."""
    proc = deploy_check(tmp_path, FORWARDED_ALLOW_IPS="10.0.0.1, *")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "dustdevils.W001" in proc.stderr
    assert "FORWARDED_ALLOW_IPS" in proc.stderr
