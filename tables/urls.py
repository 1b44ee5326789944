"""The table kit's own URL: the server's clock, for the phones' table clocks."""

from __future__ import annotations

from django.urls import URLPattern, path

from tables import clock

urlpatterns: list[URLPattern] = [
    path("clock/", clock.now_view, name="clock"),
]
