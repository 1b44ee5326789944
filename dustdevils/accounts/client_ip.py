"""The client's address for django-axes when the app runs behind a TLS proxy."""

from __future__ import annotations

from django.http import HttpRequest


def behind_proxy(request: HttpRequest) -> str | None:
    """The right-most X-Forwarded-For entry: the one our own proxy appended. Entries further
    left come from the client and could be forged to dodge (or aim) a lockout."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    return hops[-1] if hops else request.META.get("REMOTE_ADDR")
