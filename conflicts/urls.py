"""URLs of the conflicts app: the Dealer's console, the player's view, the table view, the
Rulings page (included at the root by dustdevils/urls.py)."""

from __future__ import annotations

from django.urls import URLPattern, path

from conflicts import streams, views

app_name = "conflicts"

BASE = "c/<slug:slug>/conflicts/"
ONE = BASE + "<int:conflict_id>/"

urlpatterns: list[URLPattern] = [
    path(BASE, views.conflict_list, name="list"),
    path(BASE + "new/", views.conflict_new, name="new"),
    path(ONE, views.detail, name="detail"),
    path(ONE + "table/", views.table, name="table"),
    path(ONE + "version/", views.version, name="version"),
    path(ONE + "stream/", streams.conflict_stream, name="stream"),
    path(ONE + "table/stream/", streams.table_stream, name="table_stream"),
    path(ONE + "advice/", views.advice, name="advice"),
    path(ONE + "again/", views.deal_again, name="again"),
    path(ONE + "narrate/", views.narrate, name="narrate"),
    path(ONE + "replay/", views.replay, name="replay"),
    # Every table move, by name (conflicts.forms.ACTIONS): always a POST.
    path(ONE + "move/<slug:action>/", views.act, name="move"),
    path("rulings/", views.rulings, name="rulings"),
]
