"""RedisStore beyond the shared contract: round trips, key layout, retries, restarts.

The restart tests start their own redis-servers (``redis_servers`` in
tests/conftest.py) so that killing one disturbs nothing else.
"""

from __future__ import annotations

import asyncio
import signal
import uuid
from collections.abc import AsyncIterator, Callable

import meja.store.redis as redis_module
import msgpack
import pytest
import redis.asyncio as aioredis
from meja.store import Change, Due, MemoryStore, open_store
from meja.store.keys import SCHEMA, Keys
from meja.store.redis import RedisStore
from redis.exceptions import ConnectionError as RedisConnectionError

LONG = 600_000
T0 = 1_700_000_000_000


async def next_change(changes: AsyncIterator[Change], timeout: float = 20) -> Change:
    return await asyncio.wait_for(anext(changes), timeout=timeout)


async def count_commands(url: str, action: Callable[[], object]) -> list[str]:
    """The commands clients sent while ``action`` ran (not those run by scripts), via MONITOR."""
    marker = f"meja-marker-{uuid.uuid4().hex}"
    admin = aioredis.Redis.from_url(url)
    echo = aioredis.Redis.from_url(url)
    await echo.ping()  # connected before MONITOR starts, so its handshake is not counted
    try:
        async with admin.monitor() as monitor:
            await action()  # type: ignore[misc]
            await echo.echo(marker)
            seen: list[str] = []
            while True:
                info = await asyncio.wait_for(monitor.next_command(), timeout=10)
                command = info["command"]
                if marker in command:
                    return seen
                if info["client_type"] != "lua":
                    seen.append(command.split(" ", 1)[0].lower())
    finally:
        await admin.aclose()
        await echo.aclose()


async def test_commit_is_one_round_trip(redis_servers: Callable[..., object]) -> None:
    server = redis_servers()
    url = server.url  # type: ignore[attr-defined]
    async with open_store(url) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        assert await store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)  # loads the script once

        async def commits() -> None:
            for v in range(1, 6):
                sched = [Due("T1", f"k{v}", T0 + v)]
                assert await store.commit("T1", v, b"r", b"e", schedule=sched, cancel=["k0"], ttl_ms=LONG)

        assert await count_commands(url, commits) == ["evalsha"] * 5

        async def others() -> None:
            await store.create("T2", "XYZ789", b"r0", b"e0", ttl_ms=LONG)
            await store.load("T1")
            await store.claim_due(T0 + 100, 1000, 10)
            await store.log_since("T1", 3)

        await store.claim_due(0, 1, 1)  # load the claim script first: MONITOR omits a failed EVALSHA
        await store.log_since("T1", 0)  # and the log's, which reads the head and the range at once
        assert await count_commands(url, others) == ["evalsha", "hmget", "evalsha", "evalsha"]

        async def timer_loop() -> None:
            await store.poll_due(T0 + 100, 1000, 10)
            await store.finish_due("k5")

        await store.poll_due(0, 1, 1)
        # the benchmark counts commands sent from these (meja.bench.server.redis_costs)
        assert await count_commands(url, timer_loop) == ["evalsha", "multi", "zrem", "hdel", "exec"]


async def test_key_layout_expiry_and_payload(redis_url: str, redis_prefix: str) -> None:
    """What an operator sees in Redis: the names of keys.py, their expiry, the encodings."""
    keys = Keys(redis_prefix)
    raw = aioredis.Redis.from_url(redis_url)
    async with open_store(redis_url, prefix=redis_prefix) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        listener = raw.pubsub()
        await listener.subscribe(keys.table("T1").channel)
        assert (await listener.get_message(timeout=5))["type"] == "subscribe"  # type: ignore[index]
        assert await store.commit("T1", 0, b"r1", b"e1", schedule=[Due("T1", "k", T0)], ttl_ms=50_000)
        message = await listener.get_message(timeout=5)
        assert message is not None
        assert msgpack.unpackb(message["data"]) == [SCHEMA, 1, b"r1", b"e1"]
        await listener.aclose()
    try:
        names = sorted(k.decode() for k in await raw.keys(redis_prefix + "*"))
        # T1 is in bucket 5 (tag 5.68), ABC123 in bucket 0 (tag 0.13): one Redis takes any pair
        assert names == sorted(
            [f"{redis_prefix}{{5.68}}:t:T1:rec", f"{redis_prefix}{{5.68}}:t:T1:log",
             f"{redis_prefix}{{0.13}}:code:ABC123", f"{redis_prefix}due", f"{redis_prefix}due:tables"]
        )
        assert keys.table("T1").channel == f"{redis_prefix}{{5.68}}:t:T1:ch"
        for name in [keys.table("T1").record, keys.table("T1").log, keys.code("ABC123")]:
            assert 0 < await raw.pttl(name) <= 50_000, name
        assert await raw.pttl(keys.due()) == -1  # the due set is global and does not expire
        rec = await raw.hgetall(keys.table("T1").record)
        assert rec[b"v"] == b"1" and rec[b"r"] == b"r1" and rec[b"s"] == b"2"
        assert rec[b"c"] == f"{redis_prefix}{{0.13}}:code:ABC123".encode()  # the code's key, for the commit
        # plain msgpack, records and entries as bin: any msgpack reader gets bytes
        log = [msgpack.unpackb(item) for item in await raw.lrange(keys.table("T1").log, 0, -1)]
        assert log == [[0, b"e0"], [1, b"e1"]]
        assert await raw.get(keys.code("ABC123")) == b"T1"
        assert await raw.hget(keys.due_tables(), "k") == b"T1"
    finally:
        await raw.aclose()


