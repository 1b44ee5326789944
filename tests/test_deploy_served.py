"""deploy/nginx.conf itself, run by Debian's nginx in front of a real gunicorn and uvicorn started
with compose.yaml's commands, behind a TLS-terminating proxy (issue 28 #6).

The TLS proxy is this test, connecting from 127.0.0.2 (the address nginx.conf trusts, swapped in
for its compose address) and saying what a TLS proxy says: the browser's scheme
(X-Forwarded-Proto) and address (appended to X-Forwarded-For). A stranger reaches nginx straight
from 127.0.0.3. nginx listens on, and reaches the app from, 127.0.0.1: the app's
FORWARDED_ALLOW_IPS, as in compose.yaml the app trusts nginx only. The app runs with production
settings (DJANGO_ENV=production, BEHIND_PROXY=1) on its own SQLite database and collected static
files in a temporary directory, so it needs no service but nginx: skipped without it, FAILED
without it under CI (.ci/run installs it).

Only the addresses and ports are changed in the rendered nginx.conf (``render``), and in
compose.yaml's commands (with one gunicorn worker, not two); everything else is as deployed.
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import yaml
from django.conf import settings

from tests.conftest import require_service
from tests.served import Uvicorn, free_port

pytestmark = pytest.mark.slow

DEPLOY = Path(settings.BASE_DIR) / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

HOST = "table.example.com"  # the public host name, as the TLS proxy passes it on
NGINX_SIDE = "127.0.0.1"  # nginx listens here and reaches the app from here
TLS_PROXY = "127.0.0.2"  # the trusted TLS proxy in front of nginx
STRANGER = "127.0.0.3"  # anyone else who can reach nginx
PASSWORD = "tumbleweed-at-noon-77"
ACCOUNTS = ("clara", "belle", "zeke", "doc")


def _without_comments(text: str) -> str:
    return re.sub(r"(^|\s)#.*$", r"\1", text, flags=re.MULTILINE)


def render(web_port: int, streams_ports: list[int], listen_port: int) -> str:
    """deploy/nginx.conf with this test's addresses: the upstreams' host:port, the port it
    listens on, and the TLS proxy's address wherever the file names it (``set_real_ip_from``,
    and anywhere else it must agree with that)."""
    text = _without_comments((DEPLOY / "nginx.conf").read_text())
    for pattern, replacement in [
        (r"\bserver\s+web:8000\s*;", f"server {NGINX_SIDE}:{web_port};"),
        (  # compose's replicas: one server line per stream process
            r"\bserver\s+streams:8000\s*;",
            " ".join(f"server {NGINX_SIDE}:{port};" for port in streams_ports),
        ),
        (r"\blisten\s+80\s*;", f"listen {NGINX_SIDE}:{listen_port};"),
    ]:
        text, count = re.subn(pattern, replacement, text)
        assert count == 1, f"deploy/nginx.conf has no single {pattern!r} to point at the test"
    for trusted in re.findall(r"\bset_real_ip_from\s+([^;\s]+)\s*;", text):
        text = re.sub(rf"(?<![\w.:/]){re.escape(trusted)}(?![\w.:/])", TLS_PROXY, text)
    return text


def main_conf(tmp: Path) -> str:
    """What the nginx image's /etc/nginx/nginx.conf is to compose's proxy: the http block that
    includes the site; here with everything in ``tmp``."""
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
    return f"""
        daemon off;
        worker_processes 1;
        {user}
        pid {tmp}/nginx.pid;
        error_log stderr notice;
        events {{ worker_connections 256; }}
        http {{
            log_format dd '$realip_remote_addr as $remote_addr "$request" $status';
            access_log {tmp}/access.log dd;
            client_body_temp_path {tmp}/client_body;
            proxy_temp_path {tmp}/proxy;
            fastcgi_temp_path {tmp}/fastcgi;
            uwsgi_temp_path {tmp}/uwsgi;
            scgi_temp_path {tmp}/scgi;
            include {tmp}/dustdevils.conf;
        }}
    """


def compose_command(service: str, **flags: str) -> list[str]:
    """compose.yaml's command of ``service``, run with this Python, each ``--flag`` given the
    test's value (``forwarded_allow_ips`` is ``--forwarded-allow-ips``)."""
    words = [str(word) for word in yaml.safe_load((DEPLOY / "compose.yaml").read_text())[
        "services"][service]["command"]]  # fmt: skip
    for name, value in flags.items():
        flag = "--" + name.replace("_", "-")
        assert flag in words, f"compose.yaml's {service} command has no {flag}"
        words[words.index(flag) + 1] = value
    return [sys.executable, "-m", *words]


