"""The ASGI entry point: request threads are reused, one request at a time on each."""

from __future__ import annotations

import asyncio
import threading
import traceback

import pytest
from django.http import HttpRequest, HttpResponse
from django.urls import path

from dustdevils.asgi import ReusedThreadsASGIHandler

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


async def _get(handler: ReusedThreadsASGIHandler, url: str) -> int:
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
def test_the_next_request_runs_on_the_thread_the_last_one_used() -> None:
    seen.clear()
    handler = ReusedThreadsASGIHandler()

    async def three_in_a_row() -> list[int]:
        return [await _get(handler, "/where/") for _ in range(3)]

    assert asyncio.run(three_in_a_row()) == [200, 200, 200]
    assert len(seen) == 3
    assert len(set(seen)) == 1  # Django's own handler: three threads
    assert seen[0] is not threading.current_thread()  # not the event loop's thread


@pytest.mark.urls("tests.test_asgi")
def test_requests_at_the_same_time_each_have_their_own_thread() -> None:
    seen.clear()
    handler = ReusedThreadsASGIHandler()

    async def together() -> list[int]:
        return list(await asyncio.gather(*(_get(handler, "/where/") for _ in range(4))))

    assert asyncio.run(together()) == [200] * 4
    assert len(set(seen)) == 4
    assert len(handler._idle) == 4  # kept for the next ones


@pytest.mark.urls("tests.test_asgi")
def test_a_sync_view_runs_with_the_whole_chain_in_one_thread_and_an_async_one_in_the_loop() -> None:
    """Sync views (every page and move) get the middleware in sync mode, start to end in the
    request's thread: no call back from the event loop. Async views (the live streams) still
    run in the loop, through Django's async chain."""
    seen.clear()
    called_back.clear()
    handler = ReusedThreadsASGIHandler()

    async def both() -> tuple[list[int], threading.Thread]:
        statuses = [await _get(handler, "/where/"), await _get(handler, "/where-async/")]
        return statuses, threading.current_thread()

    statuses, loop_thread = asyncio.run(both())
    assert statuses == [200, 200]
    assert called_back == [False]
    assert seen[0] is not loop_thread
    assert seen[1] is loop_thread
