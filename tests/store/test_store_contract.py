"""The Store contract (meja/store/base.py), run on both implementations.

``memory``: MemoryStore with an injected clock (time moves only when a test says).
``redis``: RedisStore against the session's private redis-server, each test under
its own key prefix; time moves by really waiting (short TTLs, tens of ms), which
checks expiry semantics, not speed.
``cluster``: RedisStore on the session's private three-master Redis Cluster
(tests/cluster_fixture.py), likewise. The tables T1, T2, T3, A, B and C are in
buckets 5, 15, 9, 11, 1 and 7 (:func:`meja.store.keys.bucket_of`), spread over
the three masters.

The room codes are made for their tables (:func:`code_for`: in the table's bucket),
as the server makes table ids for their codes: on a cluster a table's keys and
its code's key must share a slot (a pair that does not is refused with
``ValueError``, see test_code_and_id_are_unique).
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import pytest
from meja.store import Change, Due, MemoryStore, Note, Store, open_store
from meja.store.keys import bucket_of

#: Long enough never to expire during a test.
LONG = 600_000
#: Base of the due times the tests choose (due times are the caller's clock).
T0 = 1_700_000_000_000


def code_for(table_id: str, stem: str) -> str:
    """A 6-character room code starting with the 4-character ``stem``, in ``table_id``'s bucket."""
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    for a, b in itertools.product(alphabet, repeat=2):
        if bucket_of(stem + a + b) == bucket_of(table_id):
            return stem + a + b
    raise AssertionError("no code found")


def table_for(stem: str, code: str) -> str:
    """A table id ``stem.<n>`` in ``code``'s bucket (as meja.server.rooms.new_table_id draws them)."""
    return next(t for t in (f"{stem}.{n}" for n in itertools.count()) if bucket_of(t) == bucket_of(code))


ABC = code_for("T1", "ABC1")
XYZ = code_for("T1", "XYZ7")  # another code of T1's bucket
CODE11, CODE22, CODE33 = code_for("T1", "COD1"), code_for("T2", "COD2"), code_for("T3", "COD3")


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


@dataclass
class Env:
    """One store under test, and how to get a second client and to let time pass."""

    kind: str
    store: Store
    _other: Callable[[], Store]
    _elapse: Callable[[int], Awaitable[None]]
    opened: list[Store] = field(default_factory=list)

    def other(self) -> Store:
        """A second client on the same data (a second process's store, for Redis)."""
        store = self._other()
        if store is not self.store:
            self.opened.append(store)
        return store

    async def elapse(self, ms: int) -> None:
        """Let at least ``ms`` milliseconds pass on the store's clock."""
        await self._elapse(ms)


@pytest.fixture(params=["memory", "redis", "cluster"])
async def env(request: pytest.FixtureRequest) -> AsyncIterator[Env]:
    if request.param == "memory":
        clock = FakeClock()
        memory = MemoryStore(clock=clock)

        async def advance(ms: int) -> None:
            clock.now += ms

        e = Env("memory", memory, lambda: memory, advance)
    elif request.param == "cluster":
        cluster_url: str = request.getfixturevalue("redis_cluster").url
        prefix = f"meja-test-{uuid.uuid4().hex[:12]}:"

        async def wait(ms: int) -> None:
            await asyncio.sleep(ms / 1000 + 0.05)

        e = Env("cluster", open_store(cluster_url, prefix=prefix), lambda: open_store(cluster_url, prefix=prefix), wait)
    else:
        url: str = request.getfixturevalue("redis_url")
        prefix: str = request.getfixturevalue("redis_prefix")

        async def sleep(ms: int) -> None:
            await asyncio.sleep(ms / 1000 + 0.05)  # Redis expires on its own clock: wait a bit more

        e = Env("redis", open_store(url, prefix=prefix), lambda: open_store(url, prefix=prefix), sleep)
    try:
        yield e
    finally:
        for store in [e.store, *e.opened]:
            await store.aclose()


async def next_change(changes: AsyncIterator[Change]) -> Change:
    return await asyncio.wait_for(anext(changes), timeout=10)


async def make(store: Store, table_id: str = "T1", code: str = ABC, ttl_ms: int = LONG) -> None:
    assert await store.create(table_id, code, b"rec0:" + table_id.encode(), b"entry0", ttl_ms=ttl_ms)


