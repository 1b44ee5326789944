"""The project's one per-process cache: ``functools.lru_cache``, bounded, with a registry.

What a process may keep between requests is only what is made again and again from the same
immutable facts (a timeline line, the roster for the same hands, a conflict's URLs, a hand's
odds): the key is the whole of what the value is made from, so a value can never be stale nor
carry one viewer's facts to another. Each such function is decorated ``@bounded(maxsize)``;
``clear_all()`` forgets every one (the test fixture: a flushed test database gives out the same
ids again, which a real database never does).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any, Generic, Protocol, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
V = TypeVar("V")


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...


_registry: list[_Clearable] = []


def bounded(maxsize: int) -> Callable[[F], F]:
    """``lru_cache(maxsize)``, registered so that ``clear_all`` reaches it."""

    def wrap(function: F) -> F:
        cached = lru_cache(maxsize=maxsize)(function)
        _registry.append(cached)
        return cached  # type: ignore[return-value]

    return wrap


def clear_all() -> None:
    """Forget everything every ``bounded`` function remembers."""
    for cached in _registry:
        cached.cache_clear()


class Found(Generic[V]):
    """Values found elsewhere (the shared cache), remembered here once found — a miss is not
    remembered, the value may be made later — at most ``maxsize``, the least recently used
    forgotten first. Registered, as ``bounded`` is. For values that never change for their key."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        _registry.append(self)

    def get(self, key: Hashable) -> V | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> None:
        self._values[key] = value
        self._values.move_to_end(key)
        while len(self._values) > self.maxsize:
            self._values.popitem(last=False)

    def cache_clear(self) -> None:
        self._values.clear()