async def test_retried_write_is_not_applied_twice(
    redis_url: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retry of a commit whose reply was lost answers True without applying it again."""
    monkeypatch.setattr(redis_module, "_nonce", lambda: b"fixed-nonce")
    async with open_store(redis_url, prefix=redis_prefix) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)  # the retry
        await store.subscribe("T1")
        changes = store.changes()
        assert await store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
        assert await store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)  # the retry
        assert await store.load("T1") == (1, b"r1")
        assert await store.log_since("T1", -1) == [(0, b"e0"), (1, b"e1")]
        monkeypatch.setattr(redis_module, "_nonce", lambda: b"other-nonce")
        assert not await store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)  # a real conflict
        assert not await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        assert await store.commit("T1", 1, b"r2", b"e2", ttl_ms=LONG)
        # published once per real commit
        assert await next_change(changes) == Change("T1", 1, b"r1", b"e1")
        assert await next_change(changes) == Change("T1", 2, b"r2", b"e2")


async def test_a_retry_finds_its_commit_after_the_table_moved_on(
    redis_url: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an outage, another process's commit may land before a retry of ours whose reply was
    lost: the retry still answers True (its nonce is in the table's recent history), and nothing
    is applied twice; a nonce the table never saw is a plain conflict."""
    nonces = iter([b"create00", b"mine0001", b"other002", b"other003", b"never004"])
    monkeypatch.setattr(redis_module, "_nonce", lambda: next(nonces))
    async with open_store(redis_url, prefix=redis_prefix) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        assert await store.commit("T1", 0, b"mine", b"e1", ttl_ms=LONG)  # its reply "lost"
        assert await store.commit("T1", 1, b"other", b"e2", ttl_ms=LONG)  # another process
        assert await store.commit("T1", 2, b"other", b"e3", ttl_ms=LONG)
        monkeypatch.setattr(redis_module, "_nonce", lambda: b"mine0001")  # the retry of the first
        assert await store.commit("T1", 0, b"mine", b"e1", ttl_ms=LONG)
        monkeypatch.setattr(redis_module, "_nonce", lambda: b"never004")
        assert not await store.commit("T1", 0, b"mine", b"e1", ttl_ms=LONG)
        assert await store.load("T1") == (3, b"other")
        assert [v for v, _ in await store.log_since("T1", -1)] == [0, 1, 2, 3]
        # the history keeps the last 16 writes: an older retry is a conflict again
        for v in range(3, 3 + 16):
            monkeypatch.setattr(redis_module, "_nonce", lambda v=v: b"fill%04d" % v)
            assert await store.commit("T1", v, b"r", b"e", ttl_ms=LONG)
        monkeypatch.setattr(redis_module, "_nonce", lambda: b"mine0001")
        assert not await store.commit("T1", 0, b"mine", b"e1", ttl_ms=LONG)


async def test_changes_survive_a_restart_and_resync(redis_servers: Callable[..., object]) -> None:
    """Redis crashes (SIGKILL; appendfsync always keeps the data) and comes back on the same port.
    Commits made while the subscriber was away reach it as one resync Change; it catches up
    with log_since, and later commits arrive as usual."""
    server = redis_servers(appendonly=True)
    url = server.url  # type: ignore[attr-defined]
    reader = RedisStore(url, reconnect_max_s=0.2, ping_interval_s=1.0)
    writer = RedisStore(url)
    # Hold the reader's reconnection until the test lets it go, so the miss is certain.
    gate = asyncio.Event()
    make_client = reader._pubsub_client

    class GatedClient:
        """What the listener gets for its next connection: a pub/sub that connects when allowed."""

        def __init__(self, shard: object) -> None:
            self.shard = shard

        def pubsub(self) -> aioredis.client.PubSub:
            pubsub = make_client(self.shard).pubsub()  # type: ignore[arg-type]
            connect = pubsub.connect

            async def connect_when_allowed() -> None:
                await gate.wait()
                await connect()

            pubsub.connect = connect_when_allowed  # type: ignore[method-assign]
            return pubsub

    try:
        assert await writer.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        gate.set()
        await reader.subscribe("T1")
        changes = reader.changes()
        assert await writer.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
        assert await next_change(changes) == Change("T1", 1, b"r1", b"e1")
        assert reader.connects == 1

        gate.clear()
        reader._pubsub_client = GatedClient  # type: ignore[assignment,method-assign]
        server.restart(signal.SIGKILL)  # type: ignore[attr-defined]
        for v in (2, 3):  # published to nobody: the reader is not back
            assert await writer.commit("T1", v - 1, b"r%d" % v, b"e%d" % v, ttl_ms=LONG)
        gate.set()
        resync = await next_change(changes)
        assert resync == Change("T1", 3, b"r3", b"e3", resync=True)
        assert reader.connects == 2
        # what the server does with it: the entries it missed
        assert await reader.log_since("T1", 1) == [(2, b"e2"), (3, b"e3")]
        assert await writer.commit("T1", 3, b"r4", b"e4", ttl_ms=LONG)
        assert await next_change(changes) == Change("T1", 4, b"r4", b"e4")
    finally:
        gate.set()
        await reader.aclose()
        await writer.aclose()


async def test_restart_without_persistence(redis_servers: Callable[..., object]) -> None:
    """The data is lost with the server: no resync for the vanished table, and the
    subscription machinery keeps working for new tables (no gate: a natural reconnect)."""
    server = redis_servers()
    url = server.url  # type: ignore[attr-defined]
    async with RedisStore(url, reconnect_max_s=0.2) as reader, RedisStore(url) as writer:
        assert await writer.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        await reader.subscribe("T1")
        changes = reader.changes()
        assert await writer.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
        assert await next_change(changes) == Change("T1", 1, b"r1", b"e1")
        server.restart(signal.SIGKILL)  # type: ignore[attr-defined]
        assert await writer.load("T1") is None
        assert await writer.create("T2", "XYZ789", b"r0", b"e0", ttl_ms=LONG)
        await reader.subscribe("T2")  # waits for the reconnect if need be
        assert reader.connects == 2
        assert await writer.commit("T2", 0, b"t2", b"f1", ttl_ms=LONG)
        assert await next_change(changes) == Change("T2", 1, b"t2", b"f1")


async def test_subscribe_while_redis_is_down(redis_servers: Callable[..., object]) -> None:
    server = redis_servers()
    url = server.url  # type: ignore[attr-defined]
    async with RedisStore(url, reconnect_max_s=0.1, subscribe_timeout_s=0.3) as reader:
        await reader.subscribe("T0")
        server.stop()  # type: ignore[attr-defined]
        with pytest.raises(RedisConnectionError):
            await reader.subscribe("T1")
        server.start()  # type: ignore[attr-defined]
        async with RedisStore(url) as writer:
            assert await writer.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
            changes = reader.changes()
            # T1 was not left half-subscribed: subscribing now works and delivers
            await reader.subscribe("T1")
            assert await writer.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
            assert await next_change(changes) == Change("T1", 1, b"r1", b"e1")


async def test_open_store_urls(redis_url: str) -> None:
    assert isinstance(open_store(None), MemoryStore)
    assert isinstance(open_store("memory://"), MemoryStore)
    with pytest.raises(ValueError, match="unknown store url scheme"):
        open_store("postgres://x")
    async with open_store(f"{redis_url}?prefix=meja-url-test-{uuid.uuid4().hex[:8]}:") as store:
        assert isinstance(store, RedisStore)
        assert store.keys.prefix.startswith("meja-url-test-")
        assert await store.create("T1", "ABC123", b"r", b"e", ttl_ms=5_000)
        assert await store.lookup("ABC123") == "T1"
    async with open_store(redis_url) as store:
        assert isinstance(store, RedisStore) and store.keys.prefix == "meja:"
    # other query parameters go on to redis-py (db=1: another database, so nothing found)
    async with open_store(f"{redis_url}?prefix=meja-url-test-db:&db=1") as store:
        assert isinstance(store, RedisStore) and store.keys.prefix == "meja-url-test-db:"
        assert await store.create("T1", "ABC123", b"r", b"e", ttl_ms=5_000)
    async with open_store(f"{redis_url}?prefix=meja-url-test-db:") as store:
        assert await store.lookup("ABC123") is None


async def test_a_silent_connection_is_detected_by_ping(redis_servers: Callable[..., object]) -> None:
    """A frozen Redis (SIGSTOP: the socket stays open, nothing answers) is a dead connection
    once a ping goes unanswered; the listener replaces it and resyncs when Redis is back."""
    server = redis_servers()
    url = server.url  # type: ignore[attr-defined]
    async with RedisStore(url, ping_interval_s=0.2, reconnect_max_s=0.2) as reader, RedisStore(url) as writer:
        assert await writer.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        await reader.subscribe("T1")
        changes = reader.changes()
        process = server.process  # type: ignore[attr-defined]
        process.send_signal(signal.SIGSTOP)
        try:
            await asyncio.sleep(1.0)  # > 2 ping intervals of silence
        finally:
            process.send_signal(signal.SIGCONT)
        assert await next_change(changes) == Change("T1", 0, b"r0", b"e0", resync=True)
        assert reader.connects >= 2
        assert await writer.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
        assert await next_change(changes) == Change("T1", 1, b"r1", b"e1")
