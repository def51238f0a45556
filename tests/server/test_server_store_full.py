"""Issue 12, finding 5: at Redis's maxmemory new tables get server/full, and live games play on.

Before: with ``maxmemory`` and ``noeviction``, new tables were refused with
``internal: the table is unchanged`` once Redis was full, and the timer loop,
which needs a write to claim timers, failed on every server: bots, turn limits
and grace periods stopped everywhere. Now the server reads the store's memory
use (``memory_check_s``) and refuses new tables past ``store_full_pct`` of the
limit, so the room left is the live tables'. Here a filler key stands for the
rest of a busy store.
"""

from __future__ import annotations

import asyncio
from typing import Any

import redis
from server_helpers import host, play


async def test_a_nearly_full_store_refuses_new_tables_and_live_ones_play_on(
    serve: Any, connect: Any, redis_servers: Any
) -> None:
    server_redis = redis_servers(extra=("--maxmemory-policy", "noeviction"))
    raw = redis.Redis.from_url(server_redis.url)
    used = int(raw.info("memory")["used_memory"])
    raw.config_set("maxmemory", used + 20_000_000)
    server = await serve(redis_url=server_redis.url, memory_check_s=0.05, store_full_pct=60)
    ann = await connect(server)
    joined = await host(ann, seats=2, options={"preset": "house", "target": 1000})
    table = joined["table"]
    await ann.ok({"type": "seat", "table": table, "seat": 1, "to": "bot"})
    await ann.ok({"type": "start", "table": table})

    for i in range(14):  # the store is now past 60% of its limit (in pieces: a big argument's buffer counts)
        raw.set(f"filler{i}", b"x" * 1_000_000)
    await asyncio.sleep(0.3)
    other = await connect(server)
    refused = await other.request({"type": "host", "name": "Bob", "seats": 2})
    assert refused["type"] == "error" and refused["code"] == "server/full", refused
    scraped = (await server.metrics.render()).decode()
    assert "meja_store_full 1.0" in scraped, "the operators' metrics say why"
    assert 'meja_store_memory_bytes{kind="limit"}' in scraped

    before = ann.version
    await play(ann, table, until=lambda w: w.version >= before + 30, timeout=30)  # bots and Ann go on

    raw.delete(*[f"filler{i}" for i in range(14)])
    await asyncio.sleep(0.3)
    again = await other.request({"type": "host", "name": "Bob", "seats": 2})
    assert again["type"] == "joined", again
    assert "meja_store_full 0.0" in (await server.metrics.render()).decode()
    raw.close()
