"""The Store contract: what the table server needs from its storage, and nothing more.

Two implementations keep it: :mod:`meja.store.redis` (tables live in Redis,
shared by any number of server processes) and :mod:`meja.store.memory` (one
process, nothing survives a restart). One contract test suite runs on both,
the Redis run against a real ``redis-server``.

The store knows *records*, not games or sockets: a table is an opaque
``bytes`` record (msgpack, written by the server) with a version number, plus
an append-only log of opaque ``bytes`` entries, one per version. That keeps the
store small enough to have two faithful implementations, and keeps every game
rule out of Lua.

Operations
----------
- **create** a table with its room code (the code is unique among live tables).
- **load** a table's ``(version, record)``; **lookup** a room code.
- **commit**: compare-and-set on the version. If the stored version is
  ``expected``, then atomically: store the record as version ``expected + 1``,
  append the log entry for that version, publish the change, apply the due-action
  changes, and refresh the table's expiry. Otherwise nothing changes and it
  returns ``False``. On Redis this is one script call: one round trip. The log
  keeps the latest ``log_keep`` entries (older ones are dropped in the same
  commit): the record holds the whole state, so the log is for catching up, and
  a table's storage stays bounded however long it lives.
- **log_since**: the log entries after a version, in order, at most ``limit``
  of them (resume reads this); entries older than the log keeps are gone.
- **subscribe**: committed changes to the tables a process watches arrive as
  :class:`Change` values carrying the new version, record and log entry, so a
  process never reads back what it was just told.
- **due actions**: things that must happen later (a bot's move after its pause,
  a grace period, a turn limit) are stored with a due time. Any process may
  **claim** due actions: a claim sets a lease (the item's due time moves to
  ``now + lease``), so if the claiming process dies the item becomes due again
  and another process takes it. **finish** removes it. The action is then
  submitted through the same commit path as a human's, so a stale or duplicate
  one is dropped by the version check: at-least-once delivery, exactly-once effect.
  :meth:`Store.due_counts` tells operators how many are waiting and how many are overdue.
- **heartbeats**: each process says it is alive (a key with a time to live),
  which lets the others tell a dead process's seats from present players, and
  the store remembers when a server was last alive, so that time while no server
  ran can be given back to timers (:meth:`Store.shift_due`).
- **notes**: what people say at a table (chat lines, reactions, call signals and
  who is in the table's call) is not a change of the table: no version, no log
  entry. :meth:`Store.publish` sends a note to the processes subscribed to the
  table (on :meth:`Store.changes`, as a :class:`Note`, in order with its changes),
  keeps the last ``keep`` of them for late comers (:meth:`Store.notes`) and may
  set one entry of the table's small presence map (:meth:`Store.presence`). All
  of it expires with the table. Delivery is at most once: a note published while
  a subscriber's connection is down is not replayed to it (the kept ones are
  there to read again).
- **hit**: a counter in a time window, for rate limits shared by processes
  (join attempts by room code).
- **archive**: a finished match's record (opaque bytes the server writes once,
  :mod:`meja.server.archive`) under its own key, with its own expiry: it outlives the
  table. :meth:`Store.archive` writes it only if the id is free (a record never
  changes), :meth:`Store.archived` reads it.
- **deal board**: the results of the rounds played from one deal (opaque bytes, one
  per round, :mod:`meja.server.dealboard`) under the deal's short code, newest first,
  the newest ``keep`` of them, expiring ``ttl_ms`` after the last one
  (:meth:`Store.deal_record`, :meth:`Store.deal_plays`).
- **memory**: how much of its memory limit the store uses, so that the server can
  refuse new tables before the store refuses writes (a Redis at ``maxmemory``
  with ``noeviction`` refuses every commit and every timer claim).

Expiry: every commit sets the table's keys to expire after ``ttl_ms``; the server
passes a short TTL for finished tables and a long one for live ones, so abandoned
and finished tables disappear on their own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Change", "Due", "Note", "Store"]


@dataclass(frozen=True, slots=True)
class Due:
    """A due action: ``key`` names it uniquely (re-scheduling a key moves it), ``due_ms`` is when.

    The key is chosen by the server, e.g. ``"<table>|bot|2|117"`` (table, kind,
    seat, version at scheduling). ``table_id`` is kept separately so that stores
    can group and expire a table's due actions with it.
    """

    table_id: str
    key: str
    due_ms: int


@dataclass(frozen=True, slots=True)
class Change:
    """A committed change, as subscribers receive it.

    Normally one ``Change`` per commit: ``version`` is the new version, ``record``
    the record stored with it and ``entry`` that version's log entry, one version
    after the last ``Change`` of that table (or the first one after subscribing).

    ``resync=True`` marks a *resynchronisation*: the store lost its subscription
    for a while (the Redis connection dropped and came back) and may have missed
    commits. After reconnecting and resubscribing, it yields one resync ``Change``
    per table that was subscribed before the connection dropped and still exists,
    carrying the table's current version and record (read *after* resubscribing,
    so nothing after it can be missed) and the log entry of that version. Its
    version may equal the last one delivered (nothing was missed) or jump ahead:
    the consumer replaces its cached record and reads the entries in between with
    :meth:`Store.log_since`. It may even be lower, if Redis lost writes (restarted
    from an older snapshot): the resync ``Change`` is the truth either way. A
    subscribed table that no longer exists (it expired, or a Redis without
    persistence restarted) gets no resync ``Change``; :meth:`Store.load` says
    ``None`` for it. Only resync ``Change`` values skip versions.
    """

    table_id: str
    version: int
    record: bytes
    entry: bytes
    resync: bool = False


@dataclass(frozen=True, slots=True)
class Note:
    """A note published to a table's subscribers (:meth:`Store.publish`): opaque bytes, no version."""

    table_id: str
    data: bytes


