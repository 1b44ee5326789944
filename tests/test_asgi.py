"""The ASGI entry point: request threads are reused, one request at a time on each."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.http import HttpRequest, HttpResponse
from django.urls import path

from dustdevils.asgi import ReusedThreadsASGIHandler

seen: list[threading.Thread] = []  # the threads themselves (an ident can be reused)


def where_am_i(request: HttpRequest) -> HttpResponse:
    seen.append(threading.current_thread())
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("where/", where_am_i)]


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