# -- tables ---------------------------------------------------------------------------------


async def test_create_load_lookup(env: Env) -> None:
    s = env.store
    assert await s.load("T1") is None
    assert await s.lookup(ABC) is None
    assert await s.create("T1", ABC, b"\x00record\xff", b"\x92entry", ttl_ms=LONG)
    assert await s.load("T1") == (0, b"\x00record\xff")
    assert await s.lookup(ABC) == "T1"
    assert await s.lookup("abc123") is None  # codes are exact: the server normalises
    assert await s.log_since("T1", -1) == [(0, b"\x92entry")]
    # another client sees it
    assert await env.other().load("T1") == (0, b"\x00record\xff")


async def test_code_and_id_are_unique(env: Env) -> None:
    s = env.store
    await make(s, "T1", ABC)
    # same code, other id: refused, nothing stored
    assert not await s.create(table_for("T2", ABC), ABC, b"r", b"e", ttl_ms=LONG)
    if env.kind == "cluster":  # an id not in its code's bucket: refused before anything else
        with pytest.raises(ValueError, match="not in the bucket"):
            await s.create("T2", ABC, b"r", b"e", ttl_ms=LONG)
    else:
        assert not await s.create("T2", ABC, b"r", b"e", ttl_ms=LONG)
    assert await s.load("T2") is None
    assert await s.log_since("T2", -1) == []
    # same id, other code: refused, the code stays free, the table untouched
    assert not await s.create("T1", XYZ, b"r", b"e", ttl_ms=LONG)
    assert await s.lookup(XYZ) is None
    assert await s.load("T1") == (0, b"rec0:T1")
    assert await s.lookup(ABC) == "T1"


async def test_commit_cas(env: Env) -> None:
    s = env.store
    await make(s)
    await s.subscribe("T1")
    changes = s.changes()
    assert await s.commit("T1", 0, b"r1", b"e1", schedule=[Due("T1", "T1|bot|1|1", T0)], ttl_ms=LONG)
    assert await s.load("T1") == (1, b"r1")
    # wrong expected version: False, and nothing changed anywhere
    refused = await s.commit(
        "T1", 0, b"bad", b"bad-entry", schedule=[Due("T1", "T1|bad", T0 - 5)], cancel=["T1|bot|1|1"], ttl_ms=LONG
    )
    assert refused is False
    assert not await s.commit("T1", 5, b"bad", b"bad-entry", ttl_ms=LONG)
    assert await s.load("T1") == (1, b"r1")
    assert await s.log_since("T1", -1) == [(0, b"entry0"), (1, b"e1")]
    assert await s.next_due_ms() == T0  # the cancel did not happen, the schedule neither
    assert await s.claim_due(T0 + 10, 1000, 10) == [Due("T1", "T1|bot|1|1", T0)]
    # no publish for the refused commits: the next change after v1 is v2
    assert await s.commit("T1", 1, b"r2", b"e2", ttl_ms=LONG)
    assert await next_change(changes) == Change("T1", 1, b"r1", b"e1")
    assert await next_change(changes) == Change("T1", 2, b"r2", b"e2")
    # no such table: False, and still none
    assert not await s.commit("NOPE", 0, b"r", b"e", ttl_ms=LONG)
    assert await s.load("NOPE") is None


@pytest.mark.parametrize("size", [0, 1, 255, 256, 65_535, 65_536, 300_000])
async def test_records_and_entries_are_any_bytes(env: Env, size: int) -> None:
    s = env.store
    record = bytes((i * 7 + size) % 256 for i in range(size))
    entry = record[::-1] + b"\x00\xc1"  # not UTF-8, not valid msgpack: opaque
    assert await s.create("T1", ABC, record, entry, ttl_ms=LONG)
    await s.subscribe("T1")
    changes = s.changes()
    assert await s.commit("T1", 0, entry, record, ttl_ms=LONG)
    assert await next_change(changes) == Change("T1", 1, entry, record)
    assert await s.load("T1") == (1, entry)
    assert await s.log_since("T1", -1) == [(0, entry), (1, record)]


