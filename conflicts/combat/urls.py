"""URLs of the fight screens, in the conflicts app's namespace (``conflicts:fight``…)."""

from __future__ import annotations

from django.urls import URLPattern, path

from conflicts.combat import streams, views

BASE = "c/<slug:slug>/fights/"
ONE = BASE + "<int:fight_id>/"

urlpatterns: list[URLPattern] = [
    path(BASE + "new/", views.fight_new, name="fight_new"),
    path(ONE, views.detail, name="fight"),
    path(ONE + "table/", views.table, name="fight_table"),
    path(ONE + "join/", views.fight_join, name="fight_join"),
    path(ONE + "version/", views.version, name="fight_version"),
    path(ONE + "stream/", streams.fight_stream, name="fight_stream"),
    path(ONE + "table/stream/", streams.table_stream, name="fight_table_stream"),
    # Every move, by name (conflicts.combat.forms.ACTIONS): always a POST.
    path(ONE + "move/<slug:action>/", views.act, name="fight_move"),
    path(BASE + "quickness/<int:character_id>/", views.quickness_dice, name="quickness_dice"),
]
