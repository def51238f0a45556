"""MemoryStore beyond the shared contract: the resync hook, and exact expiry on its clock."""

from __future__ import annotations

import asyncio

from meja.store import Change, Due, MemoryStore

LONG = 600_000


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


async def test_resync_hook_mimics_a_redis_reconnect() -> None:
    async with MemoryStore() as store:
        for t, code in [("A", "AAAAAA"), ("B", "BBBBBB"), ("C", "CCCCCC")]:
            assert await store.create(t, code, b"r0" + t.encode(), b"e0", ttl_ms=LONG)
        await store.subscribe("A")
        await store.subscribe("B")
        assert await store.commit("A", 0, b"a1", b"ea1", ttl_ms=LONG)
        assert await store.resync() == 2  # the subscribed tables; C is not one
        changes = store.changes()
        got = [await asyncio.wait_for(anext(changes), 1) for _ in range(3)]
        assert got == [
            Change("A", 1, b"a1", b"ea1"),
            Change("A", 1, b"a1", b"ea1", resync=True),
            Change("B", 0, b"r0B", b"e0", resync=True),
        ]


async def test_expiry_is_exact_on_the_injected_clock() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    assert await store.create("T", "CODE11", b"r", b"e", ttl_ms=100)
    clock.now += 99
    assert await store.load("T") == (0, b"r")
    # a commit that shortens the expiry (a finished table) is exact too
    assert await store.commit("T", 0, b"r1", b"e1", ttl_ms=10)
    clock.now += 10
    assert await store.load("T") is None
    assert await store.lookup("CODE11") is None
    # heartbeats and hit windows run on the same clock
    await store.heartbeat("p", clock.now, 50)
    assert await store.hit("k", 50) == 1
    clock.now += 49
    assert await store.alive(["p"]) == [True]
    assert await store.hit("k", 50) == 2
    clock.now += 1
    assert await store.alive(["p"]) == [False]
    assert await store.hit("k", 50) == 1
    await store.aclose()


async def test_many_tables_expire_and_memory_is_reclaimed() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    for i in range(200):
        assert await store.create(f"T{i}", f"C{i}", b"r", b"e", ttl_ms=10 + i)
    assert await store.commit("T0", 0, b"r", b"e", schedule=[Due("T0", "k", 5)], ttl_ms=LONG)
    clock.now += 1000
    await store.next_due_ms()  # any operation sweeps
    assert list(store._tables) == ["T0"]
    assert list(store._codes) == ["C0"]
    await store.aclose()
