"""URLs of Saloon Showdown (seed 001) at a campaign's or a one-off table."""

from __future__ import annotations

from django.urls import URLPattern, path

from showdown import streams, views

app_name = "showdown"

BASE = "c/<slug:slug>/showdown/"
ONE = BASE + "<int:showdown_id>/"

urlpatterns: list[URLPattern] = [
    path(BASE, views.showdown_list, name="list"),
    path(BASE + "new/", views.showdown_new, name="new"),
    path(ONE, views.detail, name="detail"),
    path(ONE + "table/", views.table, name="table"),
    path(ONE + "story.md", views.story, name="story"),
    path(ONE + "version/", views.version, name="version"),
    path(ONE + "stream/", streams.showdown_stream, name="stream"),
    path(ONE + "table/stream/", streams.table_stream, name="table_stream"),
    path(ONE + "move/<slug:action>/", views.act, name="move"),
]