async def test_log_since(env: Env) -> None:
    s = env.store
    await make(s)
    for v in range(1, 6):
        assert await s.commit("T1", v - 1, b"r%d" % v, b"e%d" % v, ttl_ms=LONG)
    everything = [(0, b"entry0")] + [(v, b"e%d" % v) for v in range(1, 6)]
    assert await s.log_since("T1", -1) == everything
    assert await s.log_since("T1", 2) == everything[3:]
    assert await s.log_since("T1", 4) == [(5, b"e5")]
    assert await s.log_since("T1", 5) == []
    assert await s.log_since("T1", 99) == []
    assert await s.log_since("NOPE", -1) == []
    # bounded reads: at most `limit` entries, the oldest first
    assert await s.log_since("T1", -1, limit=2) == everything[:2]
    assert await s.log_since("T1", 3, limit=10) == everything[4:]
    assert await s.log_since("T1", -1, limit=0) == []


async def test_the_log_keeps_the_latest_entries_only(env: Env) -> None:
    """Issue 12, finding 4: a table's log is bounded (log_keep); the record keeps the whole state."""
    s = env.store
    await make(s)
    for v in range(1, 31):
        assert await s.commit("T1", v - 1, b"r%d" % v, b"e%d" % v, ttl_ms=LONG, log_keep=8)
    kept = [(v, b"e%d" % v) for v in range(23, 31)]
    assert await s.log_since("T1", -1) == kept, "only the latest 8 entries, with their own versions"
    assert await s.log_since("T1", 25) == kept[3:]
    assert await s.log_since("T1", 10, limit=3) == kept[:3], "a read from before the head starts at it"
    assert await s.load("T1") == (30, b"r30")
    assert await s.commit("T1", 30, b"r31", b"e31", ttl_ms=LONG, log_keep=8)
    assert await s.log_since("T1", 29) == [(30, b"e30"), (31, b"e31")]


async def test_changes_only_for_subscribed_tables_in_order(env: Env) -> None:
    s = env.store
    for t, code in [("A", code_for("A", "AAAA")), ("B", code_for("B", "BBBB")), ("C", code_for("C", "CCCC"))]:
        await make(s, t, code)
    await s.subscribe("A")
    await s.subscribe("A")  # idempotent: still one Change per commit
    changes = s.changes()
    assert await s.commit("A", 0, b"a1", b"ea1", ttl_ms=LONG)
    assert await s.commit("B", 0, b"b1", b"eb1", ttl_ms=LONG)
    assert await s.commit("A", 1, b"a2", b"ea2", ttl_ms=LONG)
    assert await next_change(changes) == Change("A", 1, b"a1", b"ea1")
    assert await next_change(changes) == Change("A", 2, b"a2", b"ea2")
    await s.unsubscribe("A")
    await s.unsubscribe("A")  # idempotent
    await s.subscribe("C")
    assert await s.commit("A", 2, b"a3", b"ea3", ttl_ms=LONG)
    assert await s.commit("C", 0, b"c1", b"ec1", ttl_ms=LONG)
    # A's third commit was not delivered: the next change is C's
    assert await next_change(changes) == Change("C", 1, b"c1", b"ec1")


async def test_changes_reach_other_clients(env: Env) -> None:
    """A commit through one client reaches the subscriber of another (another process)."""
    writer, reader = env.store, env.other()
    await make(writer)
    await reader.subscribe("T1")
    changes = reader.changes()
    for v in range(1, 4):
        assert await writer.commit("T1", v - 1, b"r%d" % v, b"e%d" % v, ttl_ms=LONG)
    assert [await next_change(changes) for _ in range(3)] == [
        Change("T1", v, b"r%d" % v, b"e%d" % v) for v in range(1, 4)
    ]


