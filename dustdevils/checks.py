"""The deployment's own system checks (``manage.py check --deploy``), beside Django's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

W001 = Warning(
    "FORWARDED_ALLOW_IPS is '*': every client's X-Forwarded-For is believed, so anyone can "
    "pose as any address (and dodge or aim the login lockout).",
    hint="List the proxies in front of the app (e.g. nginx's address), comma-separated.",
    id="dustdevils.W001",
)


@register(Tags.security, deploy=True)
def forwarded_allow_ips(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """A wildcard forwarded-allow list is only safe where nothing but the proxy can reach the
    app — which a check cannot see, so a deployment is told."""
    return [W001] if "*" in settings.FORWARDED_ALLOW_IPS else []
