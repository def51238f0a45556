"""MemoryStore: the embedded, in-process Store (one server process, nothing survives it).

It keeps the :class:`~meja.store.base.Store` contract with the same semantics as
:class:`~meja.store.redis.RedisStore`, so ``meja serve`` runs without Redis and
the server's tests run fast; one contract test suite checks both. Modelled on
broadcaster's in-memory backend (``broadcaster/backends/memory.py``): plain
dicts and an :class:`asyncio.Queue`, no I/O.

Semantics shared with Redis, and how they are kept here:

- **Atomicity.** Every operation runs to completion without awaiting in the
  middle (one ``await asyncio.sleep(0)`` at the start lets other tasks interleave
  *between* operations, as they would with a network store), so a commit's
  check-and-write is atomic as a Redis script is.
- **Expiry.** Tables (record, log, room code) expire ``ttl_ms`` after their last
  create or commit, on the store's clock. The clock is injectable
  (``MemoryStore(clock=...)``, milliseconds) so tests can move time on. Every
  access checks the table's own expiry time, so expiry is exact; memory is
  reclaimed by a heap of expiry times swept at the start of each operation (one
  entry per table, re-pushed when a commit moved the expiry on), O(log n) each.
- **Due actions** are not removed when their table expires (Redis cannot expire
  members of the shared due set either): ``claim_due`` may return one whose table
  is gone, and the server finishes it. They live in a heap of
  ``(due_ms, key)`` with lazy deletion, so claiming is O(k log n).
- **Heartbeats and hit windows** run on the store's clock too.
- **changes()** yields each commit to subscribed tables in commit order from a
  queue. Nothing is ever missed in-process, so no resync ``Change`` is produced
  on its own; :meth:`MemoryStore.resync` emits them on demand, as RedisStore does
  after a reconnect, so the server's resync path can be tested without Redis.

What it does not do: share anything between processes, or keep anything across
a restart. Use RedisStore (``redis://...``) for that.
"""

from __future__ import annotations

import asyncio
import heapq
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType

from meja.store.base import Change, Due, Note

__all__ = ["MemoryStore", "wall_clock_ms"]


def wall_clock_ms() -> int:
    """Milliseconds since the Unix epoch: the default clock of MemoryStore."""
    return time.time_ns() // 1_000_000


@dataclass(slots=True)
class _Table:
    code: str
    version: int
    record: bytes
    expires_ms: int
    #: Log entries by version: ``log[v - log_base]`` is the entry of version ``v``.
    log: list[bytes] = field(default_factory=list)
    #: the version of ``log[0]`` (older entries were trimmed)
    log_base: int = 0
    #: the kept notes (Store.publish with ``keep``), oldest first, and the presence map
    notes: list[bytes] = field(default_factory=list)
    presence: dict[str, bytes] = field(default_factory=dict)


class _Closed:
    """The end-of-stream marker put on the changes queue by aclose()."""


_CLOSED = _Closed()