async def test_notes_reach_subscribers_in_order_with_changes_and_keep_what_is_asked(env: Env) -> None:
    """Talk at the table: a note is sent to the table's subscribers (another client's too),
    in order with its commits, without a version; the kept ones stay bounded."""
    writer, reader = env.store, env.other()
    await make(writer)
    await make(writer, "T2", CODE22)
    await reader.subscribe("T1")
    changes = reader.changes()
    assert await writer.publish("T1", b"hello", keep=2)
    assert await writer.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
    assert await writer.publish("T1", b"signal")  # sent, not kept
    assert await writer.publish("T1", b"line2", keep=2)
    assert await writer.publish("T1", b"line3", keep=2)
    assert await writer.publish("T2", b"elsewhere", keep=2)  # T2: not subscribed
    got = [await next_change(changes) for _ in range(5)]  # type: ignore[arg-type]
    assert got == [
        Note("T1", b"hello"), Change("T1", 1, b"r1", b"e1"), Note("T1", b"signal"),
        Note("T1", b"line2"), Note("T1", b"line3"),
    ]  # fmt: skip
    assert await reader.notes("T1") == [b"line2", b"line3"]  # the latest 2
    assert await reader.notes("T2") == [b"elsewhere"]
    assert await reader.notes("nope") == []
    assert not await writer.publish("nope", b"x", keep=5), "a note for no table"
    assert await reader.notes("nope") == []


async def test_presence_is_set_and_removed_by_field(env: Env) -> None:
    s = env.store
    await make(s)
    assert await s.presence("T1") == {}
    assert await s.publish("T1", b"n1", presence=("p1:c1", b"in"))
    assert await s.publish("T1", b"n2", presence=("p2:c9", b"in too"))
    assert await s.publish("T1", b"n3", presence=("p1:c1", b"muted mic"))
    assert await env.other().presence("T1") == {"p1:c1": b"muted mic", "p2:c9": b"in too"}
    assert await s.publish("T1", b"n4", presence=("p1:c1", None))
    assert await s.presence("T1") == {"p2:c9": b"in too"}
    assert not await s.publish("T9", b"x", presence=("p1:c1", b"in"))
    assert await s.presence("T9") == {}


async def test_notes_and_presence_expire_with_the_table(env: Env) -> None:
    s = env.store
    # Real time on Redis: a time to live long enough that a loaded machine's pauses between the
    # calls do not reach it (at 300 ms a run at load 20 read the notes gone), checked half way.
    await make(s, ttl_ms=2000)
    assert await s.publish("T1", b"line", keep=5, presence=("p:c", b"in"))
    assert await s.commit("T1", 0, b"r1", b"e1", ttl_ms=2000)  # refreshes the table and its talk alike
    await env.elapse(1000)
    assert await s.notes("T1") == [b"line"] and await s.presence("T1") == {"p:c": b"in"}
    await env.elapse(1500)
    assert await s.load("T1") is None
    assert await s.notes("T1") == [] and await s.presence("T1") == {}


async def test_changes_end_on_aclose(env: Env) -> None:
    s = env.store
    await make(s)
    await s.subscribe("T1")
    changes = s.changes()
    pending = asyncio.ensure_future(anext(changes))
    await asyncio.sleep(0.01)
    await s.aclose()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(pending, timeout=10)


async def test_concurrent_commits_exactly_one_wins(env: Env) -> None:
    s = env.store
    await make(s)
    results = await asyncio.gather(*(s.commit("T1", 0, b"r-%d" % i, b"e-%d" % i, ttl_ms=LONG) for i in range(4)))
    assert sorted(results) == [False, False, False, True]
    winner = results.index(True)
    assert await s.load("T1") == (1, b"r-%d" % winner)
    assert await s.log_since("T1", 0) == [(1, b"e-%d" % winner)]


async def test_concurrent_commits_from_two_clients(env: Env) -> None:
    a, b = env.store, env.other()
    await make(a)
    for round_ in range(5):
        results = await asyncio.gather(
            a.commit("T1", round_, b"a%d" % round_, b"ea", ttl_ms=LONG),
            b.commit("T1", round_, b"b%d" % round_, b"eb", ttl_ms=LONG),
        )
        assert results.count(True) == 1, results
        version, record = await b.load("T1") or (None, None)
        assert version == round_ + 1
        assert record == (b"a%d" % round_ if results[0] else b"b%d" % round_)
    assert len(await a.log_since("T1", -1)) == 6


# -- due actions ----------------------------------------------------------------------------


