"""The shared test kit: one way to race requests on real PostgreSQL, and one driver that plays
a table (a conflict, a fight, a saloon game) through its pages as the people at it would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import connections
from django.http import HttpResponse
from django.test import Client

T = TypeVar("T")


def race(workers: int, job: Callable[[int], T]) -> list[T | Exception]:
    """Run ``job(i)`` for i in 0..workers-1 in threads released at the same moment, each on
    its own database connection (given back after); each result, or the error it raised."""
    barrier = threading.Barrier(workers)
    results: list[T | Exception] = [RuntimeError("the thread hung")] * workers

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = job(i)
        except Exception as error:  # noqa: BLE001 — the race's outcome is what is tested
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


class TableDriver:
    """Drives one table through its pages: ``post`` a move as a user (the version and a fresh
    key filled in), ``ok`` for a move that must go through, ``page``, ``messages``. A game's
    driver says where its table is (``table``: the model row with ``get_absolute_url`` and
    ``version``)."""

    key_prefix = "test-key"

    def __init__(self, client: Client, table: Any) -> None:
        self.client = client
        self.table = table
        self.keys = 0
        self._user: Any = "nobody"

    @property
    def url(self) -> str:
        return str(self.table.get_absolute_url())

    def move_url(self, action: str) -> str:
        return f"{self.url}move/{action}/"

    @property
    def version(self) -> int:
        self.table.refresh_from_db()
        return int(self.table.version)

    def as_user(self, user: User | None) -> Client:
        """The client as ``user`` (None: anonymous); the session (and its messages) is kept
        while the same user goes on."""
        if self._user != user:
            self.client.logout()
            if user is not None:
                self.client.force_login(user)
            self._user = user
        return self.client

    def post(
        self,
        user: User,
        action: str,
        *,
        htmx: bool = False,
        key: str | None = None,
        version: int | None = None,
        **data: Any,
    ) -> HttpResponse:
        self.keys += 1
        payload = {
            "version": self.version if version is None else version,
            "key": key if key is not None else f"{self.key_prefix}-{self.keys}",
            **data,
        }
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        return self.as_user(user).post(self.move_url(action), payload, **headers)  # type: ignore[return-value]

    def ok(self, user: User, action: str, **data: Any) -> None:
        """A move that must be accepted (no htmx): it redirects and bumps the version."""
        before = self.version
        response = self.post(user, action, **data)
        assert response.status_code == 302, response
        assert self.version == before + 1, self.messages(user)

    def messages(self, user: User) -> list[str]:
        page = self.as_user(user).get(self.url)
        return [str(m) for m in page.context["messages"]] if page.context else []

    def page(self, user: User | None, url: str | None = None, **headers: Any) -> str:
        response = self.as_user(user).get(url or self.url, **headers)
        assert response.status_code == 200, (url, response.status_code)
        return response.content.decode()


def new_game(kind: str, *, campaign: Any, actor: User, players: list[User], rng: Any = None,
             **data: Any) -> Any:  # fmt: skip
    """A new game of a declared ``kind`` (``tables.site``), with its new-game form's ``data``
    (user ids where the form takes a member)."""
    from tables.play import create
    from tables.site import site

    return create(
        site.get(kind), campaign=campaign, actor=actor, players=players, data=data, rng=rng
    )


def play(kind: str, row: Any, user: User, action: str, *, rng: Any = None,
         **post: Any) -> Any:  # fmt: skip
    """One move of a declared game through the site's pipeline, its form posted with
    ``post`` (``version``, ``key``, ``basis``, ``pid`` and the move's own fields)."""
    from tables.play import move
    from tables.site import site

    game = site.get(kind)
    form = game.moves[action]({k: str(v) for k, v in post.items() if v is not None})
    assert form.is_valid(), form.errors
    return move(
        game, table_id=row.pk, campaign=row.campaign, user=user, form=form,
        for_pid=str(post.get("pid", "")), rng=rng,
    )  # fmt: skip


def engine_move(kind: str, row: Any, user: User, made: Any, *, host: bool = False,
                version: int | None = None, basis: str = "", key: str = "",
                rng: Any = None) -> Any:  # fmt: skip
    """The engine's move ``made`` (its own pid) through a declared game's pipeline, as ``user``
    (``host``: a move of the table's host): the move as tests and random walks make it."""
    from tables.forms import GameMove
    from tables.play import move
    from tables.site import site

    class Given(GameMove):
        host_only = host

        def move(self, pid: str, now_ms: int) -> Any:
            return made

    form = Given({"version": "" if version is None else str(version), "basis": basis, "key": key})
    assert form.is_valid(), form.errors
    return move(site.get(kind), table_id=row.pk, campaign=row.campaign, user=user, form=form,
                rng=rng)  # fmt: skip
