"""Issue 37, S6: nobody who can list the cache can log in as anyone. Django's ``cached_db``
keyed each session's cache entry by the ``sessionid`` cookie's value, so a listing of a shared
Redis's keys was a list of cookies (the probe logged in as a player that way). After a real
login, neither any key nor any value of the cache — Redis's when REDIS_URL is set, else this
process's memory — holds the cookie; and the cached session still saves the query."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dustdevils.sessions import cache_key_of
from tests.conftest import CAST_PASSWORD

pytestmark = pytest.mark.django_db


def everything_cached() -> Iterator[tuple[bytes, bytes]]:
    """(key, value) of every entry of the default cache, as stored."""
    if settings.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache":
        raw = cache.client.get_client()  # type: ignore[attr-defined]  # django-redis's client
        for key in raw.scan_iter(match=f"{settings.DEPLOYMENT_NAMESPACE}:*"):
            kind = raw.type(key)
            value = raw.get(key) if kind == b"string" else repr(raw.dump(key)).encode()
            yield key, value or b""
    else:  # LocMemCache: pickled values under the made keys
        for key, value in cache._cache.items():  # type: ignore[attr-defined]
            yield key.encode(), value


def test_no_cache_key_nor_value_holds_a_session_cookie(player_a: User) -> None:
    client = Client()
    answer = client.post(reverse("login"), {"username": "player_a", "password": CAST_PASSWORD})
    assert answer.status_code == 302
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert len(cookie) >= 32
    assert client.get(reverse("home")).status_code == 200  # read back through the cache

    entries = list(everything_cached())
    assert any(cache_key_of(cookie).encode() in key for key, _ in entries), "the session is cached"
    for key, value in entries:
        assert cookie.encode() not in key, key
        assert cookie.encode() not in value, key


def test_a_cached_session_costs_no_query(player_a: User) -> None:
    client = Client()
    client.force_login(player_a)
    client.get(reverse("home"))
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("campaigns:running"))
    assert not [q for q in queries if "django_session" in q["sql"]], queries.captured_queries


def test_logging_out_forgets_the_cached_session(player_a: User) -> None:
    client = Client()
    client.force_login(player_a)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert cache.get(cache_key_of(cookie)) is not None
    client.post(reverse("logout"))
    assert cache.get(cache_key_of(cookie)) is None
