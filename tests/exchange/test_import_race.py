"""Issue 37, B9: twenty imports of files with the same slug at once each make their campaign and
answer no 500 (the probe: 7 of 10 answered 500 on PostgreSQL). The import takes the slug as
the create form does (``campaigns.services.campaign_insert``): a lost race numbers on."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client

from campaigns.models import Campaign
from campaigns.services import campaign_create
from exchange.api import campaign_export, campaign_file_dump
from tests.test_create_once import RACERS, race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_twenty_imports_with_one_slug_at_once_each_make_a_campaign(dealer: User) -> None:
    assert connection.vendor == "postgresql"
    raw = campaign_file_dump(campaign_export(campaign_create(dealer=dealer, name="Dry Gulch")))
    clients = []
    for n in range(RACERS):
        user = User.objects.create_user(f"importer{n}", password="x" * 20)
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)

    def post(i: int) -> Any:
        upload = SimpleUploadedFile("dry-gulch.json", raw.encode(), "application/json")
        return clients[i].post("/import/", {"file": upload})

    results = race(post)

    statuses = [getattr(r, "status_code", r) for r in results]
    assert all(isinstance(s, int) and s < 500 for s in statuses), statuses
    assert statuses == [302] * RACERS, statuses
    assert Campaign.objects.filter(name="Dry Gulch").count() == 1 + RACERS
