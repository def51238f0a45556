"""Meja installable (issue 20): a web app manifest and a service worker that keeps the page shell only.

* the page links the manifest; it is served as application/manifest+json and parses: the
  name, ``display: standalone``, ``start_url`` ``/`` and icons the server serves (PNG of the
  sizes they claim, an SVG);
* ``/sw.js`` is served as JavaScript, registers with the scope ``/`` and controls the page
  after a reload; its cache is named after the version the server wrote into it;
* a game over the websocket works with it in control, and afterwards its caches hold only
  the shell's files (each one in the worker's list, none a websocket, QR code, ``/tv/``
  page or any other answer of the server).

Cost: one page, one Crazy Eights start (about 5 s).
"""

from __future__ import annotations

import json
import re
import struct
from typing import Any
from urllib.request import urlopen

from browser_helpers import host_table, play_turn_mouse, start, version, wait_my_turn, wait_version_after

CACHED = """async () => {
    const out = {};
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
    }
    return out;
}"""


def get(url: str) -> tuple[str, bytes]:
    with urlopen(url, timeout=10) as response:
        return response.headers["Content-Type"], response.read()


def test_manifest_and_a_worker_that_keeps_the_shell_only(new_context: Any, server: Any) -> None:
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(server.origin + "/")
    href = page.get_attribute('link[rel="manifest"]', "href")
    assert href == "/manifest.webmanifest"
    kind, body = get(server.origin + href)
    assert kind == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "Meja" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        kind, data = get(server.origin + icon["src"])
        assert kind == icon["type"], icon
        if icon["type"] == "image/png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", data[16:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add(width)
        else:
            assert data.lstrip().startswith(b"<svg")
    assert {192, 512} <= sizes  # what a phone's home screen asks for

    kind, worker = get(server.origin + "/sw.js")
    assert kind.startswith("text/javascript")
    version_written = re.search(rb'const VERSION = "([0-9a-f]{16})";', worker)
    listed = re.search(rb"const SHELL = (\[.*?\]);", worker)
    assert version_written and listed, "the server writes the version and the list into the worker"
    shell = set(json.loads(listed.group(1)))
    assert {"/", "/js/app.js", "/style.css", "/manifest.webmanifest", "/icons/icon-192.png"} <= shell
    assert not [p for p in shell if p.startswith(("/ws", "/qr/", "/tv/", "/healthz", "/metrics", "/sw.js"))]

    scope = page.evaluate("() => navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == server.origin + "/"
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == server.origin + "/sw.js"

    # A game on the websocket, with the worker in control: hosting, the start, a move.
    host_table(page, server.origin, name="Ana", seats=2)
    start(page)
    wait_my_turn(page)
    before = version(page)
    play_turn_mouse(page)
    wait_version_after(page, before)
    assert page.evaluate("() => !!navigator.serviceWorker.controller")

    cached = page.evaluate(CACHED)
    assert list(cached) == [f"meja-shell-{version_written.group(1).decode()}"], cached
    paths = next(iter(cached.values()))
    assert set(paths) == shell, "the cache holds the shell's files, each once, and nothing else"
