"""A Redis cache that a Redis outage cannot turn into errors.

The cache only saves work (the odds meters, the discard advice); with Redis away every read is
a miss and every write is dropped, so the pages and the live streams keep working on the
database alone (the live streams' own fallback is in dustdevils.live) instead of answering 500.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
OUTAGE = (RedisConnectionError, RedisTimeoutError, OSError)


class ForgivingRedisCache(RedisCache):
    def _forgive(self, what: str, error: Exception, fallback: Any) -> Any:
        log.warning("cache: Redis unavailable during %s (%s); going without", what, error)
        return fallback

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except OUTAGE as error:
            return self._forgive("get", error, default)

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except OUTAGE as error:
            return dict(self._forgive("get_many", error, {}))

    def set(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().set(*args, **kwargs)
        except OUTAGE as error:
            self._forgive("set", error, None)

    def set_many(self, *args: Any, **kwargs: Any) -> list[Any]:
        try:
            return super().set_many(*args, **kwargs)
        except OUTAGE as error:
            return list(self._forgive("set_many", error, []))

    def add(self, *args: Any, **kwargs: Any) -> bool:
        try:
            return super().add(*args, **kwargs)
        except OUTAGE as error:
            return bool(self._forgive("add", error, False))

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        try:
            return super().delete(*args, **kwargs)
        except OUTAGE as error:
            return bool(self._forgive("delete", error, False))
