"""URLs of the characters app (included under /c/<slug>/ by dustdevils/urls.py)."""

from __future__ import annotations

from django.urls import path  # noqa: F401

app_name = "characters"

urlpatterns: list = []  # type: ignore[type-arg]
