"""The production layout in deploy/ (issue 16): gunicorn serves pages and moves, uvicorn only the
live streams, and the nginx config routes every stream URL of the project — found by walking the
URL configuration — to uvicorn, and nothing else. A new stream URL the proxy would send to
gunicorn (where it would hold a WSGI thread for as long as a screen is open) fails here."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings

from tests.test_every_url import routes

DEPLOY = Path(settings.BASE_DIR) / "deploy"
NGINX = (DEPLOY / "nginx.conf").read_text()
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]

# Every URL argument's sample values: a slug that looks like a path word too, so a route is
# never matched by accident of its sample.
SAMPLES = {"slug": ["dry-gulch", "stream"], "int": ["7"], "str": ["tok3n"], "path": ["a/b"]}


def _without_comments(text: str) -> str:
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


CONF = _without_comments(NGINX)


def upstreams() -> dict[str, str]:
    """upstream name → the compose service its server names."""
    found = {}
    for name, body in re.findall(r"upstream\s+(\w+)\s*\{([^}]*)\}", CONF):
        (server,) = re.findall(r"\bserver\s+([\w.-]+):\d+", body)
        found[name] = server
    return found


def locations() -> list[tuple[str, str, str]]:
    """(modifier, pattern, upstream) of each location, in the file's order."""
    found = []
    for modifier, pattern, body in re.findall(
        r"location\s+(~\*?|=|\^~)?\s*(\S+)\s*\{([^}]*)\}", CONF
    ):
        (target,) = re.findall(r"proxy_pass\s+https?://(\w+)", body)
        found.append((modifier, pattern, target))
    return found


def routed_to(uri: str) -> str:
    """The compose service nginx sends ``uri`` to: an exact match, else the longest prefix
    (kept unless it is ``^~``), else the first regex that matches, else that prefix."""
    exact = [t for m, p, t in locations() if m == "=" and p == uri]
    if exact:
        return upstreams()[exact[0]]
    prefixes = sorted(
        ((p, m, t) for m, p, t in locations() if m in ("", "^~") and uri.startswith(p)),
        key=lambda row: len(row[0]),
        reverse=True,
    )
    if prefixes and prefixes[0][1] == "^~":
        return upstreams()[prefixes[0][2]]
    for modifier, pattern, target in locations():
        if modifier.startswith("~"):
            flags = re.IGNORECASE if modifier == "~*" else 0
            if re.search(pattern, uri, flags):
                return upstreams()[target]
    assert prefixes, f"no location of deploy/nginx.conf takes {uri}"
    return upstreams()[prefixes[0][2]]


def samples(route: str) -> list[str]:
    """The route as URIs, each URL argument given each of its sample values."""
    uris = ["/"]
    for piece in re.split(r"(<(?:\w+:)?\w+>)", route):
        match = re.fullmatch(r"<(?:(\w+):)?\w+>", piece)
        values = SAMPLES[match.group(1) or "str"] if match else [piece]
        uris = [uri + value for uri in uris for value in values]
    return uris


ROUTES = sorted({route for route, _ in routes()})
STREAM_ROUTES = [route for route in ROUTES if "stream/" in route]


def _command(service: str) -> str:
    command = SERVICES[service]["command"]
    return " ".join(command) if isinstance(command, list) else str(command)


def test_the_stream_urls_are_found() -> None:
    assert len(STREAM_ROUTES) >= 3, STREAM_ROUTES
    assert all(route.endswith("stream/") for route in STREAM_ROUTES), STREAM_ROUTES


def test_web_is_gunicorn_and_streams_is_uvicorn() -> None:
    assert upstreams().keys() == {"web", "streams"}
    assert upstreams()["web"] == "web"
    assert upstreams()["streams"] == "streams"
    assert _command("web").startswith("gunicorn dustdevils.wsgi:application")
    assert "--threads" in _command("web")
    assert _command("streams").startswith("uvicorn dustdevils.asgi:application")
    assert {"proxy", "worker", "beat", "postgres", "redis", "migrate"} <= SERVICES.keys()
    assert "./nginx.conf:/etc/nginx/conf.d/default.conf:ro" in SERVICES["proxy"]["volumes"]
    assert "app" not in SERVICES  # the one uvicorn for everything is gone


