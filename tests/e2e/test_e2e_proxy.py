"""The shipped nginx config (deploy/nginx.conf) in front of a real ``meja serve`` process.

Issue 12, finding 6: the proxy must cap the websockets one client address holds
(``limit_conn``: past it the handshake gets 429), and must not serve the
operators' ``/metrics`` to the public (the README says to block it there).

The config is used as shipped but for the two lines that name where things
are (the upstream servers and the listening port), wrapped in a minimal main
config and run by the machine's ``nginx`` binary (the test is skipped where
there is none). Each check fails against the config as it was before this
change: it had neither ``limit_conn`` nor a ``/metrics`` block.

Cost: about 2 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets
from e2e_harness import ROOT, ServerProcess
from server_process import free_port

NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
CONFIG = ROOT / "deploy" / "nginx.conf"
#: what the shipped config allows one address (its limit_conn line says so too)
PER_ADDRESS = 64

# CI installs nginx (tools/ensure-deps.sh): there the test must run, never skip (issue 25).
pytestmark = pytest.mark.skipif(
    NGINX is None and not os.environ.get("CI"), reason="needs nginx (apt-get install nginx-light)"
)


def shipped_limit() -> int:
    found = re.search(r"limit_conn\s+meja_per_address\s+(\d+);", CONFIG.read_text())
    assert found is not None, "deploy/nginx.conf has no limit_conn for /ws"
    return int(found.group(1))


@contextlib.contextmanager
def nginx_in_front(server: ServerProcess, tmp: Path) -> Iterator[str]:
    """nginx with the shipped site config, proxying to ``server``; its http:// origin."""
    port = free_port()
    site = CONFIG.read_text()
    site, upstreams = re.subn(r"server meja\d:8000[^;]*;", f"server 127.0.0.1:{server.port};", site)
    site, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    assert upstreams == 2 and listens == 1, "the shipped config changed shape: update this test"
    (tmp / "site.conf").write_text(site)
    (tmp / "nginx.conf").write_text(
        f"""
        daemon off;
        worker_processes 1;
        pid {tmp}/nginx.pid;
        error_log {tmp}/error.log warn;
        events {{ worker_connections 1024; }}
        http {{
            access_log off;
            client_body_temp_path {tmp}/body;
            proxy_temp_path {tmp}/proxy;
            fastcgi_temp_path {tmp}/fastcgi;
            uwsgi_temp_path {tmp}/uwsgi;
            scgi_temp_path {tmp}/scgi;
            include {tmp}/site.conf;
        }}
        """
    )
    assert NGINX is not None
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf")], stderr=subprocess.PIPE)
    origin = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, f"nginx exited: {proc.stderr.read().decode() if proc.stderr else ''}"
            with contextlib.suppress(OSError), urllib.request.urlopen(origin + "/healthz", timeout=1) as response:
                if response.status == 200:
                    break
            assert time.monotonic() < deadline, "nginx did not come up"
            time.sleep(0.05)
        yield origin
    finally:
        proc.terminate()
        proc.wait(10)


def status_of(url: str, method: str = "GET") -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


async def test_the_shipped_proxy_limits_connections_and_hides_metrics(tmp_path: Path) -> None:
    assert shipped_limit() == PER_ADDRESS
    # The server's own per-address limit is lifted here: what is tested is the proxy's.
    server = ServerProcess("memory", name="proxied", env={"MEJA_TRUST_PROXY": "1",
                                                          "MEJA_MAX_CONNECTIONS_PER_ADDRESS": "0"}).start()
    opened: list[websockets.ClientConnection] = []
    try:
        with nginx_in_front(server, tmp_path) as origin:
            # /metrics: refused by the proxy (GET and HEAD), still served by the process itself.
            assert status_of(origin + "/metrics") == 403
            assert status_of(origin + "/metrics", "HEAD") == 403
            assert status_of(origin + "/metrics?x=1") == 403
            assert status_of(server.http + "/metrics") == 200
            assert status_of(origin + "/healthz") == 200 and status_of(origin + "/") == 200

            ws_url = origin.replace("http://", "ws://") + "/ws"
            for _ in range(0, PER_ADDRESS, 16):
                opened += await asyncio.gather(*(websockets.connect(ws_url, open_timeout=10) for _ in range(16)))
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(ws_url, open_timeout=10)
            assert refused.value.response.status_code == 429
            # A connection closed frees its place.
            await opened.pop().close()
            async with asyncio.timeout(10):
                while True:
                    try:
                        opened.append(await websockets.connect(ws_url, open_timeout=10))
                        break
                    except websockets.InvalidStatus:
                        await asyncio.sleep(0.05)
    finally:
        for ws in opened:
            with contextlib.suppress(Exception):
                await ws.close()
        server.close()
