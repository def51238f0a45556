"""Issue 25, finding 2: connections that send a large frame and go leave no memory behind.

websockets keeps a connection's last parser exception (``parser_exc``); its traceback holds
the parser's generator frame, whose local ``frame`` is the last frame read (up to
``max_frame_bytes``), in a reference cycle with the protocol object. Only the cyclic garbage
collector frees it, and ``meja serve`` raises its thresholds: 12,000 connections that each sent
one 60 KB frame took a process from 46 to 240 MiB. The server breaks the cycle when a
connection ends, so that memory goes back at once.

Measured with the collector off (as the raised thresholds make it, most of the time) and
tracemalloc: what the connections leave behind after they are gone.
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from typing import Any

import msgpack
from meja.server.app import _let_go
from server_wire import Wire


async def _send_and_go(connect: Any, server: Any, size: int) -> None:
    wire = await Wire.open(f"ws://127.0.0.1:{server.port}/ws")  # not kept: only the server's memory counts
    # A frame that decodes but is no valid message: refused; then the client drops the connection
    # without a closing handshake (the parser meets the end of the stream).
    await wire.request({"type": "ping", "junk": "x" * size})
    wire.ws.transport.abort()
    await asyncio.sleep(0.01)
    _let_go(wire.ws)  # this test's own client has the same cycle: break it, to weigh the server alone


async def test_large_refused_frames_are_freed_when_their_connection_ends(serve: Any, connect: Any) -> None:
    server = await serve(max_str_bytes=60_000)
    size, count = 30_000, 30
    assert len(msgpack.packb({"junk": "x" * size})) < server.settings.max_frame_bytes
    await _send_and_go(connect, server, size)  # warm up: caches, first-use allocations
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(count):
            await _send_and_go(connect, server, size)
        await asyncio.sleep(0.2)
        left = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        gc.enable()
    # Each connection's frame (30 KB, held twice: as read and as decoded) would be 2 MB in all.
    assert left < count * size / 4, f"{left} bytes left behind by {count} closed connections"
