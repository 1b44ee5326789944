"""Export and import of whole campaigns (JSON)."""

from __future__ import annotations

app_name = "exchange"

urlpatterns: list = []  # type: ignore[type-arg]
