"""A commit publishes its record as a delta against the version before it (meja.store.delta), and
a subscriber without that version reads the record: every Change still carries the exact record."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import meja.store.redis as redis_module
import msgpack
import pytest
import redis.asyncio as aioredis
from meja.store import Change, delta, open_store
from meja.store.keys import SCHEMA, Keys
from meja.store.redis import RedisStore

LONG = 600_000


BODY = os.urandom(2500)


def record(version: int) -> bytes:
    """A record of about 2.5 KB of which a move changes a few bytes: one random body, two counters."""
    packed: bytes = msgpack.packb({"v": version, "body": BODY, "turn": version % 3}, use_bin_type=True)
    return packed


async def next_change(changes: AsyncIterator[Change]) -> Change:
    return await asyncio.wait_for(anext(changes), timeout=20)


def test_a_delta_makes_exactly_its_record_from_its_own_base_only() -> None:
    base, new = record(1), record(2)
    made = delta.make(base, new)
    assert made is not None and len(made) < len(new) // 10
    assert delta.apply(base, made) == new
    assert delta.apply(new, made) is None  # another base: refused, never a wrong record
    assert delta.apply(base[:-1] + b"\0", made) is None
    assert delta.make(b"", os.urandom(300)) is None  # no smaller than the record: none


async def test_a_commit_publishes_a_delta_and_subscribers_get_the_record(redis_url: str, redis_prefix: str) -> None:
    keys = Keys(redis_prefix)
    raw = aioredis.Redis.from_url(redis_url)
    records = [record(v) for v in range(6)]
    async with (
        open_store(redis_url, prefix=redis_prefix) as writer,
        open_store(redis_url, prefix=redis_prefix) as reader,
    ):
        assert isinstance(reader, RedisStore)
        assert await writer.create("T1", "ABC123", records[0], b"e0", ttl_ms=LONG)
        await reader.subscribe("T1")
        listener = raw.pubsub()
        await listener.subscribe(keys.table("T1").channel)
        assert (await listener.get_message(timeout=5))["type"] == "subscribe"  # type: ignore[index]
        changes = reader.changes()
        assert await writer.commit("T1", 0, records[1], b"e1", ttl_ms=LONG)
        # The reader knew no version of T1: it read the record, which is still that version's.
        first = await next_change(changes)
        assert (first.version, first.record, first.entry, first.resync) == (1, records[1], b"e1", False)
        assert reader.delta_misses == 1
        for v in range(2, 6):
            assert await writer.commit("T1", v - 1, records[v], f"e{v}".encode(), ttl_ms=LONG)
            change = await next_change(changes)
            assert (change.version, change.record, change.entry, change.resync) == (
                v,
                records[v],
                f"e{v}".encode(),
                False,
            )
        assert reader.delta_misses == 1  # each made from the version before it
        published = []
        while len(published) < 5:
            message = await listener.get_message(timeout=5)
            if message is not None and message["type"] == "message":
                published.append(message["data"])
        for v, data in enumerate(published, start=1):
            payload = msgpack.unpackb(data)
            assert payload[:4] == [SCHEMA, v, None, f"e{v}".encode()]  # the record as a delta
            assert delta.apply(records[v - 1], payload[4]) == records[v]
            assert len(data) < len(records[v]) // 5
        await listener.aclose()
    await raw.aclose()


async def test_a_subscriber_that_missed_versions_reads_the_record(redis_url: str, redis_prefix: str) -> None:
    """A delta heard without its base, the table moved on since: a resync Change of what was read
    (it says versions were skipped), then the later deltas apply to it."""
    records = [record(v) for v in range(5)]
    async with (
        open_store(redis_url, prefix=redis_prefix) as writer,
        open_store(redis_url, prefix=redis_prefix) as reader,
    ):
        assert isinstance(reader, RedisStore)
        assert await writer.create("T1", "ABC123", records[0], b"e0", ttl_ms=LONG)
        await reader.subscribe("T1")
        changes = reader.changes()
        assert await writer.commit("T1", 0, records[1], b"e1", ttl_ms=LONG)
        assert (await next_change(changes)).record == records[1]
        # The reader's known record is not the one the next delta was made against.
        reader._bases["T1"] = [(1, records[3])]
        for v in (2, 3):
            assert await writer.commit("T1", v - 1, records[v], f"e{v}".encode(), ttl_ms=LONG)
        got = await next_change(changes)
        assert got.record == (records[got.version]) and got.version in (2, 3)
        if got.version == 2:  # read before the third commit landed: the change as it was
            assert not got.resync and got.entry == b"e2"
            got = await next_change(changes)
            assert (got.version, got.record) == (3, records[3])
        else:  # read after: the table's record now, the versions between skipped
            assert got.resync and got.entry == b"e3"
        assert await writer.commit("T1", 3, records[4], b"e4", ttl_ms=LONG)
        last = await next_change(changes)
        assert (last.version, last.record, last.resync) == (4, records[4], False)


async def test_own_commits_ahead_of_their_changes(redis_url: str, redis_prefix: str) -> None:
    """A store's own commits, several before their changes come back: each Change carries its record
    and no read is needed (each commit is the base of the next one's delta)."""
    records = [record(v) for v in range(6)]
    async with open_store(redis_url, prefix=redis_prefix) as store:
        assert isinstance(store, RedisStore)
        assert await store.create("T1", "ABC123", records[0], b"e0", ttl_ms=LONG)
        await store.subscribe("T1")
        changes = store.changes()
        for v in range(1, 6):
            assert await store.commit("T1", v - 1, records[v], f"e{v}".encode(), ttl_ms=LONG)
        for v in range(1, 6):
            change = await next_change(changes)
            assert (change.version, change.record) == (v, records[v])
        assert store.delta_misses == 0


async def test_bases_of_tables_not_subscribed_to_are_bounded(
    redis_url: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process keeps the record of every table it subscribes to (the server holds those anyway),
    and of the others (a timer ran here) only the last few changed."""
    monkeypatch.setattr(redis_module, "_UNSUBSCRIBED_BASES", 3)
    async with open_store(redis_url, prefix=redis_prefix) as store:
        assert isinstance(store, RedisStore)
        assert await store.create("S1", "SUB001", record(0), b"e0", ttl_ms=LONG)
        await store.subscribe("S1")
        for n in range(6):
            assert await store.create(f"T{n}", f"TAB00{n}", record(0), b"e0", ttl_ms=LONG)
            assert await store.commit(f"T{n}", 0, record(1), b"e1", ttl_ms=LONG)
        assert await store.commit("S1", 0, record(1), b"e1", ttl_ms=LONG)
        assert sorted(store._bases) == ["S1", "T3", "T4", "T5"]
        await store.unsubscribe("S1")
        assert "S1" not in store._bases


async def test_no_delta_while_no_other_process_hears_the_table(
    redis_url: str, redis_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table only this process subscribes to: its commits make no delta and publish no record
    (nobody else would read either), only the entry; once another process subscribes, it reads the
    record of the next commit (whose publish hears it) and the one after is a delta again. Every
    Change still carries the exact record."""
    made: list[int] = []
    real = delta.make

    def counted(base: bytes, new: bytes) -> bytes | None:
        made.append(len(new))
        return real(base, new)

    monkeypatch.setattr(redis_module.delta, "make", counted)
    records = [record(v) for v in range(8)]
    async with (
        open_store(redis_url, prefix=redis_prefix) as writer,
        open_store(redis_url, prefix=redis_prefix) as reader,
    ):
        assert isinstance(writer, RedisStore) and isinstance(reader, RedisStore)
        assert await writer.create("T1", "ABC123", records[0], b"e0", ttl_ms=LONG)
        await writer.subscribe("T1")
        own = writer.changes()
        assert await writer.commit("T1", 0, records[1], b"e1", ttl_ms=LONG)  # heard by itself alone
        assert len(made) == 1
        for v in (2, 3):
            assert await writer.commit("T1", v - 1, records[v], f"e{v}".encode(), ttl_ms=LONG)
        assert len(made) == 1, "deltas made that nobody else would read"
        for v in (1, 2, 3):
            change = await next_change(own)
            assert (change.version, change.record) == (v, records[v])
        await reader.subscribe("T1")
        theirs = reader.changes()
        assert await writer.commit("T1", 3, records[4], b"e4", ttl_ms=LONG)  # heard by two
        assert len(made) == 1
        change = await next_change(theirs)  # (read, the table still at that version)
        assert (change.version, change.record, change.entry, change.resync) == (4, records[4], b"e4", False)
        for v in (5, 6, 7):
            assert await writer.commit("T1", v - 1, records[v], f"e{v}".encode(), ttl_ms=LONG)
        assert len(made) == 4, "another process listens: deltas again"
        for v in (5, 6, 7):
            change = await next_change(theirs)
            assert (change.version, change.record, change.resync) == (v, records[v], False)
        assert reader.delta_misses == 1  # the record of version 4 read; the deltas after applied
        assert writer.delta_misses == 0  # its own records taken, never read back
