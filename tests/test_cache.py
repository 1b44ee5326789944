"""The Redis cache (django-redis, ``settings.redis_cache``) only saves work: with Redis away a
read is a miss and a write is dropped — logged, never an error for a page or a live stream."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache, caches
from django.test import override_settings

from dustdevils.env import redis_cache

NOBODY_LISTENS = "redis://127.0.0.1:1/0"  # port 1: connection refused at once


@pytest.fixture
def redis_down() -> Iterator[None]:
    with override_settings(CACHES={"default": redis_cache(NOBODY_LISTENS, "test")}):
        yield
    caches.close_all()


def test_it_treats_a_redis_outage_as_misses_and_drops_writes(
    redis_down: None, caplog: pytest.LogCaptureFixture
) -> None:
    started = time.monotonic()
    assert cache.get("odds") is None
    assert cache.get("odds", "fallback") == "fallback"
    assert cache.get_many(["odds", "advice"]) == {}
    cache.set("odds", (52, 1000), 60)
    cache.set_many({"odds": 1, "advice": 2})
    cache.add("odds", 1)
    cache.delete("odds")
    assert cache.get_or_set("odds", lambda: (40, 900)) == (40, 900)
    assert time.monotonic() - started < 5, "an outage must not hold a page for long"
    ignored = [r for r in caplog.records if r.name == "django_redis.cache"]
    assert ignored, "the outage is in the log"


@pytest.mark.redis
def test_it_keeps_values_in_redis_under_the_deployments_prefix() -> None:
    real = caches.create_connection("default")
    assert settings.CACHES["default"]["BACKEND"] == "django_redis.cache.RedisCache"
    real.set("odds-check", (61, 1500), 30)
    try:
        assert real.get("odds-check") == (61, 1500)
        raw = real.client.get_client()  # type: ignore[attr-defined]  # django-redis's client
        assert raw.exists(f"{settings.DEPLOYMENT_NAMESPACE}:1:odds-check")
    finally:
        real.delete("odds-check")
