"""Reading the environment for ``dustdevils/settings.py``: one small helper per kind of value,
each failing loudly (ImproperlyConfigured naming the variable) on a value it cannot understand,
so a typo in a deployment stops start-up instead of limping along."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


def env_str(name: str, default: str = "") -> str:
    """The variable's value, stripped; ``default`` when unset."""
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool = False) -> bool:
    """1/0, true/false, yes/no, on/off (any case); an empty value is false."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean: use 1/0, true/false, yes/no or on/off."
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """A whole number (optionally at least ``minimum``); ``default`` when unset or empty."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum of {minimum}.")
    return value


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """A comma-separated list; blanks around items and empty items are dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    """One of ``choices`` (case-insensitive); ``default`` when unset or empty."""
    value = env_str(name, default).lower() or default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of: {', '.join(choices)}.")
    return value


# dj-database-url reads the URL; the app runs on PostgreSQL and SQLite only (it knows more
# schemes, which the app has never been tried on). SQLAlchemy's spelling is accepted too.
dj_database_url.register("postgresql+psycopg", "django.db.backends.postgresql")
_ENGINES = frozenset({"django.db.backends.postgresql", "django.db.backends.sqlite3"})

SQLITE_OPTIONS: dict[str, Any] = {
    # IMMEDIATE takes the write lock at BEGIN, so two table actions racing on SQLite queue up
    # instead of failing with "database is locked" half-way through.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def parse_database_url(url: str, *, name: str = "DATABASE_URL") -> dict[str, Any]:
    """A ``DATABASES`` entry for ``postgres://user:pass@host:port/db?opt=val`` or
    ``sqlite:///path`` (read by dj-database-url), with the app's own options on top; anything
    else raises ImproperlyConfigured naming ``name``."""
    url = url.strip()
    try:
        db: dict[str, Any] = dict(dj_database_url.parse(url))
    except dj_database_url.UnknownSchemeError as exc:
        raise _unsupported_scheme(name, exc.scheme) from None
    except ValueError as exc:  # dj_database_url.ParseError: a bad port, a stray character
        raise ImproperlyConfigured(f"{name} is not a valid database URL: {exc}") from None
    options: dict[str, Any] = db.get("OPTIONS", {})

    if db["ENGINE"] == "django.db.backends.sqlite3":
        if db.get("HOST") or db.get("PORT"):
            raise ImproperlyConfigured(
                f"{name}: a SQLite URL has no host; write sqlite:///relative/path or "
                "sqlite:////absolute/path."
            )
        if db["NAME"] == ":memory:" and ":memory:" not in url:  # "sqlite://" means memory
            raise ImproperlyConfigured(f"{name}: the SQLite URL names no database file.")
        path = db["NAME"] if db["NAME"] == ":memory:" else str(Path(db["NAME"]).expanduser())
        return sqlite_database(path, options)

    if db["ENGINE"] not in _ENGINES:
        raise _unsupported_scheme(name, urlsplit(url).scheme)
    if not db["NAME"] or "/" in db["NAME"]:
        raise ImproperlyConfigured(
            f"{name}: the PostgreSQL URL must name one database, "
            "e.g. postgres://user:password@127.0.0.1:5432/dustdevils."
        )
    # ?host=/var/run/postgresql selects a Unix socket, as libpq does.
    db["HOST"] = options.pop("host", db["HOST"])
    db["PORT"] = str(db["PORT"] or "")
    db["CONN_MAX_AGE"] = conn_max_age = env_int("CONN_MAX_AGE", 0, minimum=0)
    pool_max = env_int("DATABASE_POOL_MAX", 10, minimum=0)
    if pool_max and not conn_max_age:
        # psycopg's pool (per process): under uvicorn every request runs in a thread of its
        # own, so without it each request and stream read would open (and PostgreSQL fork) a
        # connection; with it a burst waits for one of ``pool_max`` instead of failing with
        # "too many clients". DATABASE_POOL_MAX=0 (or CONN_MAX_AGE>0) switches it off.
        options["pool"] = {
            "min_size": 0,
            "max_size": pool_max,
            "timeout": env_int("DATABASE_POOL_TIMEOUT", 30, minimum=1),
        }
    # With the pool, Django hands psycopg_pool ``check=ConnectionPool.check_connection``: a
    # connection is tried as it leaves the pool and a dead one replaced, so a PostgreSQL
    # restart fails no request (issue 28). Without the pool, persistent connections are
    # checked at each request's start. (Django 5.2 always passes ``check``: setting it in
    # OPTIONS["pool"] too would be a TypeError.)
    db["CONN_HEALTH_CHECKS"] = True
    # Server-side parameter binding (DATABASE_SERVER_SIDE_BINDING=1): psycopg prepares a
    # statement a connection runs often, so PostgreSQL plans it once per connection. Off by
    # default: measured on this app (issue 29, bench_cost) it saved no PostgreSQL CPU; and it
    # must stay off behind a pooler that hands each transaction another server connection
    # (PgBouncer in transaction mode, unless it keeps prepared statements: 1.21+).
    options.setdefault("server_side_binding", env_bool("DATABASE_SERVER_SIDE_BINDING", False))
    db["OPTIONS"] = options
    return db


def _unsupported_scheme(name: str, scheme: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"{name} has an unsupported scheme {scheme or '(none)'!r}: use "
        "postgres://user:password@host:5432/name or sqlite:///path/to/db.sqlite3."
    )


def sqlite_database(path: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """SQLite at ``path``, with the app's options (the URL's own query options win)."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": SQLITE_OPTIONS | (options or {}),
    }


def env_redis_url(name: str = "REDIS_URL") -> str:
    """A redis://, rediss:// or unix:// URL, or "" when unset (embedded default)."""
    url = env_str(name)
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        _ = parts.port
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is not a valid Redis URL: {exc}.") from None
    if parts.scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"{name} has an unsupported scheme {parts.scheme or '(none)'!r}: "
            "use redis://host:6379/0."
        )
    if parts.scheme != "unix" and not parts.hostname:
        raise ImproperlyConfigured(f"{name} names no host: use redis://host:6379/0.")
    return url


def redis_cache(url: str, key_prefix: str) -> dict[str, Any]:
    """The cache on Redis (django-redis). It only saves work (the odds meters, the discard
    advice), so an outage must not fail a page or a live stream: with IGNORE_EXCEPTIONS every
    read is a miss and every write is dropped (and logged, DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS),
    after at most the short timeouts below."""
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": url,
        "OPTIONS": {
            "IGNORE_EXCEPTIONS": True,
            "SOCKET_CONNECT_TIMEOUT": 1,
            "SOCKET_TIMEOUT": 1,
        },
        "KEY_PREFIX": key_prefix,
    }


def _machine_secret_key(path: Path) -> str:
    """A random key kept in ``path`` (gitignored), made on first use, so a fresh clone runs
    with DEBUG off without anyone inventing a key, and sessions survive restarts."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(secrets.token_urlsafe(64))
        tmp.chmod(0o600)
        try:
            os.link(tmp, path)  # atomic: if another process won the race, keep its key
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    key = path.read_text().strip()
    if len(key) < 50:
        raise ImproperlyConfigured(
            f"{path} holds no usable secret key: delete it to make a new one."
        )
    return key
