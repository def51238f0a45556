"""The ceiling of ``meja bench server``: a minimal echo server on the same websockets library.

What it is for
--------------
The load generator of ``meja bench server`` is one Python process: at some
load it, not the server, is what saturates. To tell the two apart the benchmark
drives, in the same run, on the same machine and loop, with the same number of
connections and the same client code (``meja_client``: one request, wait for
its answer, next request), a server that does nothing but send every binary
frame back. Messages per second against it are the most any server built on
``websockets`` could give this generator; ``moves/s`` divided by that is how
close Meja comes to the ceiling (a ratio near 1 means the generator, not Meja,
was the limit).

The echo server uses what ``meja serve`` uses: ``websockets.asyncio.server.serve``
on the same loop (uvloop where installed), the same collector settings
(:mod:`meja.runtime`), permessage-deflate off, the same frame size limit
and keepalive pings. It does nothing else: no decoding, no outbox, no store.

Why it is program text and not an import
----------------------------------------
Network code is imported only under ``meja.server`` (docs/architecture.md 2,
checked by ``tests/test_layering.py``), and the benchmarks are entry points
that must not reach into the server. The echo server runs in a process of its
own anyway, so this module keeps it as the text of a tiny program that
:func:`command` hands to a fresh interpreter: no module of ``meja.bench``
imports websockets. (Should the layering rules ever allow ``meja.bench`` to
serve websockets, :data:`PROGRAM` can become a plain module unchanged.)

The child prints the port it bound on its first line of output, then serves
until it is terminated.
"""

from __future__ import annotations

import sys
from typing import Final

from meja.runtime import GC_THRESHOLDS

__all__ = ["PROGRAM", "command"]

#: The echo server, run as ``python -c PROGRAM MAX_FRAME_BYTES``.
PROGRAM: Final = """
import asyncio, gc, signal, sys
from websockets.asyncio.server import serve

MAX_FRAME = int(sys.argv[1])
# The collector's settings of meja serve (meja.runtime.tune), so that both run alike.
gc.collect()
gc.freeze()
gc.set_threshold(*map(int, sys.argv[2].split(",")))

async def echo(ws):
    # Every frame goes straight back: the least work a server can do per message.
    async for frame in ws:
        await ws.send(frame)

async def main():
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    async with serve(echo, "127.0.0.1", 0, compression=None, max_size=MAX_FRAME,
                     ping_interval=20, ping_timeout=20) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await stop

try:
    import uvloop  # the loop meja serve runs on when it is installed (meja.server.main.run_loop)
except ImportError:
    asyncio.run(main())
else:
    uvloop.run(main())
"""


def command(max_frame_bytes: int = 32 * 1024) -> list[str]:
    """The command line that runs the echo server in a new interpreter (this one's)."""
    return [sys.executable, "-c", PROGRAM, str(max_frame_bytes), ",".join(map(str, GC_THRESHOLDS))]
