from __future__ import annotations

from django.apps import AppConfig


class HighCardConfig(AppConfig):
    """High card, a test-only game (issue 35): each seat draws one card, face down; when all
    have drawn they are shown and the highest wins. It plugs into the site with its declaration
    (``game.py``) and ``INSTALLED_APPS`` alone (``dustdevils/settings_test.py``), and passes the
    whole contract suite (tests/tables/test_contract.py)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tests.highcard"
    label = "highcard"
