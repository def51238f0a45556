"""RedisStore on a Redis Cluster, beyond the shared contract (which runs on the cluster too).

On the session's private three-master cluster (tests/cluster_fixture.py): where
the keys land (a table's keys in one slot; the 16 buckets spread evenly over the
masters), that a commit is still one script call and goes to one master only,
that a pair of id and code in two buckets is refused, and that the pub/sub
listener moves to another node when its connection dies, with a resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections import Counter
from collections.abc import AsyncIterator

import pytest
import redis
from meja.server.rooms import new_code, new_table_id
from meja.store import Change, Due, Note, open_store
from meja.store.keys import BUCKETS, Keys, bucket_of, bucket_tag
from meja.store.redis import RedisStore, _ClusterURL
from test_store_redis import count_commands

LONG = 600_000
T0 = 1_700_000_000_000


@pytest.fixture
async def store(redis_cluster) -> AsyncIterator[RedisStore]:
    async with open_store(redis_cluster.url, prefix=f"meja-test-{uuid.uuid4().hex[:12]}:") as s:
        assert isinstance(s, RedisStore)
        yield s


def test_cluster_urls() -> None:
    parsed = _ClusterURL.parse("redis+cluster://user:secret@10.0.0.5:7000,10.0.0.6:7001/?socket_timeout=3")
    assert parsed is not None
    assert parsed.nodes == (("10.0.0.5", 7000), ("10.0.0.6", 7001))
    assert parsed.node_url("10.0.0.7", 7002) == "redis://user:secret@10.0.0.7:7002/?socket_timeout=3"
    tls = _ClusterURL.parse("rediss+cluster://[::1]:7000")
    assert tls is not None and tls.nodes == (("::1", 7000),) and tls.node_url("::1", 7000) == "rediss://[::1]:7000"
    assert _ClusterURL.parse("redis://localhost:6379/0") is None
    with pytest.raises(ValueError, match="host:port"):
        _ClusterURL.parse("redis+cluster://localhost")
    # open_store does no I/O: the URL alone picks the cluster layout
    store = open_store("redis+cluster://127.0.0.1:1?prefix=p:")
    assert isinstance(store, RedisStore) and store.keys == Keys("p:", cluster=True)


async def test_a_table_is_in_one_slot_and_the_buckets_spread_evenly(store: RedisStore, redis_cluster) -> None:
    keys = store.keys
    masters: Counter[int] = Counter()
    for bucket in range(BUCKETS):
        due = keys.due(bucket)
        assert redis_cluster.slot_of(due) == redis_cluster.slot_of(f"{{{bucket_tag(bucket)}}}")
        masters[redis_cluster.node_of(due)] += 1
    # tags spread over the slot space: 16 buckets on 3 equal runs of slots, 5 or 6 each
    assert sorted(masters.values()) == [5, 5, 6]
    for _ in range(8):
        code = new_code()
        table_id = new_table_id(code)  # the server's ids: in the code's bucket
        assert bucket_of(table_id) == bucket_of(code) and len(table_id) == 32
        assert await store.create(table_id, code, b"r0", b"e0", ttl_ms=LONG)
        assert await store.commit(table_id, 0, b"r1", b"e1", schedule=[Due(table_id, f"{table_id}|k", T0)],
                                  ttl_ms=LONG)
        tk = keys.table(table_id)
        names = [tk.record, tk.log, keys.code(code), tk.due, tk.due_tables]
        assert len({redis_cluster.slot_of(n) for n in names}) == 1
        with redis.Redis(port=redis_cluster.node_of(tk.record)) as owner:
            assert owner.exists(*names) == len(names)


async def test_an_id_outside_its_codes_bucket_is_refused(store: RedisStore) -> None:
    code = "ABC123"
    stranger = next(t for t in (f"T{n}" for n in range(100)) if bucket_of(t) != bucket_of(code))
    with pytest.raises(ValueError, match="not in the bucket"):
        await store.create(stranger, code, b"r0", b"e0", ttl_ms=LONG)
    assert await store.lookup(code) is None and await store.load(stranger) is None


async def test_a_commit_is_one_script_call_on_one_master(store: RedisStore, redis_cluster) -> None:
    code = new_code()
    table_id = new_table_id(code)
    assert await store.create(table_id, code, b"r0", b"e0", ttl_ms=LONG)
    assert await store.commit(table_id, 0, b"r1", b"e1", ttl_ms=LONG)  # the script is loaded by now
    owner = redis_cluster.node_of(store.keys.table(table_id).record)
    others = [port for _, port in redis_cluster.nodes if port != owner]

    nodes = {port: redis.Redis(port=port) for port in others}

    def calls(port: int) -> Counter[str]:
        return Counter({k: v["calls"] for k, v in nodes[port].info("commandstats").items()})

    before = {port: calls(port) for port in others}

    async def commits() -> None:
        for v in range(1, 6):
            sched = [Due(table_id, f"{table_id}|bot|{v}", T0 + v)]
            cancel = [f"{table_id}|bot|{v - 1}"]
            assert await store.commit(table_id, v, b"r", b"e", schedule=sched, cancel=cancel, ttl_ms=LONG)

    assert await count_commands(f"redis://127.0.0.1:{owner}/0", commits) == ["evalsha"] * 5
    for port in others:  # nothing but our own INFO call reached the other masters
        delta = calls(port) - before[port]
        nodes[port].close()
        assert delta == Counter({"cmdstat_info": 1}), delta


@contextlib.asynccontextmanager
async def subscribed(
    redis_cluster, sharded: bool
) -> AsyncIterator[tuple[RedisStore, RedisStore, str, AsyncIterator[Change | Note]]]:
    """A reader subscribed to a new table, its writer, the table and the reader's changes."""
    prefix = f"meja-test-{uuid.uuid4().hex[:12]}:"
    url = redis_cluster.url
    async with (
        RedisStore(url, prefix=prefix, reconnect_max_s=0.2, sharded_pubsub=sharded) as reader,
        RedisStore(url, prefix=prefix, sharded_pubsub=sharded) as writer,
    ):
        code = new_code()
        table_id = new_table_id(code)
        assert await writer.create(table_id, code, b"r0", b"e0", ttl_ms=LONG)
        await reader.subscribe(table_id)
        yield reader, writer, table_id, reader.changes()


