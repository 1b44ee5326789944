"""The client's address for django-axes (AXES_CLIENT_IP_CALLABLE), trusting forwarded headers
only from the configured proxies (FORWARDED_ALLOW_IPS, the same list uvicorn is given).

uvicorn rewrites the client address from ``X-Forwarded-For`` only when the connection comes
from a trusted proxy (``--forwarded-allow-ips``; none under ``make run``). Behind a server that
does not (gunicorn), the connection's address is the proxy's: then the client is the
right-most ``X-Forwarded-For`` hop that is not itself a trusted proxy. Entries further left
come from the client and could be forged to dodge (or aim) a lockout.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

from dustdevils.memo import bounded

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@bounded(8)
def _networks(trusted: tuple[str, ...]) -> tuple[bool, tuple[Network, ...]]:
    """("*" given, the trusted networks) from the configured list."""
    networks: list[Network] = []
    for entry in trusted:
        if entry == "*":
            return True, ()
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            continue  # a host name or a socket path: never an address we see here
    return False, tuple(networks)


def is_trusted_proxy(address: str | None) -> bool:
    everyone, networks = _networks(tuple(settings.FORWARDED_ALLOW_IPS))
    if everyone:
        return True
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_ip(request: HttpRequest) -> str | None:
    """The address to count failed logins against."""
    remote = str(request.META.get("REMOTE_ADDR") or "") or None
    if not is_trusted_proxy(remote):
        return remote  # straight from the client (or already resolved by uvicorn)
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted_proxy(hop):
            return hop[:45]  # the longest IPv6 text; a forged giant never reaches the database
    return remote
