"""Durable commits (issue 24, point 2): a commit is acknowledged once a replica of its master has it.

Each test starts its own master, with a replica where it needs one (``redis_servers`` in
tests/conftest.py), so that stopping one disturbs nothing else.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable
from typing import Any

import meja.store.redis as redis_module
import pytest
import redis
from meja.store.keys import SCHEMA
from meja.store.redis import RedisStore
from redis.exceptions import ConnectionError as RedisConnectionError

LONG = 600_000


def replica_of(redis_servers: Callable[..., Any], master: Any) -> Any:
    """A replica of ``master``, returned once its link is up and it has the master's data."""
    replica = redis_servers(extra=("--replicaof", "127.0.0.1", str(master.port)))
    deadline = time.monotonic() + 30
    with redis.Redis(port=replica.port) as client:
        while client.info("replication").get("master_link_status") != "up":
            assert time.monotonic() < deadline, "the replica never connected to its master"
            time.sleep(0.05)
    # The master must list it too (ROLE, what the store asks): a replica may call its link up a
    # moment before its master counts it online, and a store that heard "no replica" trusts that
    # for a while (a loaded CI run acknowledged the first commit so, and the test read nothing).
    with redis.Redis(port=master.port) as client:
        while not any(
            isinstance(v, dict) and v.get("state") == "online" for v in client.info("replication").values()
        ):
            assert time.monotonic() < deadline, "the master never counted its replica online"
            time.sleep(0.05)
    return replica


def version_on(port: int, store: RedisStore, table_id: str) -> int | None:
    with redis.Redis(port=port) as client:
        value = client.hget(store.keys.table(table_id).record, "v")
    return None if value is None else int(value)


async def test_an_acknowledged_commit_is_on_the_replica(redis_servers: Callable[..., Any]) -> None:
    master = redis_servers()
    replica = replica_of(redis_servers, master)
    async with RedisStore(master.url, replica_wait_ms=2000) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        for version in range(1, 6):
            assert await store.commit("T1", version - 1, b"r%d" % version, b"e", ttl_ms=LONG)
            # Read from the replica the moment the commit returns: the barrier's WAIT saw it there.
            assert version_on(replica.port, store, "T1") == version
        assert (store.unreplicated, store.lost_commits) == (0, 0)


async def test_a_silent_replica_holds_the_acknowledgement_back(redis_servers: Callable[..., Any]) -> None:
    master = redis_servers()
    replica = replica_of(redis_servers, master)
    async with RedisStore(master.url, replica_wait_ms=100) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        assert await store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)  # learns that the master has a replica
        os.kill(replica.process.pid, signal.SIGSTOP)
        try:
            # The replica is connected but answers nothing: every WAIT runs out, and the commit is
            # acknowledged only after the barrier's rounds, counted as unreplicated.
            assert await store.commit("T1", 1, b"r2", b"e2", ttl_ms=LONG)
            assert store.unreplicated == 1
        finally:
            os.kill(replica.process.pid, signal.SIGCONT)
        assert await store.commit("T1", 2, b"r3", b"e3", ttl_ms=LONG)
        assert store.unreplicated == 1
        assert version_on(replica.port, store, "T1") == 3


async def test_without_a_replica_a_commit_does_not_wait(redis_servers: Callable[..., Any]) -> None:
    master = redis_servers()
    async with RedisStore(master.url, replica_wait_ms=60_000) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        # A WAIT for a replica that does not exist would last the whole minute.
        await asyncio.wait_for(store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG), timeout=30)
        assert store.unreplicated == 0


async def test_a_commit_lost_with_its_master_is_made_again(redis_servers: Callable[..., Any]) -> None:
    """The barrier finds the commit's nonce missing from the record (what a replica promoted
    before it had the commit shows) and makes the commit again, with the same nonce."""
    master = redis_servers()
    async with RedisStore(master.url, replica_wait_ms=1000) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        tk = store.keys.table("T1")
        keys = [tk.record, tk.log, tk.due, tk.due_tables]
        nonce = b"lostlost"
        args: list[bytes | str | int] = [0, b"r1", b"e1", LONG, nonce, tk.channel, SCHEMA, 0, b"", 0, 0]
        assert await store._durable(keys, args, nonce, LONG)
        assert store.lost_commits == 1
        assert await store.load("T1") == (1, b"r1")
        # Found there now: nothing more to do.
        assert await store._durable(keys, args, nonce, LONG)
        assert store.lost_commits == 1
        assert await store.load("T1") == (1, b"r1")


async def test_a_barrier_that_cannot_reach_the_master_does_not_acknowledge(
    redis_servers: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit applied, but no barrier could say a replica has it: the caller gets the error
    (as for a commit whose reply was lost), not an acknowledgement."""
    master = redis_servers()
    async with RedisStore(master.url, replica_wait_ms=100) as store:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)

        def unreachable(key: str) -> Any:
            raise RedisConnectionError("the master is unreachable")

        monkeypatch.setattr(store, "_node_client", unreachable)
        monkeypatch.setattr(redis_module, "_FAILOVER_WAIT_S", 0.1)
        with pytest.raises(RedisConnectionError):
            await store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
        assert await store.load("T1") == (1, b"r1")
        assert store.unreplicated == 0
