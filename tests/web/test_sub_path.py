"""The web table under a reverse proxy's sub-path: `web.public_url:
http://<proxy>/uno`, a real nginx in front with the README's own
configuration (it strips `/uno/` and passes WebSocket upgrades), driven by
Chromium. Every page, asset, card picture, API call, the WebSocket, the
share link and a Telegram Mini App's page work under the prefix, and the
page asks for nothing outside it (it asked for `/static/...`, `/ws`,
`/cards/...`, `/api/...` at the site's root, which the proxy does not pass).

Also without a proxy that strips: the server answers under the prefix
itself (a proxy that passes the path on), and `/uno` leads to `/uno/`.

Why nginx: it is what the README shows, and Debian's (`.ci/run` installs it);
the test fails where no nginx is installed (a skip would hide the gap).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_refusals import GROUP, group_game, init_data
from unobot.adapters.embedded_redis import free_port
from unobot.adapters.web import links
from unobot.adapters.web.server import WebConfig

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

#: The README's nginx block for a sub-path (kept equal to it by `test_the_readme_shows_this_block`).
LOCATION = """\
location /uno/ {
    proxy_pass http://127.0.0.1:8080/;
    proxy_http_version 1.1;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection "upgrade";
    proxy_set_header Host $host;
    proxy_read_timeout 1h;
}"""


class SubPathServer(WebServer):
    """The test server, its links made for `public` (the proxy's address with its path)."""

    def __init__(self, redis_url: str, prefix: str, public: str) -> None:
        super().__init__(redis_url, prefix)
        self.public = public

    def config(self) -> WebConfig:
        config = super().config()
        config.public_url = self.public
        return config


@pytest.fixture
def nginx(tmp_path: Path) -> Iterator[tuple[int, int]]:
    """nginx on a free port proxying /uno/ to a backend port (proxy port, backend port)."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is not installed: `.ci/run` installs it (apt-get install nginx-light)")
    port, backend = free_port(), free_port()
    for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / d).mkdir()
    block = LOCATION.replace("127.0.0.1:8080", f"127.0.0.1:{backend}")
    (tmp_path / "nginx.conf").write_text(f"""
worker_processes 1;
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body; proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi; uwsgi_temp_path {tmp_path}/uwsgi; scgi_temp_path {tmp_path}/scgi;
    server {{
        listen 127.0.0.1:{port};
        {block}
    }}
}}
""")
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                             "-g", "daemon off;"], stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 10
        import socket
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < end, "nginx did not start"
                time.sleep(0.05)
        yield port, backend
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
async def behind(redis_server: RedisServer, prefix: str, nginx: tuple[int, int]) -> AsyncIterator[SubPathServer]:
    port, backend = nginx
    server = SubPathServer(redis_server.url, prefix, f"http://127.0.0.1:{port}/uno")
    server.port, server.url = backend, f"http://127.0.0.1:{backend}"
    await server.start()
    yield server
    await server.stop()


def outside(requests: list[str], base: str) -> list[str]:
    """The addresses a page asked for that are not under the proxy's prefix."""
    return [u for u in requests if not u.startswith(base + "/") and not u.startswith("data:")]


async def test_a_whole_table_through_a_proxy_that_serves_it_under_a_sub_path(behind: SubPathServer,
                                                                             browser: Any) -> None:
    base = behind.public  # http://127.0.0.1:<nginx>/uno
    ana = await WebPlayer.open(browser, base, "Ana", phone=True)  # no slash: nginx leads to /uno/
    asked: list[str] = []
    ana.page.on("request", lambda r: asked.append(r.url))
    failed: list[str] = []
    ana.page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    # The landing page (its style, script, the variants from the API) and its form.
    await ana.page.wait_for_selector("#new-variant option", state="attached")
    assert await ana.page.evaluate("getComputedStyle(document.querySelector('#toasts')).position") == "fixed"
    await ana.page.fill("#new-name", "Ana")
    await ana.page.click("#new-form button[type=submit]")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert ana.page.url.startswith(base + "/?t=")
    share = await ana.page.input_value("#share-link")
    assert share.startswith(base + "/?t="), share
    bea = await WebPlayer.open(browser, share, "Bea")
    await bea.page.wait_for_selector("#name-step:not([hidden])")
    await bea.sit_down()
    await bea.press("join")
    await ana.wait_for(lambda s: len(s["seats"]) == 2 if s else False)
    await ana.press("start")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    # The card pictures came through the proxy (each image drawn, none broken).
    await ana.page.wait_for_function(
        "[...document.querySelectorAll('#hand img, #top-img')].every(i => i.complete && i.naturalWidth > 0)")
    # A move over the proxied WebSocket, seen on the other page.
    on_turn, other = (ana, bea) if s["turn"] == s["seat"] else (bea, ana)
    mine = await on_turn.wait_for(lambda s: s is not None and s["phase"] == "playing")
    assert await on_turn.take_turn(mine)
    await other.wait_for(lambda s: s is not None and s["version"] > mine["version"])
    # The records panel's HTTP call.
    await ana.page.click('#records-menu button[data-what="me"]')
    await ana.page.wait_for_function("window.__records.length > 0")
    assert (await ana.page.evaluate("window.__records[0].code")) is None
    assert not outside(asked, base), outside(asked, base)
    assert not failed, failed
    assert not [r for r in ana.refusals + bea.refusals if r.startswith("console")]


