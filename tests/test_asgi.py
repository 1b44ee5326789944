"""The ASGI entry point: Django's stock handler serves sync and async views."""

from __future__ import annotations

import asyncio
import threading
import traceback

import pytest
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponse
from django.urls import path

from dustdevils.asgi import application

seen: list[threading.Thread] = []  # the threads themselves (an ident can be reused)


def where_am_i(request: HttpRequest) -> HttpResponse:
    seen.append(threading.current_thread())
    # Called back from the event loop? (Django's async chain over sync middleware: the thread
    # waits in async_to_sync while the loop calls the view back into it.)
    called_back.append(any(f.name == "run_until_future" for f in traceback.extract_stack()))
    return HttpResponse("ok", content_type="text/plain")


async def where_async(request: HttpRequest) -> HttpResponse:
    seen.append(threading.current_thread())
    return HttpResponse("async", content_type="text/plain")


called_back: list[bool] = []
urlpatterns = [path("where/", where_am_i), path("where-async/", where_async)]


async def _get(handler: ASGIHandler, url: str) -> int:
    """One GET through the handler; the response's status."""
    sent: list[dict[str, object]] = []
    received = asyncio.Event()

    async def receive() -> dict[str, object]:
        if not received.is_set():
            received.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(3600)  # the client stays connected
        return {"type": "http.disconnect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": url, "raw_path": url.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 5000), "server": ("testserver", 80),
    }  # fmt: skip
    await handler(scope, receive, send)
    return int(sent[0]["status"])  # type: ignore[call-overload]


@pytest.mark.urls("tests.test_asgi")
@pytest.mark.django_db
def test_the_entry_point_is_djangos_stock_handler_serving_sync_and_async_views() -> None:
    """Issue 16: no hand-written handler; a page (sync) and a stream-like view (async) both
    answer through it."""
    assert type(application) is ASGIHandler
    seen.clear()
    assert asyncio.run(_get(application, "/where/")) == 200
    assert asyncio.run(_get(application, "/where-async/")) == 200
    assert len(seen) == 2
