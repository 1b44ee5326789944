"""ASGI entry point: ``uvicorn dustdevils.asgi:application``."""

from __future__ import annotations

import gc
import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext, iscoroutinefunction, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.urls import Resolver404, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dustdevils.settings")

# whitenoise streams static files through a synchronous iterator; under ASGI Django reads it in
# a thread and warns on every file. Our static files are small, so the warning is only noise.
warnings.filterwarnings(
    "ignore",
    message="StreamingHttpResponse must consume synchronous iterators",
    category=Warning,
)


class ReusedThreadsASGIHandler(ASGIHandler):
    """Django's ASGI handler, but a request's synchronous part (the middleware chain and a sync
    view, then the response's close, which gives the database connection back) runs in a
    worker thread kept from an earlier request instead of one started for it.

    Django gives each request a ``ThreadSensitiveContext()``, which starts a new thread for the
    request's first synchronous call and joins it at the end: under load that start and join
    were ~6 % of a server's CPU (py-spy, ``make bench BENCH=live``). asgiref lets the caller
    own the context's executor (one call at a time on one thread, as each request had), so a
    finished request's thread serves the next one. A request still holds its own thread for
    as long as it runs, as before (a live stream, too); only ``KEEP`` idle ones are kept."""

    KEEP = 32

    def __init__(self) -> None:
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []  # touched only from the event loop
        # The same middleware, loaded in sync mode, for the requests whose view is sync
        # (every page and move; only the live streams are async views). Django's async chain
        # ends in an async handler, so under it a sync middleware chain calls back into the
        # event loop (async_to_sync) which calls the view back in the thread (sync_to_async):
        # four hand-offs between the loop and the thread per request, each a wake-up, on a
        # loop that is busy writing live screens. The sync chain runs start to end in the
        # thread: one hop in, one out.
        self._sync = BaseHandler()
        self._sync.load_middleware(is_async=False)
        self._in_thread = sync_to_async(self._sync.get_response, thread_sensitive=True)

    async def get_response_async(self, request: Any) -> Any:
        if _async_view(settings.ROOT_URLCONF, request.path_info):
            return await super().get_response_async(request)
        return await self._in_thread(request)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = (
            self._idle.pop()
            if self._idle
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
        )
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            # A call a cancelled request left running finishes first; the next request's
            # calls wait behind it on the same thread, as they would have on their own.
            if len(self._idle) < self.KEEP:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)


_ASYNC_VIEWS: dict[tuple[str, str], bool] = {}  # (urlconf, path) -> async view? (resolved only)
_ASYNC_VIEWS_KEEP = 4096


def _async_view(urlconf: str, path: str) -> bool:
    """Whether ``path`` is served by an async view (a live stream); an unknown path is not
    (the sync chain answers 404). Remembered for paths that resolve, at most 4,096 of them
    (a client choosing paths cannot grow it past that)."""
    key = (urlconf, path)
    known = _ASYNC_VIEWS.get(key)
    if known is not None:
        return known
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return False
    is_async = iscoroutinefunction(match.func)
    if len(_ASYNC_VIEWS) >= _ASYNC_VIEWS_KEEP:
        _ASYNC_VIEWS.clear()  # rare: simpler than an LRU, and resolving again is cheap
    _ASYNC_VIEWS[key] = is_async
    return is_async


def _application() -> ASGIHandler:
    """``get_asgi_application()``, with the handler above."""
    django.setup(set_prefix=False)
    return ReusedThreadsASGIHandler()


application = _application()


def _settle_garbage_collector() -> None:
    """A live server holds hundreds of thousands of long-lived objects (the code, and every
    open stream's request, task and generator); with CPython's default thresholds a full
    collection walked all of them every few seconds under load — pauses of 0.3–0.6 s that
    stalled every screen of the process, and 10–13 % of its CPU (``make bench``, 1,400
    streams). So: load the views and URLs now, freeze everything loaded so far (never
    collected again: it lives as long as the process anyway), and collect the young
    generation every 10,000 allocations instead of 700 (measured: GC time per process down
    from ~10 s to ~4 s in the same run, no full pass longer than the first)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 — imports every view module now, not mid-request
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


_settle_garbage_collector()