async def test_a_mini_app_opened_under_the_sub_path(behind: SubPathServer, browser: Any) -> None:
    """The Mini App's URL is `web.public_url` (BotFather's Web App URL): Telegram opens it with
    its start parameter and initData; the page plays under the prefix."""
    await group_game(behind)
    token = links.table_token(behind.secret, GROUP)
    from urllib.parse import quote

    url = f"{behind.public}/?tgWebAppStartParam={token}#tgWebAppData={quote(init_data(2, 'Bea', start=token))}"
    bea = await WebPlayer.open(browser, url, "Bea")
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    assert s["hand"] and s["seat"] == 1
    await bea.page.wait_for_function("[...document.querySelectorAll('#hand img')].every(i => i.naturalWidth > 0)")


async def test_the_server_answers_under_its_public_path_itself(redis_server: RedisServer, prefix: str,
                                                                browser: Any) -> None:
    """A proxy that passes the path on (Caddy's `handle /uno/*`): the server answers under
    `/uno/` as under `/`, and `/uno` (with its query) leads to `/uno/`."""
    server = SubPathServer(redis_server.url, prefix, "")
    server.public = server.url + "/uno"
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/uno?t=x", allow_redirects=False) as r:
                assert r.status == 308 and r.headers["Location"] == "/uno/?t=x", r.headers
            for path in ("/uno/", "/uno/static/app.js", "/uno/cards/W%2B4.png", "/uno/api/variants", "/"):
                async with http.get(server.url + path) as r:
                    assert r.status == 200, path
        ana = await WebPlayer.open(browser, server.public, "Ana")
        await ana.page.wait_for_selector("#new-variant option", state="attached")
        await ana.page.fill("#new-name", "Ana")
        await ana.page.click("#new-form button[type=submit]")
        await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
        assert ana.page.url.startswith(server.public + "/?t=")
    finally:
        await server.stop()


def test_the_readme_shows_this_block() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    indented = "\n".join("    " + line if line else "" for line in LOCATION.splitlines())
    assert indented in readme


async def test_unobot_web_with_a_public_url_ending_in_a_slash_prints_a_link_that_opens(tmp_path: Path) -> None:
    """`--public-url http://host/uno/` (as BotFather's Web App URL is written) printed
    "web table at http://host/uno//", an address no route served (404)."""
    import os
    import signal
    import sys

    port = free_port()
    (tmp_path / "config.yaml").write_text("")
    proc = subprocess.Popen([sys.executable, "-m", "unobot.cli", "web", "--redis", "memory", "--port", str(port),
                             "--public-url", f"http://127.0.0.1:{port}/uno/"],
                            env={**os.environ, "UNOBOT_CONFIG": str(tmp_path / "config.yaml")}, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        while line and "web table at" not in line:
            line = proc.stdout.readline()
        link = line.split("web table at ", 1)[1].strip()
        assert link == f"http://127.0.0.1:{port}/uno/", line
        async with aiohttp.ClientSession() as http, http.get(link) as r:
            assert r.status == 200 and "text/html" in r.headers["Content-Type"]
        async with aiohttp.ClientSession() as http, http.post(link + "api/new", json={"name": "Ana"}) as r:
            made = await r.json()
            assert made["link"].startswith(link + "?t="), made
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