@pytest.mark.parametrize("sharded", [True, False], ids=["sharded", "plain"])
async def test_pubsub_reconnects_and_resyncs(redis_cluster, sharded: bool) -> None:
    """Sharded pub/sub reconnects to the master of the table's slot; plain pub/sub to another node."""
    async with subscribed(redis_cluster, sharded) as (reader, writer, table_id, changes):
        assert await writer.commit(table_id, 0, b"r1", b"e1", ttl_ms=LONG)
        assert await asyncio.wait_for(anext(changes), 10) == Change(table_id, 1, b"r1", b"e1")

        def pubsub_nodes() -> list[int]:
            found = []
            for _, port in redis_cluster.nodes:
                with redis.Redis(port=port) as node:
                    found += [port] * len(node.client_list(_type="pubsub"))
            return found

        owner = redis_cluster.node_of(reader.keys.table(table_id).channel)
        [first] = pubsub_nodes()
        if sharded:
            assert first == owner
        with redis.Redis(port=first) as node:
            node.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
        # what it may have missed comes as a resync; then changes flow again, from the slot's
        # master (sharded) or another node (plain)
        assert await asyncio.wait_for(anext(changes), 10) == Change(table_id, 1, b"r1", b"e1", resync=True)
        assert reader.connects == 2
        [second] = pubsub_nodes()
        assert second == owner if sharded else second != first
        assert await writer.commit(table_id, 1, b"r2", b"e2", ttl_ms=LONG)
        assert await asyncio.wait_for(anext(changes), 10) == Change(table_id, 2, b"r2", b"e2")


def bus_publishes(redis_cluster) -> int:
    """Pub/sub messages the nodes sent each other over the cluster bus (plain and sharded)."""
    total = 0
    for _, port in redis_cluster.nodes:
        with redis.Redis(port=port) as node:
            info = node.cluster("info")
        total += sum(int(v) for k, v in info.items() if k.startswith("cluster_stats_messages_publish"))
    return total


@pytest.mark.parametrize("sharded", [True, False], ids=["sharded", "plain"])
async def test_a_sharded_publish_stays_on_its_master(redis_cluster, sharded: bool) -> None:
    """Plain PUBLISH is copied to every other node over the cluster bus; SPUBLISH reaches the
    subscribers on the slot's master, and without replicas crosses no bus at all."""
    async with subscribed(redis_cluster, sharded) as (_, writer, table_id, changes):
        before = bus_publishes(redis_cluster)
        for v in range(5):
            assert await writer.commit(table_id, v, b"r%d" % (v + 1), b"e", ttl_ms=LONG)
            assert await asyncio.wait_for(anext(changes), 10) == Change(table_id, v + 1, b"r%d" % (v + 1), b"e")
        crossed = bus_publishes(redis_cluster) - before
        # (other tests' traffic on the shared cluster can only add to the plain count)
        assert crossed == 0 if sharded else crossed >= 5 * (len(redis_cluster.nodes) - 1)
