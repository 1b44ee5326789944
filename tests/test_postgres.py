"""Smoke test on real PostgreSQL (CI runs it; locally set DATABASE_URL=postgres://...)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_it_runs_on_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        (version,) = cursor.fetchone()
    assert int(version) >= 130000


def test_it_round_trips_a_model(dealer: User) -> None:
    fetched = User.objects.get(pk=dealer.pk)
    assert fetched.username == "dealer"
    assert fetched.check_password is not None
    assert User.objects.filter(username__startswith="deal").count() == 1
