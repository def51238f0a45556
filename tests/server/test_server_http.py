"""The HTTP side of the port (``/healthz``, the web client) and the graceful shutdown.

Cost: about 1 s.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from server_helpers import host


def _get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


async def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(_get, port, path)


async def test_healthz(serve: Any, connect: Any) -> None:
    server = await serve()
    ann = await connect(server)
    await host(ann, seats=2)
    status, headers, body = await get(server.port, "/healthz")
    data = json.loads(body)
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert data["status"] == "ok" and data["store"] == "memory" and data["connections"] == 1 and data["tables"] == 1
    assert data["process"] == server.process_id


async def test_static_files(serve: Any, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>meja</title>")
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "app.js").write_text("export {}")
    (tmp_path.parent / "secret.txt").write_text("no")
    server = await serve(web_root=str(tmp_path))
    status, headers, body = await get(server.port, "/?join=ABCDEF")
    assert status == 200 and body.startswith(b"<!doctype html>")
    assert (
        headers["Content-Type"].startswith("text/html") and "default-src 'self'" in headers["Content-Security-Policy"]
    )
    assert headers["X-Content-Type-Options"] == "nosniff"
    status, headers, _ = await get(server.port, "/js/app.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    for path in ("/nope.html", "/../secret.txt", "/%2e%2e/secret.txt", "/js/../../secret.txt"):
        status, _, body = await get(server.port, path)
        assert status == 404 and b"no" not in body.replace(b"not found", b""), path
    status, _, body = await get(server.port, "/play?deal=1B3KQ-7M2XZ9")  # a page of the client
    assert status == 200 and body.startswith(b"<!doctype html>")
    status, _, _ = await get(server.port, "/ws")  # no upgrade: websockets answers 426
    assert status == 426


async def test_packaged_web_client_is_served(serve: Any) -> None:
    server = await serve()
    status, _headers, body = await get(server.port, "/")
    assert status == 200 and b"<html" in body.lower()


async def test_shutdown_closes_clients_with_1001_and_records_them_away(serve: Any, connect: Any) -> None:
    from meja.server.records import Table
    from meja.store import MemoryStore

    store = MemoryStore()
    server = await serve(store=store)
    ann = await connect(server)
    joined = await host(ann, seats=2)
    await ann.ok({"type": "start", "table": joined["table"]})
    stop = asyncio.create_task(server.stop())
    assert await ann.closed() == 1001
    await stop
    loaded = await store.load(joined["table"])
    assert loaded is not None
    seat = Table.from_bytes(loaded[1]).seats[0]
    assert seat.conn is None and seat.away is not None  # the grace period runs wherever it resumes
    assert server.hub.tables == {} and server.sessions == {}


async def _raw(port: int, method: str, path: str) -> tuple[str, dict[str, str], bytes]:
    """One raw HTTP/1.1 request; the status line, headers and every byte after them (to EOF)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: meja.test\r\n\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 5)  # the server closes after its answer
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    headers.pop("date", None)  # the only header allowed to differ between two answers
    return status, headers, body


async def test_head_gets_the_headers_of_its_get_and_no_body(serve: Any, connect: Any) -> None:
    """Issue 12, finding 12: a HEAD answers what its GET would, headers only (RFC 9110 9.3.2)."""
    server = await serve()
    joined = await host(await connect(server), seats=2)
    server.metrics.due_interval_s = 3600.0  # the same /metrics text twice in a row
    paths = ["/", "/play?deal=1B3KQ-7M2XZ9", "/healthz", "/js/app.js", "/nope.js", f"/qr/{joined['code']}.svg", "/ws"]
    for path in paths:
        got_status, got_headers, got_body = await _raw(server.port, "GET", path)
        status, headers, body = await _raw(server.port, "HEAD", path)
        assert (status, body) == (got_status, b""), (path, status, body[:80])
        assert headers == got_headers, path
        assert int(headers["content-length"]) == len(got_body) > 0, path
    status, headers, body = await _raw(server.port, "HEAD", "/metrics")
    assert status.startswith("HTTP/1.1 200") and body == b"" and int(headers["content-length"]) > 0
    # Other methods are not served: 405, with what is allowed.
    status, headers, _ = await _raw(server.port, "POST", "/")
    assert status.startswith("HTTP/1.1 405") and headers["allow"] == "GET, HEAD"


async def test_qr_images_are_kept_and_budgeted_per_address(serve: Any) -> None:
    """A room code's QR image is drawn once and kept; one address asking for them faster than a
    page would (``QR_PER_S``, bursts of ``QR_BURST``) gets 429, and nothing else of the port is
    slowed (a hostile player's flood had a process at 90% of a core)."""
    from meja.server.app import QR_BURST

    server = await serve()
    first = await get(server.port, "/qr/ABC123.svg")
    assert first[0] == 200 and first[1]["Content-Type"] == "image/svg+xml" and b"<svg" in first[2]
    statuses = [(await get(server.port, f"/qr/ABC{n:03d}.svg"))[0] for n in range(QR_BURST + 10)]
    assert statuses.count(200) <= QR_BURST and 429 in statuses, statuses
    assert (await get(server.port, "/healthz"))[0] == 200
    await asyncio.sleep(1.0)  # the budget refills: the same code, the same image, from the cache
    again = await get(server.port, "/qr/ABC123.svg")
    assert again[0] == 200 and again[2] == first[2]