class MemoryStore:
    """The Store contract in process memory. See the module docstring.

    ``clock`` returns the current time in milliseconds (default: wall clock); it
    drives table expiry, heartbeat expiry and hit windows. Due times are the
    caller's ``now_ms`` values, as with Redis.
    """

    def __init__(self, *, clock: Callable[[], int] = wall_clock_ms) -> None:
        #: (Store.on_error: this store meets no error of its own)
        self.on_error: Callable[[BaseException], object] | None = None
        self._clock = clock
        self._tables: dict[str, _Table] = {}
        self._codes: dict[str, str] = {}
        #: (expires_ms, table_id): one entry per live table; may be early, never late.
        self._expiry: list[tuple[int, str]] = []
        #: key -> (table_id, due_ms); the truth about due actions.
        self._due: dict[str, tuple[str, int]] = {}
        #: (due_ms, key) heap; an entry is stale when _due says otherwise.
        self._due_heap: list[tuple[int, str]] = []
        self._procs: dict[str, int] = {}
        self._last_alive: int | None = None
        self._hits: dict[str, tuple[int, int]] = {}
        #: archive id -> (record, expires_ms)
        self._archive: dict[str, tuple[bytes, int]] = {}
        #: deal short code -> (entries newest first, expires_ms)
        self._deals: dict[str, tuple[list[bytes], int]] = {}
        self._subscribed: set[str] = set()
        self._queue: asyncio.Queue[Change | Note | _Closed] = asyncio.Queue()
        self._closed = False
        self._ops = 0

    async def __aenter__(self) -> MemoryStore:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # -- tables ---------------------------------------------------------------------------

    async def create(self, table_id: str, code: str, record: bytes, entry: bytes, *, ttl_ms: int) -> bool:
        """See :meth:`meja.store.base.Store.create`."""
        await self._enter()
        if self._get(table_id) is not None or self._lookup(code) is not None:
            return False
        expires = self._clock() + ttl_ms
        self._tables[table_id] = _Table(code, 0, record, expires, [entry])
        self._codes[code] = table_id
        heapq.heappush(self._expiry, (expires, table_id))
        return True

    async def load(self, table_id: str) -> tuple[int, bytes] | None:
        """See :meth:`meja.store.base.Store.load`."""
        await self._enter()
        table = self._get(table_id)
        return None if table is None else (table.version, table.record)

    async def lookup(self, code: str) -> str | None:
        """See :meth:`meja.store.base.Store.lookup`."""
        await self._enter()
        return self._lookup(code)

    async def commit(
        self,
        table_id: str,
        expected: int,
        record: bytes,
        entry: bytes,
        *,
        schedule: Sequence[Due] = (),
        cancel: Sequence[str] = (),
        ttl_ms: int,
        log_keep: int = 0,
    ) -> bool:
        """See :meth:`meja.store.base.Store.commit`.

        A missing (or expired) table fails the check like a wrong version does.
        ``cancel`` is applied before ``schedule``, so a key in both ends scheduled.
        """
        await self._enter()
        table = self._get(table_id)
        if table is None or table.version != expected:
            return False
        table.version = expected + 1
        table.record = record
        table.log.append(entry)
        if log_keep > 0 and len(table.log) > log_keep:
            drop = len(table.log) - log_keep
            del table.log[:drop]
            table.log_base += drop
        # The heap keeps its older entry: _purge re-pushes it when it pops early.
        table.expires_ms = self._clock() + ttl_ms
        for key in cancel:
            self._due.pop(key, None)
        for due in schedule:
            self._put_due(due.key, due.table_id, due.due_ms)
        if table_id in self._subscribed:
            self._queue.put_nowait(Change(table_id, table.version, record, entry))
        return True

    async def log_since(self, table_id: str, after: int, limit: int | None = None) -> list[tuple[int, bytes]]:
        """See :meth:`meja.store.base.Store.log_since`."""
        await self._enter()
        table = self._get(table_id)
        if table is None:
            return []
        base = table.log_base
        start = max(after + 1, base)
        stop = base + len(table.log) if limit is None else min(base + len(table.log), start + max(limit, 0))
        return [(v, table.log[v - base]) for v in range(start, stop)]

    # -- changes --------------------------------------------------------------------------

    async def changes(self) -> AsyncIterator[Change | Note]:
        """See :meth:`meja.store.base.Store.changes`. Ends when the store is closed."""
        while True:
            item = await self._queue.get()
            if isinstance(item, _Closed):
                # Leave the marker for any later call, so it ends too.
                self._queue.put_nowait(item)
                return
            yield item

    async def publish(
        self,
        table_id: str,
        note: bytes,
        *,
        keep: int = 0,
        presence: tuple[str, bytes | None] | None = None,
    ) -> bool:
        """See :meth:`meja.store.base.Store.publish`."""
        await self._enter()
        table = self._get(table_id)
        if table is None:
            return False
        if presence is not None:
            name, value = presence
            if value is None:
                table.presence.pop(name, None)
            else:
                table.presence[name] = value
        if keep > 0:
            table.notes.append(note)
            del table.notes[: max(0, len(table.notes) - keep)]
        if table_id in self._subscribed:
            self._queue.put_nowait(Note(table_id, note))
        return True

    async def notes(self, table_id: str) -> list[bytes]:
        """See :meth:`meja.store.base.Store.notes`."""
        await self._enter()
        table = self._get(table_id)
        return [] if table is None else list(table.notes)

    async def presence(self, table_id: str) -> dict[str, bytes]:
        """See :meth:`meja.store.base.Store.presence`."""
        await self._enter()
        table = self._get(table_id)
        return {} if table is None else dict(table.presence)

    async def subscribe(self, table_id: str) -> None:
        """See :meth:`meja.store.base.Store.subscribe`."""
        await self._enter()
        self._subscribed.add(table_id)

    async def unsubscribe(self, table_id: str) -> None:
        """See :meth:`meja.store.base.Store.unsubscribe`."""
        await self._enter()
        self._subscribed.discard(table_id)

    async def resync(self) -> int:
        """Emit a resync :class:`Change` for every subscribed table that exists, as
        RedisStore does after reconnecting; returns how many. For testing the
        server's resync path: an in-process store never misses a change itself."""
        await self._enter()
        count = 0
        for table_id in sorted(self._subscribed):
            table = self._get(table_id)
            if table is not None:
                change = Change(table_id, table.version, table.record, table.log[-1], resync=True)
                self._queue.put_nowait(change)
                count += 1
        return count

    # -- due actions ----------------------------------------------------------------------

    async def claim_due(self, now_ms: int, lease_ms: int, limit: int) -> list[Due]:
        """See :meth:`meja.store.base.Store.claim_due`."""
        await self._enter()
        claimed: list[Due] = []
        while len(claimed) < limit and self._due_heap:
            due_ms, key = self._due_heap[0]
            current = self._due.get(key)
            if current is None or current[1] != due_ms:
                heapq.heappop(self._due_heap)  # stale: finished or moved
                continue
            if due_ms > now_ms:
                break
            heapq.heappop(self._due_heap)
            claimed.append(Due(current[0], key, due_ms))
        # Lease after the loop, so an item leased to now + 0 is not taken twice.
        for due in claimed:
            self._put_due(due.key, due.table_id, now_ms + lease_ms)
        return claimed

    async def poll_due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[list[Due], int | None]:
        """See :meth:`meja.store.base.Store.poll_due`."""
        claimed = await self.claim_due(now_ms, lease_ms, limit)
        return claimed, await self.next_due_ms()

    async def finish_due(self, key: str) -> None:
        """See :meth:`meja.store.base.Store.finish_due`."""
        await self._enter()
        self._due.pop(key, None)

    async def next_due_ms(self) -> int | None:
        """See :meth:`meja.store.base.Store.next_due_ms`."""
        await self._enter()
        while self._due_heap:
            due_ms, key = self._due_heap[0]
            current = self._due.get(key)
            if current is not None and current[1] == due_ms:
                return due_ms
            heapq.heappop(self._due_heap)
        return None

    async def shift_due(self, delta_ms: int) -> int:
        """See :meth:`meja.store.base.Store.shift_due`."""
        await self._enter()
        self._due = {k: (t, d + delta_ms) for k, (t, d) in self._due.items()}
        self._due_heap = [(d, k) for k, (_, d) in self._due.items()]
        heapq.heapify(self._due_heap)
        return len(self._due)

    async def due_counts(self, now_ms: int) -> tuple[int, int]:
        """See :meth:`meja.store.base.Store.due_counts`. O(n) in due actions (a dict scan):
        fine at scrape intervals for the embedded store's single process of tables."""
        await self._enter()
        return len(self._due), sum(1 for _, due_ms in self._due.values() if due_ms <= now_ms)

    def _put_due(self, key: str, table_id: str, due_ms: int) -> None:
        self._due[key] = (table_id, due_ms)
        heapq.heappush(self._due_heap, (due_ms, key))

    # -- processes and rate limits --------------------------------------------------------

    async def heartbeat(self, process_id: str, now_ms: int, ttl_ms: int) -> int | None:
        """See :meth:`meja.store.base.Store.heartbeat`."""
        await self._enter()
        self._procs[process_id] = self._clock() + ttl_ms
        previous = self._last_alive
        if previous is None or now_ms > previous:
            self._last_alive = now_ms
        return previous

    async def archive(self, archive_id: str, record: bytes, *, ttl_ms: int) -> bool:
        """See :meth:`meja.store.base.Store.archive`."""
        await self._enter()
        if self._archived(archive_id) is not None:
            return False
        self._archive[archive_id] = (record, self._clock() + ttl_ms)
        return True

    async def archived(self, archive_id: str) -> bytes | None:
        """See :meth:`meja.store.base.Store.archived`."""
        await self._enter()
        return self._archived(archive_id)

    async def deal_record(self, code: str, play: bytes, *, keep: int, ttl_ms: int) -> None:
        """See :meth:`meja.store.base.Store.deal_record`."""
        await self._enter()
        plays = [play, *self._deal_plays(code)][: max(keep, 0)]
        self._deals[code] = (plays, self._clock() + ttl_ms)

    async def deal_plays(self, code: str) -> list[bytes]:
        """See :meth:`meja.store.base.Store.deal_plays`."""
        await self._enter()
        return list(self._deal_plays(code))

    def _deal_plays(self, code: str) -> list[bytes]:
        kept = self._deals.get(code)
        if kept is None:
            return []
        if kept[1] <= self._clock():
            del self._deals[code]
            return []
        return kept[0]

    def _archived(self, archive_id: str) -> bytes | None:
        kept = self._archive.get(archive_id)
        if kept is None:
            return None
        if kept[1] <= self._clock():
            del self._archive[archive_id]
            return None
        return kept[0]

    async def memory(self) -> tuple[int, int] | None:
        """No limit: the process's own memory is the operator's to watch."""
        return None

    async def alive(self, process_ids: Sequence[str]) -> list[bool]:
        """See :meth:`meja.store.base.Store.alive`."""
        await self._enter()
        now = self._clock()
        return [self._procs.get(p, now) > now for p in process_ids]

    async def hit(self, key: str, window_ms: int) -> int:
        """See :meth:`meja.store.base.Store.hit`. The window starts at the key's first hit."""
        await self._enter()
        now = self._clock()
        count, ends = self._hits.get(key, (0, now))
        if ends <= now:
            count, ends = 0, now + window_ms
        count += 1
        self._hits[key] = (count, ends)
        return count

    # -- lifecycle ------------------------------------------------------------------------

    async def aclose(self) -> None:
        """See :meth:`meja.store.base.Store.aclose`: ends :meth:`changes`. Idempotent."""
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(_CLOSED)

    async def _enter(self) -> None:
        """Yield to other tasks, then drop what has expired: the prologue of every operation."""
        await asyncio.sleep(0)
        self._purge()

    def _get(self, table_id: str) -> _Table | None:
        """The live table ``table_id``, or ``None``; drops it if it has just expired."""
        table = self._tables.get(table_id)
        if table is not None and table.expires_ms <= self._clock():
            self._drop(table_id, table)
            return None
        return table

    def _lookup(self, code: str) -> str | None:
        table_id = self._codes.get(code)
        if table_id is not None and self._get(table_id) is None:
            return None
        return table_id

    def _drop(self, table_id: str, table: _Table) -> None:
        del self._tables[table_id]
        if self._codes.get(table.code) == table_id:
            del self._codes[table.code]

    def _purge(self) -> None:
        now = self._clock()
        while self._expiry and self._expiry[0][0] <= now:
            _, table_id = heapq.heappop(self._expiry)
            table = self._tables.get(table_id)
            if table is None:
                continue
            if table.expires_ms > now:
                heapq.heappush(self._expiry, (table.expires_ms, table_id))
            else:
                self._drop(table_id, table)
        # Hit counters and heartbeats are tiny: sweep them once every 1024 operations.
        self._ops += 1
        if self._ops % 1024 == 0:
            self._hits = {k: v for k, v in self._hits.items() if v[1] > now}
            self._procs = {k: v for k, v in self._procs.items() if v > now}
            self._archive = {k: v for k, v in self._archive.items() if v[1] > now}
            self._deals = {k: v for k, v in self._deals.items() if v[1] > now}
