"""A live connection whose seat was marked away by mistake takes it back, and is not closed.

The chaos run (issue 12) found it: a process that lost Redis for longer than its
heartbeat lives is taken for dead by the others, whose presence checks mark its
players away (tables.dead_process); when that change reached the live process,
the hub closed those connections with 4001 ("replaced"), which the page does not
come back from. Now the hub asks for the seat back for the connection
(Hub.on_orphan, TableService.reclaim). Here the mistaken check is committed
directly, as another process's would be.
"""

from __future__ import annotations

import asyncio
from typing import Any

from meja.server import tables
from server_helpers import host, join


async def test_a_seat_marked_away_while_its_connection_lives_comes_back_to_it(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2)
    await join(bob, code=joined["code"], name="Bob")
    table = joined["table"]
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update" and m["view"] is not None)
    cached = server.hub.cached(table)
    assert cached is not None
    conn = cached.table.seats[1].conn
    assert conn is not None

    def dead(t: Any, version: int, now: int) -> Any:
        return tables.dead_process(t, seat=1, conn=conn, now=now)

    await server.service.commit(table, dead)  # another process took Bob's for dead
    away = await bob.until(lambda m: m["type"] == "update" and any(e["kind"] == "away" for e in m["events"]))
    assert away["table"]["seats"][1]["connected"] is False
    back = await bob.until(lambda m: m["type"] == "update" and any(e["kind"] == "connected" for e in m["events"]))
    assert back["table"]["seats"][1]["connected"] is True
    await asyncio.sleep(0.1)
    pong = await bob.ok({"type": "ping"})
    assert pong["type"] == "pong", "Bob's connection is open: not closed as replaced"
    record = server.hub.cached(table).table.seats[1]  # type: ignore[union-attr]
    assert record.conn == conn and record.away is None
