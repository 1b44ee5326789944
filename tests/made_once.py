"""The named cast and Dry Gulch made once for all the tests of a module (issue 35: ``make test``
in three minutes). Not to be confused with the app's create-once forms (``tables/once.py``).

``tests/conftest.py`` makes the dealer, player_a, player_b, the outsider, the campaign, pc_a,
pc_b and the NPC again for every test: some forty statements, and most of the time of a test
that asks one page of them. A module of many such tests imports these fixtures instead::

    from tests.made_once import campaign, dealer, npc, outsider, pc_a, pc_b, player_a, player_b
    from tests.made_once import rows_once  # what they are made of

They are the same rows, made by the same functions (``conftest.make_user`` and the rest), once,
inside a transaction of the module's (``rows_once``) that is rolled back after its last test.
Each test still runs in a transaction of its own, a savepoint inside the module's (as Django's
``TestCase.setUpTestData`` does it; pytest-django keeps out of the way of such a wrapping
transaction), rolled back at its end: what a test writes (a post that went through, a log-in's
``last_login``) never reaches the next one, and each test gets its rows fresh from the
database, never another test's Python objects. A module may make rows of its own once the
same way (a module-scoped fixture on ``rows_once``, made under ``django_db_blocker.unblock()``:
``tests/test_every_url.py``'s ``objects_once``).

Once made, the rows are there for every later test of the module, asking for them or not: one
that counts rows counts them before and after (``tests/test_probe_inputs.py``), and a module
whose tests each need a campaign of their own shape (``tests/exchange/test_secrets.py``) keeps
conftest's.
Not for a test that commits (``django_db(transaction=True)``, ``transactional_db``): it would
run inside the module's transaction. The fixtures refuse to serve one."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from tests.conftest import CAST, make_campaign, make_npc, make_pc_a, make_pc_b, make_user


@dataclass(frozen=True)
class Rows:
    """The primary keys of the module's cast and table."""

    users: dict[str, int]
    campaign: int
    characters: dict[str, int]


@pytest.fixture(scope="module")
def rows_once(django_db_setup: None, django_db_blocker: Any) -> Iterator[Rows]:
    with django_db_blocker.unblock():
        module = transaction.atomic()
        module.__enter__()
        try:
            users = {name: make_user(get_user_model(), name, first) for name, first in CAST.items()}
            table = make_campaign(users["dealer"], users["player_a"], users["player_b"])
            characters = {
                "pc_a": make_pc_a(table, users["player_a"]),
                "pc_b": make_pc_b(table, users["player_b"]),
                "npc": make_npc(table),
            }
        except BaseException:
            transaction.set_rollback(True)
            module.__exit__(None, None, None)
            raise
    try:
        yield Rows(
            {name: user.pk for name, user in users.items()},
            table.pk,
            {name: character.pk for name, character in characters.items()},
        )
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            module.__exit__(None, None, None)


def _in_its_own_savepoint(request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("django_db")
    committing = marker is not None and (
        marker.kwargs.get("transaction") or (marker.args and marker.args[0])
    )
    if committing or "transactional_db" in request.fixturenames:
        raise pytest.UsageError(
            f"{request.node.nodeid}: tests/made_once.py's rows live in a transaction rolled back "
            "at the end of the module; a test that commits must make its own (tests/conftest.py)"
        )


def _user(request: pytest.FixtureRequest, rows: Rows, name: str) -> Any:
    _in_its_own_savepoint(request)
    return get_user_model().objects.get(pk=rows.users[name])


def _character(request: pytest.FixtureRequest, rows: Rows, name: str) -> Any:
    from characters.models import Character

    _in_its_own_savepoint(request)
    return Character.objects.get(pk=rows.characters[name])


@pytest.fixture
def dealer(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    return _user(request, rows_once, "dealer")


@pytest.fixture
def player_a(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    return _user(request, rows_once, "player_a")


@pytest.fixture
def player_b(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    return _user(request, rows_once, "player_b")


@pytest.fixture
def outsider(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    return _user(request, rows_once, "outsider")


@pytest.fixture
def campaign(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    from campaigns.models import Campaign

    _in_its_own_savepoint(request)
    return Campaign.objects.get(pk=rows_once.campaign)


@pytest.fixture
def pc_a(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    return _character(request, rows_once, "pc_a")


@pytest.fixture
def pc_b(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    return _character(request, rows_once, "pc_b")


@pytest.fixture
def npc(request: pytest.FixtureRequest, rows_once: Rows, db: None) -> Any:
    return _character(request, rows_once, "npc")


def fetch(rows: Rows) -> dict[str, Any]:
    """The module's cast and table, as the conftest's fixtures of those names give them."""
    from campaigns.models import Campaign
    from characters.models import Character

    users = get_user_model().objects.in_bulk(list(rows.users.values()))
    characters = Character.objects.in_bulk(list(rows.characters.values()))
    return {
        **{name: users[pk] for name, pk in rows.users.items()},
        "campaign": Campaign.objects.get(pk=rows.campaign),
        **{name: characters[pk] for name, pk in rows.characters.items()},
    }
