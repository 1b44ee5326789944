"""The table kit's own URLs: the server's clock (for the phones' table clocks), and every
declared game's pages (``tables.site``: ``c/<slug>/<kind>/…``, in the namespace ``<kind>``)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables import clock
from tables.site import site

urlpatterns: list[URLPattern | URLResolver] = [
    path("clock/", clock.now_view, name="clock"),
    *site.urls(),
]
