"""The table kit's own URL: the server's clock (``tables.clock``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tables import clock

app_name = "tables"

urlpatterns: list[URLPattern] = [path("time", clock.server_time, name="time")]
