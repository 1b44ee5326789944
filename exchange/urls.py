"""Export and import of whole campaigns (JSON), included at the root by dustdevils/urls.py."""

from __future__ import annotations

from django.urls import path

from exchange import views

app_name = "exchange"

urlpatterns = [
    path("c/<slug:slug>/export.json", views.export_json, name="export"),
    path("c/<slug:slug>/import/", views.restore, name="restore"),
    path("import/", views.import_new, name="import"),
]
