"""Django settings for Dust Devils table: one module, everything from the environment.

Embedded default (no variables set): SQLite in ``db.sqlite3`` at the project root (or
``DATA_DIR``), live updates through an in-process broadcaster, Celery tasks run eagerly.

Real services when configured:
  DATABASE_URL=postgres://user:pass@host:5432/name   PostgreSQL through psycopg 3
  REDIS_URL=redis://host:6379/0                       Celery broker + results, Redis pub/sub

``DJANGO_ENV=production`` requires SECRET_KEY and ALLOWED_HOSTS and switches on every security
setting, so ``manage.py check --deploy --fail-level WARNING`` passes.

Every value goes through a small helper (``dustdevils/env.py``) that fails loudly
(ImproperlyConfigured naming the variable) instead of guessing: a typo in a deployment should
stop start-up, not limp along.
Test-only speed-ups live in ``dustdevils/settings_test.py``.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from dustdevils.env import (
    _machine_secret_key,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_redis_url,
    env_str,
    parse_database_url,
    redis_cache,
    sqlite_database,
)

BASE_DIR = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------------------------
# Mode, secrets, hosts
# --------------------------------------------------------------------------------------------

DJANGO_ENV = env_choice("DJANGO_ENV", ("development", "production"), "development")
PRODUCTION = DJANGO_ENV == "production"

DATA_DIR = Path(env_str("DATA_DIR") or BASE_DIR).expanduser().resolve()

DEBUG = env_bool("DEBUG", False)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG=1 is not allowed with DJANGO_ENV=production.")

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set with DJANGO_ENV=production (50+ random characters, e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(64))')."
        )
    SECRET_KEY = _machine_secret_key(DATA_DIR / ".secret_key")
elif PRODUCTION and (
    # Django's own measure of a weak key (check security.W009), made a refusal to start: a
    # warning in a deploy log is easy to miss, a forged session is not.
    len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-")
):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for DJANGO_ENV=production: use 50+ random characters, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(64))'."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
if PRODUCTION and not os.environ.get("ALLOWED_HOSTS", "").strip():
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set with DJANGO_ENV=production (comma-separated host names)."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# --------------------------------------------------------------------------------------------
# Applications
# --------------------------------------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "dustdevils.accounts",
    "campaigns",
    "characters",
    "tables",
    "conflicts",
    "fights",
    "saloon",
    "gunfighter",
    "showdown",
    "exchange",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every response (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the browser's Accept-Language...
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "dustdevils.accounts.language.chosen_language",  # ...unless chosen in the header
    # Cache-Control: no-store on every response to a logged-in person (a view may say otherwise).
    "dustdevils.no_store.no_store_when_logged_in",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A table whose saved state its engine cannot read answers 409, not 500 (issue 28).
    "tables.middleware.UnreadableTables",
    # Last of the real ones, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "dustdevils.urls"
WSGI_APPLICATION = "dustdevils.wsgi.application"
ASGI_APPLICATION = "dustdevils.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaigns.context_processors.running_tables",
            ],
        },
    },
]

# --------------------------------------------------------------------------------------------
# Database
# --------------------------------------------------------------------------------------------

_DATABASE_URL = env_str("DATABASE_URL")
DATABASES = {
    "default": parse_database_url(_DATABASE_URL)
    if _DATABASE_URL
    else sqlite_database(str(DATA_DIR / "db.sqlite3"))
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --------------------------------------------------------------------------------------------
# Redis: Celery, live updates, cache
# --------------------------------------------------------------------------------------------

REDIS_URL = env_redis_url("REDIS_URL")
# This deployment's name in a Redis it may share with others: the cache's key prefix and the
# live channels' prefix ("<namespace>:table:conflict-7"), so another deployment on the same
# Redis neither reads our cache nor hears (or forges) our tables' announcements.
DEPLOYMENT_NAMESPACE = env_str("DEPLOYMENT_NAMESPACE", "dustdevils") or "dustdevils"
if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", DEPLOYMENT_NAMESPACE):
    raise ImproperlyConfigured(
        "DEPLOYMENT_NAMESPACE may hold only letters, digits, '_', '.' and '-' (at most 64)."
    )
LIVE_NAMESPACE = DEPLOYMENT_NAMESPACE

# A cache error that IGNORE_EXCEPTIONS (redis_cache above) turns into a miss is logged, with its
# traceback, on the "django_redis.cache" logger: an outage is seen in the log, not by players.
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

# "redis" fans table updates out through Redis pub/sub (any number of processes);
# "inprocess" keeps them in this process (the embedded default: one uvicorn process).
BROADCASTER = env_choice(
    "BROADCASTER", ("inprocess", "redis"), "redis" if REDIS_URL else "inprocess"
)
if BROADCASTER == "redis" and not REDIS_URL:
    raise ImproperlyConfigured("BROADCASTER=redis needs REDIS_URL.")
# The live streams (dustdevils.live): a ping while idle, and the safety-net re-read of the
# version when no announcement came for this long (every sixth of it while Redis is away).
LIVE_PING_SECONDS = env_int("LIVE_PING_SECONDS", 15, minimum=1)
LIVE_POLL_SECONDS = env_int("LIVE_POLL_SECONDS", 30, minimum=1)
# At most this many database reads from the streams at once, per process: 1,400 open screens
# must not need 1,400 connections (each table is read once per version and shared anyway).
LIVE_DB_READS = env_int("LIVE_DB_READS", 4, minimum=1)
# Each update carries ": sent <unix time>" (an SSE comment, ignored by browsers): the load
# benchmark measures action → screen on the server's side with it. Off unless asked for.
LIVE_SENT_AT = env_bool("LIVE_SENT_AT", False)

CELERY_TIMEZONE = "UTC"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Queueing a job while the broker is down must answer at once (ending a session says the
# recovery will be queued later, and the sweep does): a short connection timeout and a short
# publish retry, not kombu's default of seconds of retries.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_RESULT_EXPIRES = 3600
# Jobs that ack late (the recovery) should not sit prefetched behind a long one.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    # A task taken by a worker that dies before acking (acks_late) goes back to the queue after
    # this many seconds. Keep it above the longest task and any retry countdown.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1),
        "socket_connect_timeout": 2,  # an unreachable Redis host fails fast, not after minutes
    }
    CACHES = {"default": redis_cache(REDIS_URL, DEPLOYMENT_NAMESPACE)}
else:
    # No broker: tasks run inline, in the request that queued them.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Importing a campaign file (exchange): refused, before it is parsed, beyond this
# size; and beyond this many chip-ledger rows in all, before they are checked. A finished
# conflict with its replay is 30–60 kB of the file, so 16 MB holds a long campaign's few hundred
# conflicts (2 MB refused a campaign's own file after ~50); such a file imports in seconds.
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 16 * 1024 * 1024, minimum=1024)
IMPORT_MAX_LEDGER_ROWS = env_int("IMPORT_MAX_LEDGER_ROWS", 5000, minimum=1)

# Background jobs (campaigns/tasks.py). The stale-session sweep is periodic: Celery beat sends
# it, and exactly ONE beat process may run (two would send every sweep twice; the sweep is
# safe to repeat, but there is no reason to). The embedded default has no beat: tasks run
# eagerly when queued, and nothing is swept.
STALE_SESSION_HOURS = env_int("STALE_SESSION_HOURS", 12, minimum=1)
STALE_CONFLICT_HOURS = env_int("STALE_CONFLICT_HOURS", 6, minimum=1)
SWEEP_INTERVAL_MINUTES = env_int("SWEEP_INTERVAL_MINUTES", 15, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "sweep-stale-sessions": {
        "task": "campaigns.tasks.sweep_stale_sessions",
        "schedule": timedelta(minutes=SWEEP_INTERVAL_MINUTES),
    },
}

# --------------------------------------------------------------------------------------------
# Auth, i18n
# --------------------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# django-axes first: it refuses a locked-out username+IP before any password is checked.
# It needs the request, so authenticate() must get one (``client.login`` in a test needs
# ``request=HttpRequest()``; ``force_login`` skips the backends and is unaffected).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed logins, each counted for 15 minutes (then a cool-off of as long): 5 for one username
# from one address; 10 for one username from any number of addresses (a guesser spread over
# many); 20 from one address for any usernames (one guesser trying many accounts). The pair
# stops a guesser first; the username alone only at twice that, so a stranger needs more
# than a few tries to lock a player out. Per-parameter limits: dustdevils/accounts/lockout.py.
AXES_HANDLER = "dustdevils.accounts.lockout.TieredLockoutHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "username", "ip_address"]
AXES_LOCKOUT_LIMITS = [
    env_int("LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS", 5, minimum=1),
    env_int("LOGIN_LIMIT_PER_ACCOUNT", 10, minimum=1),
    env_int("LOGIN_LIMIT_PER_ADDRESS", 20, minimum=1),
]
AXES_FAILURE_LIMIT = AXES_LOCKOUT_LIMITS[0]
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "dustdevils.accounts.views.locked_out"
# The proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated; "*"
# only if nothing else can reach the app). The same list goes to uvicorn's
# --forwarded-allow-ips (Makefile, deploy/Dockerfile). Empty (the default): the client is
# whoever connects, whatever headers it sends — so a new X-Forwarded-For per try cannot
# dodge the lockout. axes counts the right-most hop that is not a trusted proxy.
FORWARDED_ALLOW_IPS = env_list("FORWARDED_ALLOW_IPS", [])
AXES_CLIENT_IP_CALLABLE = "dustdevils.accounts.client_ip.client_ip"

# English (the default, the catalogue's source) and Italian (locale/it, issue 39): each request
# in its person's choice (dustdevils/accounts/language.py), else the browser's Accept-Language.
LANGUAGE_CODE, LANGUAGES = "en", [("en", "English"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC") or "UTC"
USE_I18N = True
USE_TZ = True

# --------------------------------------------------------------------------------------------
# Static files (whitenoise serves them from the app process; no CDN anywhere)
# --------------------------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
if not PRODUCTION:
    # Serve straight from static/, re-reading it per request: a fresh clone works without
    # collectstatic and an edited stylesheet shows up without a restart.
    WHITENOISE_USE_FINDERS = True
    WHITENOISE_AUTOREFRESH = True

# --------------------------------------------------------------------------------------------
# Security (production turns everything on; see deploy/PRODUCTION.md)
# --------------------------------------------------------------------------------------------

# Content-Security-Policy (django-csp 4): scripts, styles, images and the live streams only from
# this site, no inline script or style anywhere (the templates carry none: tests/test_csp.py),
# no eval (htmx's own is off: base.html's htmx-config), no plugins, no framing, forms post
# only here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Sessions read from the cache (Redis when configured, else this process's memory) and written
# through to the database: a request's session costs no query while the cache holds it. A
# session holds who is logged in, never a card. Django's cached_db, but cached under a keyed
# hash of the session key, never the cookie's value itself (dustdevils/sessions.py, issue 37).
SESSION_ENGINE = "dustdevils.sessions"
# The CSRF token reaches htmx through the template (hx-headers), so JS never reads the cookie.
CSRF_COOKIE_HTTPONLY = True

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Behind a TLS-terminating proxy (the usual deployment), trust its X-Forwarded-Proto.
    if env_bool("BEHIND_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # /healthz answers plain HTTP for the load balancer's probe.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --------------------------------------------------------------------------------------------
# Logging: to the console; the process manager collects it.
# --------------------------------------------------------------------------------------------

LOG_LEVEL = env_choice("LOG_LEVEL", ("debug", "info", "warning", "error"), "info").upper()
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"one_line_refusals": {"()": "dustdevils.logs.OneLineRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # A 403 is one line, not a traceback (dustdevils/logs.py).
        "django.request": {"filters": ["one_line_refusals"]},
    },
}
