"""More requests at once than one process has Redis connections.

Found by ``meja bench server`` (100 tables on one process): some actions were
answered ``internal``, some timers failed, and 63 of 200 disconnects at the
end of the run were never recorded (those players would stay "connected" until
the presence check). The server log says why, each time::

    redis.exceptions.MaxConnectionsError: Too many connections

redis-py's asyncio ``ConnectionPool`` holds at most ``max_connections``
connections (100 by default) and, when all are busy, *raises* at once instead
of waiting for one (``ConnectionPool.get_connection``). Each request and
timer of a process borrows a connection for its round trip, so a process with
more than 100 Redis commands in flight (a busy minute at a few hundred tables,
or every client of a process reconnecting after a restart) fails some of
them.

This test shows it without load: 300 connections ask, at the same moment,
for a room code that does not exist. Each lookup is a round trip to Redis (the
rate-limit counter, then the code), nothing else: every one of them must be
answered ``table/not_found``, none ``internal``.

The fix (store, redis.py): the command client is built on a
``redis.asyncio.BlockingConnectionPool``, so that a command waits its turn for
a connection instead of failing.

Cost: about 5 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid

from faults_harness import ServerProcess, running
from meja_client import Client, ServerError, connect

CLIENTS = 300


async def test_300_lookups_at_once_are_all_answered(redis_url: str) -> None:
    store = f"{redis_url}?prefix=meja-capacity-{uuid.uuid4().hex[:8]}:"
    server = ServerProcess(store, name="capacity")
    with running(server):
        clients: list[Client] = []
        try:
            for _ in range(0, CLIENTS, 50):
                clients += await asyncio.gather(*(connect(server.url) for _n in range(50)))

            async def lookup(client: Client) -> str:
                try:
                    await client.join(code="ZZZZZZ", name="Zed", timeout=60)
                except ServerError as exc:
                    return exc.code
                return "joined"

            codes = await asyncio.gather(*(lookup(c) for c in clients))
            tally = {code: codes.count(code) for code in set(codes)}
            assert tally == {"table/not_found": CLIENTS}, f"answers: {tally}; server log:\n{server.log(2000)}"
        finally:
            for client in clients:
                with contextlib.suppress(Exception):
                    await client.close()