async def test_due_claim_lease_finish(env: Env) -> None:
    s = env.store
    await make(s)
    assert await s.next_due_ms() is None
    assert await s.claim_due(T0 + 10**9, 100, 10) == []
    assert await s.commit("T1", 0, b"r1", b"e1", schedule=[Due("T1", "k1", T0 + 1000)], ttl_ms=LONG)
    assert await s.next_due_ms() == T0 + 1000
    assert await s.claim_due(T0 + 999, 500, 10) == []  # not yet due
    assert await s.claim_due(T0 + 1000, 500, 10) == [Due("T1", "k1", T0 + 1000)]
    # leased until T0 + 1500: nobody else gets it before, and next_due_ms says when it comes back
    assert await env.other().claim_due(T0 + 1000, 500, 10) == []
    assert await s.claim_due(T0 + 1499, 500, 10) == []
    assert await s.next_due_ms() == T0 + 1500
    # the claimer died: after the lease the item is due again, for anyone
    assert await env.other().claim_due(T0 + 1500, 500, 10) == [Due("T1", "k1", T0 + 1500)]
    await s.finish_due("k1")
    await s.finish_due("k1")  # idempotent
    assert await s.claim_due(T0 + 10**9, 500, 10) == []
    assert await s.next_due_ms() is None


async def test_poll_due_claims_and_tells_the_next(env: Env) -> None:
    s = env.store
    await make(s)
    await make(s, "T2", CODE22)
    assert await s.poll_due(T0, 100, 10) == ([], None)
    sched = [Due("T1", "a", T0 + 100), Due("T1", "b", T0 + 200), Due("T2", "c", T0 + 900)]
    assert await s.commit("T1", 0, b"r1", b"e1", schedule=sched, ttl_ms=LONG)
    assert await s.poll_due(T0 + 50, 1000, 10) == ([], T0 + 100)  # nothing due yet: when the first is
    # claims as claim_due does (earliest first, at most `limit`), then names the earliest left
    assert await s.poll_due(T0 + 250, 1000, 1) == ([Due("T1", "a", T0 + 100)], T0 + 200)
    assert await s.poll_due(T0 + 250, 1000, 10) == ([Due("T1", "b", T0 + 200)], T0 + 900)
    # the ones claimed count again at their lease's end, when that comes first
    assert await s.poll_due(T0 + 900, 10, 10) == ([Due("T2", "c", T0 + 900)], T0 + 910)
    for key in ("a", "b", "c"):
        await s.finish_due(key)
    assert await s.poll_due(T0 + 10**9, 100, 10) == ([], None)


async def test_due_order_limit_reschedule_cancel(env: Env) -> None:
    s = env.store
    await make(s)
    await make(s, "T2", CODE22)
    sched = [Due("T1", "a", T0 + 300), Due("T2", "b", T0 + 100), Due("T1", "c", T0 + 200), Due("T1", "d", T0 + 100)]
    assert await s.commit("T1", 0, b"r1", b"e1", schedule=sched, ttl_ms=LONG)
    # earliest first, ties by key, at most `limit`
    assert await s.claim_due(T0 + 1000, 10_000, 2) == [Due("T2", "b", T0 + 100), Due("T1", "d", T0 + 100)]
    # re-scheduling a key moves it; cancel removes one
    assert await s.commit("T1", 1, b"r2", b"e2", schedule=[Due("T1", "a", T0 + 5000)], cancel=["c"], ttl_ms=LONG)
    assert await s.claim_due(T0 + 1000, 10_000, 10) == []
    assert await s.next_due_ms() == T0 + 5000
    assert await s.claim_due(T0 + 5000, 10_000, 10) == [Due("T1", "a", T0 + 5000)]
    # cancel and schedule of the same key in one commit: it ends scheduled
    assert await s.commit("T1", 2, b"r3", b"e3", schedule=[Due("T1", "x", T0 + 7)], cancel=["x"], ttl_ms=LONG)
    assert await s.claim_due(T0 + 7, 10, 10) == [Due("T1", "x", T0 + 7)]


async def test_shift_due(env: Env) -> None:
    s = env.store
    await make(s)
    assert await s.shift_due(1000) == 0
    sched = [Due("T1", "a", T0 + 100), Due("T1", "b", T0 + 200)]
    assert await s.commit("T1", 0, b"r1", b"e1", schedule=sched, ttl_ms=LONG)
    assert await s.shift_due(60_000) == 2
    assert await s.next_due_ms() == T0 + 60_100
    assert await s.claim_due(T0 + 60_099, 10, 10) == []
    assert await s.claim_due(T0 + 60_200, 10, 10) == [Due("T1", "a", T0 + 60_100), Due("T1", "b", T0 + 60_200)]


