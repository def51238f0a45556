"""A table's slot moves to another master (issue 24, point 2): reads follow ``ASK`` during the
move and commits ``MOVED`` after it, and the sharded pub/sub listener, told by
Redis that the slot left (``sunsubscribe``), subscribes on the new master and resyncs. On a
private two-master cluster (meja.bench.cluster's), so that moving a slot disturbs no other test."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from meja.bench.cluster import BenchCluster
from meja.store import Change, Note
from meja.store.redis import RedisStore

LONG = 600_000
pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[BenchCluster]:
    c = BenchCluster(tmp_path, masters=2, replicas=0).start()
    try:
        yield c
    finally:
        c.stop()


async def versions_until(changes: AsyncIterator[Change | Note], version: int) -> list[tuple[int, bool]]:
    """(version, resync) of each change up to ``version``."""
    seen: list[tuple[int, bool]] = []
    while not seen or seen[-1][0] < version:
        change = await asyncio.wait_for(anext(changes), 20)
        assert isinstance(change, Change)
        seen.append((change.version, change.resync))
    return seen


async def test_a_table_plays_on_while_its_slot_moves(cluster: BenchCluster) -> None:
    url = cluster.url
    async with (
        RedisStore(url, prefix="t:", reconnect_max_s=0.2) as reader,
        RedisStore(url, prefix="t:") as writer,
    ):
        table_id, code = "0" * 31 + "1", "ABC123"
        while writer.keys.table(table_id).bucket != writer.keys.table(code).bucket:
            table_id = f"{int(table_id, 16) + 1:032x}"
        assert await writer.create(table_id, code, b"r0", b"e0", ttl_ms=LONG)
        await reader.subscribe(table_id)
        changes = reader.changes()
        assert await writer.commit(table_id, 0, b"r1", b"e1", ttl_ms=LONG)
        assert await versions_until(changes, 1) == [(1, False)]

        tk = writer.keys.table(table_id)
        slot = int(cluster.cli(cluster.ports[0], "CLUSTER", "KEYSLOT", tk.record))
        owner = next(p for p in cluster.ports if int(cluster.cli(p, "CLUSTER", "COUNTKEYSINSLOT", slot)) > 0)
        target = next(p for p in cluster.ports if p != owner)
        ids = {p: cluster.cli(p, "CLUSTER", "MYID") for p in cluster.ports}
        assert cluster.cli(target, "CLUSTER", "SETSLOT", slot, "IMPORTING", ids[owner]) == "OK"
        assert cluster.cli(owner, "CLUSTER", "SETSLOT", slot, "MIGRATING", ids[target]) == "OK"
        assert await writer.load(table_id) == (1, b"r1")  # the keys are still on the owner
        keys = cluster.cli(owner, "CLUSTER", "GETKEYSINSLOT", slot, 100).split()
        assert tk.record in keys
        cluster.cli(owner, "MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys)
        # ASK: the owner sends a read of a key it no longer has to the target. (Not a commit: while
        # a slot moves, Redis answers TRYAGAIN to a script that names keys present and absent, and
        # the commit names the table's due set, which may not exist: commits wait for the move.)
        assert await writer.load(table_id) == (1, b"r1")
        for p in (target, owner):
            assert cluster.cli(p, "CLUSTER", "SETSLOT", slot, "NODE", ids[target]) == "OK"
        for v in range(1, 4):  # MOVED, then the target
            assert await writer.commit(table_id, v, b"r%d" % (v + 1), b"e", ttl_ms=LONG)

        # The owner ended the reader's subscription when the slot left (sunsubscribe), so it
        # subscribed on the target and resynced: it reaches 4 with nothing missed.
        seen = await versions_until(changes, 4)
        assert seen[-1][0] == 4
        assert [v for v, _ in seen] == sorted(v for v, _ in seen)
        assert reader.connects >= 2
        assert await writer.commit(table_id, 4, b"r5", b"e5", ttl_ms=LONG)
        assert await versions_until(changes, 5) == [(5, False)]
        assert int(cluster.cli(target, "CLUSTER", "COUNTKEYSINSLOT", slot)) > 0
