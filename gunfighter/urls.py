"""URLs of The Gunfighter (seed 003) at a table (a campaign's or a one-off's)."""

from __future__ import annotations

from django.urls import URLPattern, path

from gunfighter import streams, views

app_name = "gunfighter"

BASE = "c/<slug:slug>/gunfighter/"
ONE = BASE + "<int:gunfighter_id>/"

urlpatterns: list[URLPattern] = [
    path(BASE, views.gunfight_list, name="list"),
    path(BASE + "new/", views.gunfight_new, name="new"),
    path(ONE, views.detail, name="detail"),
    path(ONE + "version/", views.version, name="version"),
    path(ONE + "stream/", streams.gunfight_stream, name="stream"),
    path(ONE + "move/<slug:action>/", views.act, name="move"),
]