async def test_due_counts(env: Env) -> None:
    """(waiting, overdue): every stored due action, and those claim_due could take at now_ms."""
    s = env.store
    await make(s)
    await make(s, "T2", CODE22)
    assert await s.due_counts(T0) == (0, 0)
    assert await s.commit("T1", 0, b"r1", b"e1", schedule=[Due("T1", "a", T0 + 100), Due("T1", "b", T0 + 200)],
                          ttl_ms=LONG)
    assert await s.commit("T2", 0, b"r1", b"e1", schedule=[Due("T2", "c", T0 + 300)], ttl_ms=LONG)
    assert await s.due_counts(T0) == (3, 0)
    assert await s.due_counts(T0 + 100) == (3, 1)  # due at now counts as overdue
    assert await s.due_counts(T0 + 250) == (3, 2)
    # a claimed item is leased: still waiting, no longer overdue until its lease runs out
    assert await s.claim_due(T0 + 250, 1000, 1) == [Due("T1", "a", T0 + 100)]
    assert await env.other().due_counts(T0 + 250) == (3, 1)
    assert await s.due_counts(T0 + 1250) == (3, 3)
    # finished and cancelled ones are gone
    await s.finish_due("a")
    assert await s.commit("T2", 1, b"r2", b"e2", cancel=["c"], ttl_ms=LONG)
    assert await s.due_counts(T0 + 10**9) == (1, 1)


async def test_due_across_tables(env: Env) -> None:
    """Due actions scheduled by six tables in six buckets (six due sets, on every master of a
    cluster): claiming, counting, shifting and finishing see them all as one set."""
    s, other = env.store, env.other()
    tables = ["T1", "T2", "T3", "A", "B", "C"]
    for i, t in enumerate(tables):
        await make(s, t, code_for(t, f"DUE{i}"))
        sched = [Due(t, f"{t}|bot|{i}", T0 + 10 * i), Due(t, f"{t}|turn|{i}", T0 + 100 - 10 * i)]
        assert await s.commit(t, 0, b"r1", b"e1", schedule=sched, ttl_ms=LONG)
    assert await s.next_due_ms() == T0
    assert await s.due_counts(T0 + 55) == (12, 7)
    # the earliest over all tables, ties by key, at most `limit`, whoever asks
    assert await s.claim_due(T0 + 55, 1000, 4) == [
        Due("T1", "T1|bot|0", T0), Due("T2", "T2|bot|1", T0 + 10), Due("T3", "T3|bot|2", T0 + 20),
        Due("A", "A|bot|3", T0 + 30),
    ]
    assert await other.claim_due(T0 + 55, 1000, 10) == [
        Due("B", "B|bot|4", T0 + 40), Due("C", "C|bot|5", T0 + 50), Due("C", "C|turn|5", T0 + 50),
    ]
    assert await s.claim_due(T0 + 55, 1000, 10) == []
    assert await s.due_counts(T0 + 55) == (12, 0)
    assert await s.next_due_ms() == T0 + 60
    for i, t in enumerate(tables):
        await other.finish_due(f"{t}|bot|{i}")
    await s.finish_due("C|turn|5")
    await s.finish_due("C|turn|5")  # again: idempotent
    await s.finish_due("no-such-key")
    assert await s.due_counts(T0 + 10**9) == (5, 5)
    assert await s.shift_due(1000) == 5
    assert await s.claim_due(T0 + 10**9, 10, 10) == [
        Due("B", "B|turn|4", T0 + 1060), Due("A", "A|turn|3", T0 + 1070), Due("T3", "T3|turn|2", T0 + 1080),
        Due("T2", "T2|turn|1", T0 + 1090), Due("T1", "T1|turn|0", T0 + 1100),
    ]


