"""The archive part of the Store contract (Store.archive / Store.archived) on every store:
MemoryStore with an injected clock, RedisStore on the session's private redis-server, and
on the private three-master Redis Cluster (one key per archive: any slot)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from meja.store import MemoryStore, Store, open_store
from meja.store.keys import Keys

T0 = 1_700_000_000_000


class Env:
    def __init__(self, store: Store, reopen: object, clock: list[int] | None) -> None:
        self.store = store
        self.reopen = reopen
        self.clock = clock

    async def elapse(self, ms: int) -> None:
        if self.clock is not None:
            self.clock[0] += ms
        else:
            await asyncio.sleep(ms / 1000 + 0.05)


@pytest.fixture(params=["memory", "redis", "cluster"])
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    opened: list[Store] = []
    if request.param == "memory":
        now = [T0]
        memory = MemoryStore(clock=lambda: now[0])
        e = Env(memory, lambda: memory, now)
    else:
        if request.param == "cluster":
            url: str = request.getfixturevalue("redis_cluster").url
            prefix = f"meja-test-{uuid.uuid4().hex[:12]}:"
        else:
            url = request.getfixturevalue("redis_url")
            prefix = request.getfixturevalue("redis_prefix")

        def reopen() -> Store:
            store = open_store(url, prefix=prefix)
            opened.append(store)
            return store

        e = Env(reopen(), reopen, None)
    try:
        yield e
    finally:
        for store in opened:
            await store.aclose()


async def test_an_archive_is_written_once_and_read_back_by_another_client(env: Env) -> None:
    assert await env.store.archived("A1") is None
    assert await env.store.archive("A1", b"first", ttl_ms=600_000)
    # Immutable: a second write of the same id changes nothing.
    assert not await env.store.archive("A1", b"second", ttl_ms=600_000)
    other = env.reopen()  # type: ignore[operator]
    assert await other.archived("A1") == b"first"
    assert await other.archived("A2") is None


async def test_an_archive_expires_on_its_own(env: Env) -> None:
    assert await env.store.archive("A3", b"x" * 100, ttl_ms=150)
    assert await env.store.archived("A3") == b"x" * 100
    await env.elapse(200)
    assert await env.store.archived("A3") is None
    # An expired id may be written again (nothing is left of it).
    assert await env.store.archive("A3", b"y", ttl_ms=600_000)
    assert await env.store.archived("A3") == b"y"


async def test_an_archive_outlives_a_table_that_expires() -> None:
    now = [T0]
    store = MemoryStore(clock=lambda: now[0])
    assert await store.create("T1", "ABC123", b"rec", b"entry", ttl_ms=1000)
    assert await store.archive("M1", b"match", ttl_ms=60_000)
    now[0] += 2000
    assert await store.load("T1") is None
    assert await store.archived("M1") == b"match"


def test_archive_keys_have_their_own_name_and_refuse_braces() -> None:
    key = Keys().archive("abc")
    assert key.startswith("meja:{") and key.endswith("}:arch:abc")
    with pytest.raises(ValueError):
        Keys().archive("a{b}")
