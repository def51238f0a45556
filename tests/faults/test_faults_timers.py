"""A timer claimed by a process that has not yet heard of the change that set it.

Found by the kill -9 fault test (test_faults_processes.py): with 50 tables on
two processes, now and then a table stopped for good on the bot's turn, with
no timer left in Redis for it. The cause, shown here deterministically with
two in-process servers on one Redis:

1. process A commits Bob's move; the same commit schedules the bot's move
   (key ``<table>|bot|2|<gv>``, due after the bot's pause);
2. process B, which caches the table for its own player, claims the timer
   before its pub/sub consumer has applied A's change (a busy loop, a slow
   subscriber: here B hears other processes' changes 0.5 s late);
3. ``TableService.on_due`` reads B's cached record, finds its ``gv`` older than
   the key's, takes the timer for moot (``tables.still_due`` is false), and
   ``DueRunner`` finishes it: the bot never moves and nothing else will ever
   schedule it. The same holds for every timer kind, since ``on_due`` and the
   ``commit`` functions of ``_turn_limit``, ``_ready_timeout``, ``_grace`` and
   ``_check`` all decide "nothing to do" on the cached record without reading
   the store (``commit`` rereads only after a failed compare-and-set, and a
   change function that returns ``None`` never gets that far).

Fixed in the server by reading the table fresh from the store for every timer
(``on_due`` and the timers' ``commit(..., fresh=True)``, commit b12c3e8); this
test keeps it fixed: it failed before that change and passes after it.

Cost: about 3 s.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from meja.server.app import MejaServer
from meja.server.settings import Settings
from meja_client import Client, Player, connect, random_policy

FAST: dict[str, Any] = {
    "host": "127.0.0.1",
    "port": 0,
    "bot_delay_min_ms": 5,
    "bot_delay_max_ms": 15,
    "hold_delay_ms": 5,
    "ready_delay_ms": 5,
    "due_poll_s": 0.02,
    "heartbeat_s": 0.2,
    "heartbeat_ttl_s": 1.0,
    "presence_check_s": 5.0,
    "due_lease_s": 0.5,
    "shutdown_timeout_s": 3.0,
    "close_timeout_s": 1.0,
}


@pytest.fixture
async def two_servers(redis_url: str, redis_prefix: str) -> AsyncIterator[tuple[MejaServer, MejaServer]]:
    settings = Settings(**FAST, redis_url=f"{redis_url}?prefix={redis_prefix}")
    a, b = MejaServer(settings), MejaServer(settings)
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        await a.stop()
        await b.stop()


def url(server: MejaServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


def bot_acted(client: Client) -> bool:
    return any(e.get("seat") == 2 and e["kind"] in ("play", "draw", "pass") for e in client.events)


def bots_turn(client: Client) -> bool:
    view = client.view
    return bot_acted(client) or (view is not None and view["phase"] == "play" and view["turn"] == 2)


async def test_the_bot_moves_although_the_claiming_process_heard_of_its_turn_late(two_servers):
    a, b = two_servers
    assert a.runner is not None
    await a.runner.stop()  # every timer is B's to claim

    original = b.hub.apply

    async def late(change: Any, table: Any = None, events: Any = None) -> None:
        if table is None:  # a change from another process (pub/sub), not B's own commit
            await asyncio.sleep(0.5)
        await original(change, table, events)

    b.hub.apply = late  # type: ignore[method-assign]

    ann = await connect(url(b))  # the host, on B: B caches the table
    bob = await connect(url(a))
    try:
        joined = await ann.host(name="Ann", seats=3, grace_s=600)
        await bob.join(table=joined["table"], name="Bob")
        await ann.seat_to(2, "bot")
        await ann.start()
        # Ann (seat 0, on B) and Bob (seat 1, on A) play until it is the bot's turn: Bob's last
        # move is committed by A, which schedules the bot; B claims the timer before it hears of it.
        await asyncio.gather(
            Player(ann, random_policy(1), until=bots_turn).run(),
            Player(bob, random_policy(2), until=bots_turn).run(),
        )
        assert await bob.wait_for(bot_acted, timeout=10)
    finally:
        await ann.close()
        await bob.close()