async def test_concurrent_claims_take_each_once(env: Env) -> None:
    """Two processes claiming at once, again and again: every due action is claimed exactly once."""
    a, b = env.store, env.other()
    tables = ["T1", "T2", "T3", "A", "B", "C"]
    expected = set()
    for i, t in enumerate(tables):
        await make(a, t, code_for(t, f"CLM{i}"))
        sched = [Due(t, f"{t}|k|{j}", T0 + j) for j in range(5)]
        assert await a.commit(t, 0, b"r1", b"e1", schedule=sched, ttl_ms=LONG)
        expected |= {d.key for d in sched}
    claimed: list[str] = []
    for _ in range(20):
        rounds = await asyncio.gather(*(c.claim_due(T0 + 10, 60_000, 3) for c in (a, b, a, b)))
        for got in rounds:
            assert len(got) <= 3
            claimed += [d.key for d in got]
        if len(claimed) == len(expected):
            break
    assert sorted(claimed) == sorted(expected)  # all of them, none twice


async def test_due_of_an_expired_table_is_still_claimable(env: Env) -> None:
    """Claim must not break on due actions whose table is gone: the server drops them."""
    s = env.store
    await make(s, ttl_ms=LONG)
    assert await s.commit("T1", 0, b"r1", b"e1", schedule=[Due("T1", "k", T0)], ttl_ms=30)
    await env.elapse(60)
    assert await s.load("T1") is None
    assert await s.claim_due(T0, 100, 10) == [Due("T1", "k", T0)]
    await s.finish_due("k")
    assert await s.next_due_ms() is None


# -- expiry ---------------------------------------------------------------------------------


async def test_table_expiry(env: Env) -> None:
    s = env.store
    await make(s, "T1", CODE11, ttl_ms=LONG)
    # a commit sets the expiry (here shortens it, as for a finished table)
    assert await s.commit("T1", 0, b"r1", b"e1", ttl_ms=30)
    await make(s, "T2", CODE22, ttl_ms=30)
    await make(s, "T3", CODE33, ttl_ms=LONG)
    await env.elapse(60)
    for t, code in [("T1", CODE11), ("T2", CODE22)]:
        assert await s.load(t) is None
        assert await s.lookup(code) is None
        assert await s.log_since(t, -1) == []
        assert not await s.commit(t, 1, b"r", b"e", ttl_ms=LONG)
    assert await s.load("T3") == (0, b"rec0:T3")
    # an expired table's id and code are free again, the code for another table too
    assert await s.create("T1", CODE11, b"again", b"e", ttl_ms=LONG)
    assert await s.load("T1") == (0, b"again")
    assert await s.log_since("T1", -1) == [(0, b"e")]
    assert await s.create(table_for("T4", CODE22), CODE22, b"T4", b"e", ttl_ms=LONG)
    assert await s.lookup(CODE22) == table_for("T4", CODE22)


async def test_commit_refreshes_expiry(env: Env) -> None:
    s = env.store
    await make(s, "T1", CODE11, ttl_ms=400)
    assert await s.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)
    await env.elapse(500)
    assert await s.load("T1") == (1, b"r1")
    assert await s.lookup(CODE11) == "T1"
    assert await s.log_since("T1", -1) == [(0, b"entry0"), (1, b"e1")]


# -- processes and rate limits --------------------------------------------------------------


async def test_heartbeat_and_alive(env: Env) -> None:
    s = env.store
    assert await s.alive([]) == []
    assert await s.heartbeat("p1", T0, LONG) is None  # first ever: no previous time
    assert await s.heartbeat("p2", T0 + 10, LONG) == T0
    assert await s.heartbeat("p2", T0 + 5, LONG) == T0 + 10  # going back leaves it
    assert await env.other().heartbeat("p2", T0 + 20, LONG) == T0 + 10
    assert await s.heartbeat("short", T0 + 20, 30) == T0 + 20
    assert await s.alive(["p1", "p2", "ghost"]) == [True, True, False]
    await env.elapse(60)
    assert await s.alive(["p1", "short", "p2"]) == [True, False, True]


async def test_hit_windows(env: Env) -> None:
    s = env.store
    assert [await s.hit("join:1.2.3.4", LONG) for _ in range(3)] == [1, 2, 3]
    assert await env.other().hit("join:1.2.3.4", LONG) == 4  # shared by processes
    assert await s.hit("join:5.6.7.8", LONG) == 1
    assert await s.hit("short", 30) == 1
    await env.elapse(60)
    assert await s.hit("short", 30) == 1  # a new window
    assert await s.hit("join:1.2.3.4", LONG) == 5