@dataclass
class Site:
    url: str  # nginx
    slug: str  # doc's campaign
    streams_logs: list[Path]  # each stream process's output, its access log included
    browsers: list[Browser] = field(default_factory=list)

    def browser(self, via: str, forwarded_for: str | None = None) -> Browser:
        self.browsers.append(Browser(self.url, via, forwarded_for))
        return self.browsers[-1]


class Browser:
    """One browser's requests reaching nginx from ``via``: through the TLS proxy (which says
    the browser's scheme and, in X-Forwarded-For, its address) or straight from a stranger. Its
    cookies are kept by hand: they are Secure, and the hop to nginx is plain HTTP."""

    def __init__(self, url: str, via: str, forwarded_for: str | None) -> None:
        transport = httpx.HTTPTransport(local_address=via)
        self.client = httpx.Client(base_url=url, transport=transport, timeout=10)
        self.forwarded_for = forwarded_for
        self.cookies: dict[str, str] = {}

    def headers(self, proto: str | None, forwarded_for: str | None) -> dict[str, str]:
        headers = {"Host": HOST}
        if proto is not None:
            headers["X-Forwarded-Proto"] = proto
        if forwarded_for or self.forwarded_for:
            headers["X-Forwarded-For"] = str(forwarded_for or self.forwarded_for)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return headers

    def keep_cookies(self, response: httpx.Response) -> None:
        for header in response.headers.get_list("set-cookie"):
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items()})
        self.client.cookies.clear()

    def request(
        self,
        method: str,
        path: str,
        proto: str | None = "https",
        forwarded_for: str | None = None,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent = self.headers(proto, forwarded_for) | (headers or {})
        response = self.client.request(method, path, headers=sent, data=data)
        self.keep_cookies(response)
        return response

    def get(
        self, path: str, proto: str | None = "https", forwarded_for: str | None = None
    ) -> httpx.Response:
        return self.request("GET", path, proto, forwarded_for)

    def follow(self, path: str, proto: str = "http") -> list[tuple[str, httpx.Response]]:
        """GET ``path`` and follow the redirects on this site as the browser would, each over
        the scheme it names (the TLS proxy saying so): every (URL, response), at most 5."""
        visited: list[tuple[str, httpx.Response]] = []
        url = f"{proto}://{HOST}{path}"
        for _ in range(5):
            parts = urlsplit(url)
            response = self.get(parts.path + (f"?{parts.query}" if parts.query else ""),
                                proto=parts.scheme)  # fmt: skip
            visited.append((url, response))
            if not response.is_redirect:
                break
            url = str(httpx.URL(url).join(response.headers["location"]))
            assert urlsplit(url).netloc == HOST, url
        return visited

    def log_in(self, username: str, password: str, forwarded_for: str | None = None) -> int:
        page = self.get("/accounts/login/", forwarded_for=forwarded_for)
        assert page.status_code == 200, (page.status_code, page.headers.get("location"))
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token is not None
        response = self.request(
            "POST", "/accounts/login/", forwarded_for=forwarded_for,
            data={"username": username, "password": password,
                  "csrfmiddlewaretoken": token.group(1)},
            headers={"Origin": f"https://{HOST}"},
        )  # fmt: skip
        return response.status_code


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    if not os.access(NGINX, os.X_OK):
        require_service("needs nginx to run deploy/nginx.conf: apt-get install nginx")
    tmp = tmp_path_factory.mktemp("deploy")
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECURE_SSL_REDIRECT", "BROADCASTER"}
    }
    base |= {"DJANGO_SETTINGS_MODULE": "dustdevils.settings", "DATA_DIR": str(tmp),
             "PYTHONUNBUFFERED": "1"}  # fmt: skip
    production = base | {
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": f"{HOST},{NGINX_SIDE}",  # the second for the readiness probe only
        "CSRF_TRUSTED_ORIGINS": f"https://{HOST}",
        "BEHIND_PROXY": "1",
        "FORWARDED_ALLOW_IPS": NGINX_SIDE,  # nginx's address only, as in compose.yaml
        "STATIC_ROOT": str(tmp / "static"),
    }

    def manage(*args: str, env: dict[str, str] = base) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=settings.BASE_DIR, env=env,
            capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, f"manage.py {args[0]}:\n{done.stderr}"
        return done.stdout

    manage("migrate", "-v", "0")
    manage("collectstatic", "--noinput", "-v", "0", env=production)
    create = (
        "from django.contrib.auth.models import User\n"
        "from campaigns.services import campaign_create\n"
        f"for name in {ACCOUNTS!r}: User.objects.create_user(name, password={PASSWORD!r})\n"
        "print(campaign_create(dealer=User.objects.get(username='doc'), name='Dry Gulch').slug)"
    )
    slug = manage("shell", "-c", create).split()[-1]

    servers: list[Uvicorn] = []
    try:
        web_port, nginx_port = free_port(), free_port()
        streams_ports = [free_port(), free_port()]  # two replicas of compose's streams
        servers.append(Uvicorn(
            compose_command("web", bind=f"{NGINX_SIDE}:{web_port}", workers="1",
                            forwarded_allow_ips=NGINX_SIDE),
            production, tmp / "gunicorn.log", web_port,
        ))  # fmt: skip
        for n, port in enumerate(streams_ports):
            servers.append(Uvicorn(
                compose_command("streams", host=NGINX_SIDE, port=str(port),
                                forwarded_allow_ips=NGINX_SIDE),
                production, tmp / f"uvicorn{n}.log", port,
            ))  # fmt: skip
        (tmp / "dustdevils.conf").write_text(render(web_port, streams_ports, nginx_port))
        (tmp / "nginx.conf").write_text(main_conf(tmp))
        servers.append(Uvicorn(
            [NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf")], base, tmp / "nginx.log",
            nginx_port,
        ))  # fmt: skip
        logs = [tmp / f"uvicorn{n}.log" for n in range(len(streams_ports))]
        site = Site(f"http://{NGINX_SIDE}:{nginx_port}", slug, logs)
        yield site
        for browser in site.browsers:
            browser.client.close()
    finally:
        for server in reversed(servers):
            server.stop()


def test_https_at_the_tls_proxy_is_https_to_the_app(site: Site) -> None:
    """The TLS proxy's X-Forwarded-Proto reaches Django: a plain-HTTP visit is sent on to HTTPS
    once, and the HTTPS one is served (HSTS, which Django sends only on a secure request) — not
    sent to the same HTTPS URL again and again."""
    browser = site.browser(TLS_PROXY, "203.0.113.1")
    visited = browser.follow("/", proto="http")
    urls = [url for url, _ in visited]
    assert urls[:2] == [f"http://{HOST}/", f"https://{HOST}/"], urls
    final = visited[-1][1]
    assert final.status_code == 200, f"redirected on and on: {urls}"
    assert "max-age=" in final.headers.get("strict-transport-security", "")
    # No X-Forwarded-Proto at all: the scheme of nginx's own connection (plain HTTP here).
    response = browser.get("/", proto=None)
    assert response.status_code == 301
    assert response.headers["location"] == f"https://{HOST}/"
    # A page that wants a login sends the browser to an HTTPS login page, which is served.
    visited = browser.follow("/campaigns/new/", proto="https")
    assert visited[-1][1].status_code == 200, [url for url, _ in visited]
    assert urlsplit(visited[-1][0]).path == "/accounts/login/"
    assert all(url.startswith("https://") for url, _ in visited)


def test_one_strangers_failed_logins_do_not_lock_out_another_client(site: Site) -> None:
    """Every browser arrives from the TLS proxy's one address; the lockout counts each by the
    address the proxy says it has. A stranger's 20 failures (LOGIN_LIMIT_PER_ADDRESS) lock the
    stranger's address, and nobody else's."""
    stranger = site.browser(TLS_PROXY, "203.0.113.66")
    for n in range(20):  # the 20th failure is the one that locks
        assert stranger.log_in(f"nobody-{n}", "wrong") == (429 if n == 19 else 200)
    assert stranger.log_in("belle", PASSWORD) == 429  # the stranger's address is locked
    other = site.browser(TLS_PROXY, "198.51.100.20")
    assert other.log_in("clara", PASSWORD) == 302


def test_a_forged_x_forwarded_for_behind_the_tls_proxy_neither_dodges_nor_aims_a_lockout(
    site: Site,
) -> None:
    """The TLS proxy appends the browser's real address to whatever X-Forwarded-For the
    browser sent: the entries to its left are the browser's own words. A new forged entry per
    try does not dodge the lockout of the real address, nor lock out the address forged."""
    real = "203.0.113.50"
    guesser = site.browser(TLS_PROXY)
    for n in range(5):  # LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS: the 5th failure locks
        status = guesser.log_in("zeke", "wrong", forwarded_for=f"198.51.100.{n}, {real}")
        assert status == (429 if n == 4 else 200)
    assert guesser.log_in("zeke", PASSWORD, forwarded_for=f"198.51.100.99, {real}") == 429
    owner = site.browser(TLS_PROXY, "198.51.100.1")  # an address the guesser wrote in
    assert owner.log_in("zeke", PASSWORD) == 302


def test_a_stranger_straight_to_nginx_is_believed_about_nothing(site: Site) -> None:
    """Only the TLS proxy's headers are believed: a stranger reaching nginx on plain HTTP who
    claims HTTPS is still sent to HTTPS, and the address the app sees is the stranger's own
    connection's, not the one it wrote into X-Forwarded-For (uvicorn's access log)."""
    stranger = site.browser(STRANGER, "192.0.2.99")
    response = stranger.get("/accounts/login/", proto="https")
    assert response.status_code == 301
    assert response.headers["location"] == f"https://{HOST}/accounts/login/"
    path = f"/c/{site.slug}/stream/?from=stranger"
    assert stranger.get(path, proto="https").status_code == 301
    line = _logged(site.streams_logs, path)
    assert f"{STRANGER}:" in line, line
    assert "192.0.2.99" not in line, line


def test_a_live_stream_through_nginx_is_not_buffered(site: Site) -> None:
    """A campaign's stream through nginx and uvicorn: its first event (``: connected``) reaches
    the browser at once, while the stream stays open; uvicorn knows the browser's address."""
    browser = site.browser(TLS_PROXY, "192.0.2.7")
    assert browser.log_in("doc", PASSWORD) == 302
    path = f"/c/{site.slug}/stream/"
    started = time.monotonic()
    with browser.client.stream("GET", path, headers=browser.headers("https", None)) as response:
        assert response.status_code == 200, (response.status_code, response.headers)
        assert response.headers["content-type"].startswith("text/event-stream")
        first = next(response.iter_raw())
        assert first.startswith(b": connected"), first
        assert time.monotonic() - started < 5
    line = _logged(site.streams_logs, path)
    assert "192.0.2.7:" in line, line


def _logged(logs: list[Path], path: str) -> str:
    """A stream process's access-log line of a request for ``path`` (waiting a moment)."""
    return _served_by(logs, path)[1]


def _served_by(logs: list[Path], path: str) -> tuple[int, str]:
    """(which stream process, its access-log line) of a request for ``path``."""
    deadline = time.monotonic() + 5
    while True:
        found = [
            (n, line)
            for n, log in enumerate(logs)
            for line in log.read_text().splitlines()
            if f'"GET {path} ' in line
        ]
        if found or time.monotonic() > deadline:
            assert found, f"no stream process logged GET {path}"
            assert len({n for n, _ in found}) == 1, f"{path} reached two stream processes"
            return found[-1]
        time.sleep(0.1)


def test_every_screen_of_a_table_reaches_the_same_stream_process(site: Site) -> None:
    """Issue 29: nginx hashes each table onto one stream process, so a move is read once for
    all of that table's screens — the player's and the table view's alike — and the tables
    spread over the processes."""
    stranger = site.browser(TLS_PROXY, "192.0.2.50")  # anonymous: 403, but routed all the same
    process: dict[str, int] = {}
    for table in range(1, 25):
        for kind in ("conflicts", "fights"):
            for screen in ("stream/", "table/stream/"):
                path = f"/c/{site.slug}/{kind}/{table}/{screen}"
                assert stranger.get(path, proto="https").status_code == 403
                n, _ = _served_by(site.streams_logs, path)
                assert process.setdefault(f"{kind}-{table}", n) == n, path
    assert set(process.values()) == {0, 1}  # both processes carry tables