@pytest.mark.parametrize("route", STREAM_ROUTES)
def test_every_stream_url_goes_to_uvicorn(route: str) -> None:
    for uri in samples(route):
        assert routed_to(uri) == "streams", uri
        assert "uvicorn" in _command(routed_to(uri))


@pytest.mark.parametrize("route", [r for r in ROUTES if r not in STREAM_ROUTES])
def test_nothing_else_goes_to_uvicorn(route: str) -> None:
    for uri in samples(route):
        assert routed_to(uri) == "web", uri
        assert "gunicorn" in _command(routed_to(uri))


@pytest.mark.parametrize(
    "uri", ["/", "/healthz", "/static/css/app.css", "/accounts/login/", "/c/stream/"]
)
def test_the_rest_goes_to_gunicorn(uri: str) -> None:
    assert routed_to(uri) == "web"


def test_the_streams_are_not_buffered_nor_cut_short() -> None:
    block = re.search(r"location\s+~[^{]*\{([^}]*)\}", CONF)
    assert block is not None
    assert "proxy_buffering off" in block.group(1)
    assert re.search(r"proxy_read_timeout\s+(\d+h|\d{3,}s?)", block.group(1))


def test_the_compose_file_hangs_together() -> None:
    """What ``docker compose config`` would catch first (no Docker daemon on the CI machine):
    every dependency is a service, every service runs something, the proxy's config is the one
    tested here, and only the proxy publishes a port."""
    for name, service in SERVICES.items():
        assert "image" in service or "build" in service, name
        for needed in service.get("depends_on", {}):
            assert needed in SERVICES, (name, needed)
    published = {name for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"proxy"}
    assert SERVICES["proxy"]["depends_on"].keys() == {"web", "streams"}
    for name in ("web", "streams", "worker", "beat", "migrate"):
        assert SERVICES[name]["environment"]["REDIS_URL"].startswith("redis://redis:"), name


def _trusted_tls_proxies() -> tuple[list[str], list[str]]:
    """The TLS proxy's addresses as set_real_ip_from names them, and as the geo block does."""
    realip = re.findall(r"\bset_real_ip_from\s+([^;\s]+)\s*;", CONF)
    geo = re.search(r"\bgeo\s+\$realip_remote_addr\s+\$dd_from_tls_proxy\s*\{([^}]*)\}", CONF)
    assert geo is not None
    believed = re.findall(r"^\s*([0-9a-fA-F.:/]+)\s+1\s*;", geo.group(1), re.MULTILINE)
    return realip, believed


def test_the_tls_proxy_is_believed_about_the_address_and_the_scheme_alike() -> None:
    """nginx takes the browser's address (realip) and scheme (the geo block, then the map) from
    the same TLS proxy: two lists in the file, which must agree."""
    realip, believed = _trusted_tls_proxies()
    assert realip, "deploy/nginx.conf trusts no TLS proxy"
    assert sorted(realip) == sorted(believed)
    assert re.search(r"\breal_ip_header\s+X-Forwarded-For\s*;", CONF)
    assert re.search(r"\breal_ip_recursive\s+on\s*;", CONF)


def test_the_app_believes_nginx_only_and_nginx_the_tls_proxy_only() -> None:
    """compose.yaml: gunicorn, uvicorn and the login lockout (FORWARDED_ALLOW_IPS) trust the
    proxy service's fixed address; nginx trusts the network's gateway (a TLS proxy on the host,
    through the published port), which the app does not."""
    proxy_ip = SERVICES["proxy"]["networks"]["default"]["ipv4_address"]
    for name in ("web", "streams"):
        assert SERVICES[name]["environment"]["FORWARDED_ALLOW_IPS"] == proxy_ip, name
        command = SERVICES[name]["command"]
        assert command[command.index("--forwarded-allow-ips") + 1] == proxy_ip, name
    (subnet,) = (entry["subnet"] for entry in COMPOSE["networks"]["default"]["ipam"]["config"])
    realip, _ = _trusted_tls_proxies()
    assert proxy_ip not in realip
    assert realip == [str(next(ipaddress.ip_network(subnet).hosts()))]  # the gateway
