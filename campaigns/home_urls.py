"""The home page, at the root and outside the campaigns namespace (``{% url 'home' %}``)."""

from __future__ import annotations

from django.urls import URLPattern, path

from campaigns.views.home import home

urlpatterns: list[URLPattern] = [path("", home, name="home")]
