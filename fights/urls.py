"""URLs of the fight screens (``fights:detail``…), included at the root by dustdevils/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from fights import streams, views

app_name = "fights"

BASE = "c/<slug:slug>/fights/"
ONE = BASE + "<int:fight_id>/"

urlpatterns: list[URLPattern] = [
    path(BASE + "new/", views.fight_new, name="new"),
    path(ONE, views.detail, name="detail"),
    path(ONE + "table/", views.table, name="table"),
    path(ONE + "join/", views.fight_join, name="join"),
    path(ONE + "version/", views.version, name="version"),
    path(ONE + "stream/", streams.fight_stream, name="stream"),
    path(ONE + "table/stream/", streams.table_stream, name="table_stream"),
    # Every move, by name (fights.forms.ACTIONS): always a POST.
    path(ONE + "move/<slug:action>/", views.act, name="move"),
    path(BASE + "quickness/<int:character_id>/", views.quickness_dice, name="quickness_dice"),
]
