"""Live updates: "table T is now at version v", and nothing else — no card ever travels here.

Each open screen re-renders its own fragments from the database when its table moves, through
the one per-viewer view (R10). This module is the in-process broadcaster of the embedded default;
the Server-Sent Events stream and the Redis pub/sub fan-out build on the same two calls.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

Listener = Callable[[str, int], None]

_lock = threading.Lock()
_listeners: set[Listener] = set()
_latest: dict[str, int] = {}


def publish(table: str, version: int) -> None:
    """Announce that ``table`` is now at ``version`` (called on commit of a move)."""
    with _lock:
        if version <= _latest.get(table, -1):
            return
        _latest[table] = version
        listeners = list(_listeners)
    for listener in listeners:
        listener(table, version)


def latest(table: str) -> int | None:
    with _lock:
        return _latest.get(table)


def subscribe(listener: Listener) -> Callable[[], None]:
    """Call ``listener(table, version)`` on every publish; returns the unsubscribe function."""
    with _lock:
        _listeners.add(listener)

    def unsubscribe() -> None:
        with _lock:
            _listeners.discard(listener)

    return unsubscribe
