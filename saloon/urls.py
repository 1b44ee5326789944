"""URLs of the saloon: a campaign's (or a one-off table's) games of Death Enters the Saloon
(seed 000)."""

from __future__ import annotations

from django.urls import URLPattern, path

from saloon import streams, views

app_name = "saloon"

BASE = "c/<slug:slug>/saloon/"
ONE = BASE + "<int:saloon_id>/"

urlpatterns: list[URLPattern] = [
    path("saloon/new/", views.oneoff_new, name="oneoff_new"),
    path(BASE, views.saloon_list, name="list"),
    path(BASE + "invite/", views.invite, name="invite"),
    path(BASE + "new/", views.saloon_new, name="new"),
    path(ONE, views.detail, name="detail"),
    path(ONE + "table/", views.table, name="table"),
    path(ONE + "story.md", views.story, name="story"),
    path(ONE + "version/", views.version, name="version"),
    path(ONE + "stream/", streams.saloon_stream, name="stream"),
    path(ONE + "table/stream/", streams.table_stream, name="table_stream"),
    path(ONE + "move/<slug:action>/", views.act, name="move"),
    path(ONE + "strike/<int:line_id>/", views.strike, name="strike"),
]
