"""Issue 27: every 403 wrote a full traceback at WARNING. A refusal is one line."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_403_is_logged_as_one_line_without_a_traceback(
    client_as: Any, campaign: Any, pc_a: Any, player_b: User
) -> None:
    records = Records()
    records.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    django_logger = logging.getLogger("django")
    django_logger.addHandler(records)
    try:
        response = client_as(player_b).post(f"/c/{campaign.slug}/characters/{pc_a.pk}/approve/")
    finally:
        django_logger.removeHandler(records)
    assert response.status_code == 403
    [refused] = [r for r in records.records if getattr(r, "status_code", None) == 403]
    assert refused.levelname == "WARNING"
    assert refused.exc_info is None
    text = records.format(refused)
    assert "Traceback" not in text
    assert "\n" not in text
    assert text.startswith("WARNING django.request: Forbidden")
