"""The session engine (``SESSION_ENGINE``): Django's ``cached_db`` — sessions read from the cache
(Redis when configured) and written through to the database — with one change (issue 37, S6):
the cache key of a session is a keyed hash of its key, never the key itself.

The ``sessionid`` cookie IS the session key, and ``cached_db`` keys the cache by it: anyone who
could list the keys of a shared Redis could log in as anyone (the probe did). Here the cache key
is an HMAC of the session key under the server's secret key, so a listing gives nothing a cookie
can be made from; the value is the session's data (who is logged in, and the HMAC of their
password hash Django keeps to end sessions when it changes: nothing a cookie is made from).
Measured against the plain database engine in ``tests/benchmarks/bench_sessions.py``.
"""

from __future__ import annotations

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore
from django.core.cache.backends.base import BaseCache
from django.utils.crypto import salted_hmac

SALT = "dustdevils.sessions.cache-key"


def cache_key_of(session_key: str) -> str:
    """The cache key of the session ``session_key``: the prefix and an HMAC-SHA256 of it."""
    digest = salted_hmac(SALT, session_key, algorithm="sha256").hexdigest()
    return f"{SessionStore.cache_key_prefix}:{digest}"


class SessionStore(CachedDbStore):
    cache_key_prefix = "dustdevils.sessions"
    _cache: BaseCache  # Django's cached_db sets it; its stubs leave it out

    @property
    def cache_key(self) -> str:
        return cache_key_of(self._get_or_create_session_key())  # type: ignore[attr-defined]

    async def acache_key(self) -> str:
        return cache_key_of(await self._aget_or_create_session_key())  # type: ignore[attr-defined]

    def exists(self, session_key: str) -> bool:
        if session_key and cache_key_of(session_key) in self._cache:
            return True
        return super(CachedDbStore, self).exists(session_key)

    async def aexists(self, session_key: str) -> bool:
        if session_key and await self._cache.ahas_key(cache_key_of(session_key)):
            return True
        return await super(CachedDbStore, self).aexists(session_key)

    def delete(self, session_key: str | None = None) -> None:
        super(CachedDbStore, self).delete(session_key)
        session_key = session_key if session_key is not None else self.session_key
        if session_key is not None:
            self._cache.delete(cache_key_of(session_key))

    async def adelete(self, session_key: str | None = None) -> None:
        await super(CachedDbStore, self).adelete(session_key)
        session_key = session_key if session_key is not None else self.session_key
        if session_key is not None:
            await self._cache.adelete(cache_key_of(session_key))
