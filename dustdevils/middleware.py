"""Middleware of our own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.http.response import HttpResponseBase


class OneThreadForTheChain:
    """Last in MIDDLEWARE, and synchronous only, so that Django runs every middleware above it
    synchronously, one after the other in the request's one worker thread.

    Under ASGI Django runs a middleware in async mode when the one below it is async, and the
    built-in ones (sessions, CSRF, auth, messages…) then hop from the event loop to a thread
    and back for each of their ``process_*`` methods: a dozen round trips per request through
    an event loop that is busy writing the live screens, which is what a move's answer waited
    for under load. With this at the bottom the chain costs one hop in and one out (the view
    itself is reached the usual way: async views in the loop, sync views in the thread)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)
