"""Issue 28 #7: the conflict wizard (conflicts/new) shows every field's error where it is, and
a session that ended since the page was loaded comes back as the form WITH a message, never a
bare refusal."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import GameSession
from conflicts.models import Conflict

pytestmark = pytest.mark.django_db


def setup_form(pc_a: Any, **changes: Any) -> dict[str, Any]:
    form = {
        "key": "wizard-key", "title": "Gunfight at the corral", "stakes": 1, "stud": 5,
        f"take_{pc_a.pk}": "on", f"side_{pc_a.pk}": "players",
    }  # fmt: skip
    return {**form, **changes}


def test_a_session_ended_since_the_page_was_loaded_comes_back_with_a_message(
    client: Client, campaign: Any, dealer: User, pc_a: Any
) -> None:
    session = GameSession.objects.create(
        campaign=campaign, number=1, status=GameSession.Status.ENDED
    )
    client.force_login(dealer)
    response = client.post(
        f"/c/{campaign.slug}/conflicts/new/", setup_form(pc_a, session=session.pk)
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "That session has ended or is gone since this page was loaded" in html
    assert "Nothing was set up" in html
    assert not Conflict.objects.exists()


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"stakes": "9"}, "Select a valid choice. 9 is not one of the available choices."),
        ({"stud": "4"}, "Select a valid choice. 4 is not one of the available choices."),
        ({"stud_goal": "x" * 301}, "Ensure this value has at most 300 characters"),
        ({"recovery_points": "²"}, "Enter a whole number."),
        ({"goal_PC": "x" * 301}, "Ensure this value has at most 300 characters"),
        ({"side_PC": "nowhere"}, "Select a valid choice. nowhere is not one of the available"),
        ({"fight_round": "0"}, "Ensure this value is greater than or equal to 1."),
    ],
)
def test_every_fields_error_is_shown(
    client: Client, campaign: Any, dealer: User, pc_a: Any, changes: dict[str, str], words: str
) -> None:
    changes = {k.replace("PC", str(pc_a.pk)): v for k, v in changes.items()}
    client.force_login(dealer)
    response = client.post(f"/c/{campaign.slug}/conflicts/new/", setup_form(pc_a, **changes))
    assert response.status_code == 200
    assert words in response.content.decode().replace("&#x27;", "'")
    assert not Conflict.objects.exists()
