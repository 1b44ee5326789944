"""The project's one per-process cache: ``functools.lru_cache``, bounded, with a registry.

What a process may keep between requests is only what is made again and again from the same
immutable facts (a timeline line, the roster for the same hands, a conflict's URLs, a hand's
odds): the key is the whole of what the value is made from, so a value can never be stale nor
carry one viewer's facts to another. Each such function is decorated ``@bounded(maxsize)``;
``clear_all()`` forgets every one (the test fixture: a flushed test database gives out the same
ids again, which a real database never does).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import _lru_cache_wrapper, lru_cache
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_registry: list[_lru_cache_wrapper[Any]] = []


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
