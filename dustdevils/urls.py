"""URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from dustdevils import views

urlpatterns = [
    path("", include("campaigns.home_urls")),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("dustdevils.accounts.urls")),
    # Campaign pages, all scoped by membership through campaigns.access.
    path("", include("campaigns.urls")),
    path("", include("characters.urls")),
    path("", include("exchange.urls")),
    # The table clock's time, and every declared game (tables.site): c/<slug>/<kind>/….
    path("", include("tables.urls")),
    path("admin/", admin.site.urls),
]