class Store(Protocol):
    """The storage contract; see the module docstring. All methods are coroutines."""

    #: Told of each error the store meets on its own, outside any call (RedisStore's pub/sub
    #: listener losing its connection, which it then restores); the server counts them. Errors
    #: of a call reach its caller instead. ``None``: nobody is told.
    on_error: Callable[[BaseException], object] | None

    async def create(self, table_id: str, code: str, record: bytes, entry: bytes, *, ttl_ms: int) -> bool:
        """Create table ``table_id`` at version 0 with its first log entry and room ``code``.

        Returns ``False`` (and stores nothing) if the code or the id is already in use.
        A store may need the id in the code's bucket (:func:`meja.store.keys.bucket_of`;
        :func:`meja.server.rooms.new_table_id` makes such ids): RedisStore on a cluster
        raises ``ValueError`` for any other pair, as their keys would be in two slots.
        """
        ...

    async def load(self, table_id: str) -> tuple[int, bytes] | None:
        """The table's ``(version, record)``, or ``None`` if there is no such table (or it expired)."""
        ...

    async def lookup(self, code: str) -> str | None:
        """The id of the live table with room ``code`` (exact, already normalised), or ``None``."""
        ...

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
        """Compare-and-set: see the module docstring. ``True`` if committed as ``expected + 1``.

        ``log_keep`` > 0: afterwards the log holds at most that many entries (the latest).
        """
        ...

    async def log_since(self, table_id: str, after: int, limit: int | None = None) -> list[tuple[int, bytes]]:
        """Log entries with version > ``after`` that the log still keeps, oldest first, at most
        ``limit`` (``[]`` if none or no table)."""
        ...

    def changes(self) -> AsyncIterator[Change | Note]:
        """All changes (and notes) of subscribed tables, in commit order per table. One consumer per store."""
        ...

    async def publish(
        self,
        table_id: str,
        note: bytes,
        *,
        keep: int = 0,
        presence: tuple[str, bytes | None] | None = None,
    ) -> bool:
        """Send ``note`` to the table's subscribers, atomically with what it keeps.

        ``keep`` > 0: append it to the table's kept notes, which then hold at most the
        ``keep`` latest. ``presence``: set one field of the table's presence map to its value
        (``None``: remove the field) first. ``False`` (nothing kept, set or sent) if there
        is no such table. What is kept expires with the table (every commit refreshes it).
        """
        ...

    async def notes(self, table_id: str) -> list[bytes]:
        """The table's kept notes, oldest first (``[]``: none, or no table)."""
        ...

    async def presence(self, table_id: str) -> dict[str, bytes]:
        """The table's presence map (``{}``: empty, or no table)."""
        ...

    async def subscribe(self, table_id: str) -> None:
        """Start receiving changes of ``table_id`` on :meth:`changes` (idempotent)."""
        ...

    async def unsubscribe(self, table_id: str) -> None:
        """Stop receiving changes of ``table_id`` (idempotent)."""
        ...

    async def claim_due(self, now_ms: int, lease_ms: int, limit: int) -> list[Due]:
        """Atomically take up to ``limit`` items due at ``now_ms``, leasing each until ``now_ms + lease_ms``.

        Earliest first (ties by key). Each returned ``Due`` carries the due time it
        had when claimed. An item whose table has expired may still be returned:
        the caller finds no table on :meth:`load` and calls :meth:`finish_due`.
        """
        ...

    async def poll_due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[list[Due], int | None]:
        """:meth:`claim_due`, then when the earliest due action left (leased ones included, so the
        ones just claimed count at their lease's end) falls due, or ``None``: what a timer loop
        needs each time it looks. One round trip on one Redis.
        """
        ...

    async def finish_due(self, key: str) -> None:
        """Remove a due action (done, or no longer relevant)."""
        ...

    async def next_due_ms(self) -> int | None:
        """When the earliest due action (leased ones included) falls due, or ``None``."""
        ...

    async def shift_due(self, delta_ms: int) -> int:
        """Push every due action ``delta_ms`` later (time no server was running); returns how many."""
        ...

    async def due_counts(self, now_ms: int) -> tuple[int, int]:
        """How many due actions are stored, and how many of them are overdue: ``(waiting, overdue)``.

        ``waiting`` counts every stored due action, leased ones included (a lease
        only moves an item's due time on). ``overdue`` counts those whose due time is
        at or before ``now_ms``: due but not taken by any process yet, or taken and
        not finished within their lease (the claimer died or stalled), so exactly
        what :meth:`claim_due` at ``now_ms`` could take. A caller that wants "late
        by more than a grace period" passes ``now_ms - grace``. For operators'
        metrics, read at scrape time: on Redis one round trip (ZCARD and ZCOUNT, no
        scan); an item is counted whether or not its table still exists.
        """
        ...

    async def heartbeat(self, process_id: str, now_ms: int, ttl_ms: int) -> int | None:
        """Mark ``process_id`` alive for ``ttl_ms`` from now, and record ``now_ms`` as the
        last time any server was alive. Returns the previous "last alive" time (``None`` at first).

        The time to live runs on the store's clock (Redis's own for RedisStore), so
        processes with skewed clocks still agree on who is alive. "Last alive" never
        goes backwards: a ``now_ms`` older than the stored one leaves it unchanged.
        """
        ...

    async def archive(self, archive_id: str, record: bytes, *, ttl_ms: int) -> bool:
        """Keep ``record`` as archive ``archive_id`` for ``ttl_ms``; ``False`` (nothing changes) if that
        id is taken already: an archived record is never rewritten."""
        ...

    async def archived(self, archive_id: str) -> bytes | None:
        """The record archived as ``archive_id``, or ``None`` (never written, or expired)."""
        ...

    async def deal_record(self, code: str, play: bytes, *, keep: int, ttl_ms: int) -> None:
        """Add ``play`` (one round's results) to the front of deal ``code``'s board, keep its newest
        ``keep`` entries, and let the board expire ``ttl_ms`` from now."""
        ...

    async def deal_plays(self, code: str) -> list[bytes]:
        """The entries of deal ``code``'s board, newest first (none: never written, or expired)."""
        ...

    async def memory(self) -> tuple[int, int] | None:
        """``(used bytes, limit bytes)`` of the fullest node, or ``None`` where there is no limit."""
        ...

    async def alive(self, process_ids: Sequence[str]) -> list[bool]:
        """Whether each process's heartbeat is current."""
        ...

    async def hit(self, key: str, window_ms: int) -> int:
        """Count one event under ``key`` in a fixed window of ``window_ms``; returns the count so far."""
        ...

    async def aclose(self) -> None:
        """Release connections and stop :meth:`changes`."""
        ...
