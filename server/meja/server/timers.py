"""Timers and heartbeats: the due-action runner and this process's presence.

Due actions
-----------
Anything that must happen later (a bot's move after its pause, a turn limit, a
``ready`` timeout, a grace period, a dead-process check) is a due action kept
by the store with its table (:meth:`meja.store.base.Store.claim_due`). Every
process runs a :class:`DueRunner`: it claims what is due, with a lease
(``Settings.due_lease_s``), and hands each to
:meth:`meja.server.service.TableService.on_due`, then finishes it. A process
that dies holding a claim loses it when the lease runs out, and another process
takes it over; the version checks in ``on_due`` make a repeat harmless
(at-least-once delivery, exactly-once effect). A dead-process check that finds
the process alive is simply not finished: its lease makes it come back.

The runner sleeps until the earliest due time the store knows of plus
``due_slack_ms`` (so that timers falling due close together, bots' moves at many
tables, are claimed in one round trip: a timer runs up to that much late), at
most ``due_poll_s`` (timers set by other processes are seen within it), and is
woken early only when this process schedules something sooner than that.
A timer that commits removes its own due action in that commit (one round
trip); only one that commits nothing (it found itself moot) is finished with
:meth:`~meja.store.base.Store.finish_due`.

Each due action runs in its own task, which says who acts for the metrics
(:data:`meja.server.metrics.SOURCE`): ``bot`` for a bot's move, ``timer`` for
every other kind (a turn limit's or a ``ready`` timeout's move); and counts
its kind (``meja_timers_total``).

Heartbeats
----------
:class:`Heartbeat` marks the process alive every ``heartbeat_s`` for
``heartbeat_ttl_s``: the others tell a dead process's players (away) from
present ones by it. At start, the store says when any server was last alive;
if that is more than ``downtime_s`` ago, the whole gap is given back to every
timer (:meth:`meja.store.base.Store.shift_due`): time while no server was
running is not charged to anyone's turn or grace period.

Known limit: the shift moves the timers, not the records, so after an outage a
table's ``turn_deadline_ms`` (what clients count down to) shows the old, passed
time until the next decision; the turn itself still gets its full remaining time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from meja.store.base import Store

from .metrics import SOURCE, Metrics
from .service import TableService, wall_ms
from .settings import Settings
from .tables import TIMER_KINDS

__all__ = ["DueRunner", "Heartbeat"]

log = logging.getLogger("meja.server.timers")


class DueRunner:
    """Claims due actions and runs them; see the module docstring."""

    def __init__(
        self,
        store: Store,
        service: TableService,
        settings: Settings,
        clock: Callable[[], int] = wall_ms,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.metrics = metrics if metrics is not None else Metrics()
        self.service = service
        self.settings = settings
        self.clock = clock
        self._wake = asyncio.Event()
        #: when the loop, asleep, will look next (ms); None while it is looking
        self._planned_ms: int | None = None
        self._stopping = False
        self._running: set[asyncio.Task[None]] = set()
        #: told when a poll finds the store out of reach (the heartbeat's :meth:`Heartbeat.lost`)
        self.on_unreachable: Callable[[], None] | None = None

    def wake(self, due_ms: int | None = None) -> None:
        """Something was scheduled for ``due_ms`` (``None``: unknown): look again if that is sooner
        than the loop meant to. A bot's move due in a second does not cost a claim now."""
        planned = self._planned_ms
        if due_ms is None or planned is None or due_ms < planned:
            self._wake.set()

    async def run(self) -> None:
        """Run until :meth:`stop`; the timers being run then are finished first."""
        settings = self.settings
        lease_ms = int(settings.due_lease_s * 1000)
        unreachable = False  # the store did not answer the last poll (a failover, a partition)
        while not self._stopping:
            # Cleared before looking, not before sleeping: a wake() while we look is not lost.
            self._wake.clear()
            try:
                now = self.clock()
                claimed, nearest = await self.store.poll_due(now, lease_ms, settings.due_batch)
                if unreachable:
                    unreachable = False
                    log.info("the timer loop reaches the store again")
                for due in claimed:
                    task = asyncio.create_task(self._run_one(due.key), name=f"due {due.key}")
                    self._running.add(task)
                    task.add_done_callback(self._running.discard)
                if len(claimed) == settings.due_batch:
                    await asyncio.sleep(0)
                    continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # A Redis error here is an outage (a failover, a partition): said once, counted
                # each time (meja_redis_errors_total), retried quietly. Anything else is a bug.
                if not self.metrics.redis_error("server.timers", exc):
                    log.exception("the timer loop failed; retrying")
                else:
                    if self.on_unreachable is not None:
                        self.on_unreachable()
                    if not unreachable:
                        unreachable = True
                        log.warning("the timer loop cannot reach the store (%s); retrying", exc)
                nearest = None
            delay = settings.due_poll_s
            if nearest is not None:
                until = (nearest - self.clock()) / 1000
                # Not due yet: look a little after it, so that timers falling due close together
                # (bots at many tables) are claimed in one round trip (Settings.due_slack_ms).
                delay = min(delay, until + settings.due_slack_ms / 1000 if until > 0 else 0.0)
            self._planned_ms = self.clock() + int(delay * 1000)
            try:
                # (asyncio.timeout: Python 3.11's wait_for can drop a cancellation that lands as
                # the wake-up does)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._wake.wait()
            finally:
                self._planned_ms = None

    async def _run_one(self, key: str) -> None:
        # Keys are "<table>|<kind>|<seat>|<marker>" (meja.server.tables.TimerKey).
        parts = key.split("|", 2)
        kind = TIMER_KINDS.get(parts[1]) if len(parts) > 1 else None
        SOURCE.set(kind.source if kind is not None else "timer")  # this task's own context
        self.metrics.timer(kind.name if kind is not None else "")
        try:
            outcome = await self.service.on_due(key)
        except Exception as exc:
            # A bug breaks only its own table: the timer stays leased and comes back after the lease.
            # So does a store out of reach (a failover, a partition): that one is said in one line.
            if self.metrics.redis_error("server.timers", exc):
                log.warning("timer %s: the store did not answer (%s); it comes back after its lease", key, exc)
            else:
                log.exception("timer %s failed", key)
            return
        if outcome == "finish":  # ("finished": the timer's own commit removed it; "keep": leased)
            try:
                await self.store.finish_due(key)
            except Exception as exc:
                self.metrics.redis_error("server.timers", exc)
                log.exception("could not finish timer %s", key)

    async def stop(self) -> None:
        """Stop claiming; wait (bounded) for the timers being run."""
        self._stopping = True
        self._wake.set()
        if self._running:
            await asyncio.wait(list(self._running), timeout=self.settings.shutdown_timeout_s)


class Heartbeat:
    """This process's heartbeat; see the module docstring."""

    def __init__(
        self,
        store: Store,
        process_id: str,
        settings: Settings,
        clock: Callable[[], int] = wall_ms,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.process_id = process_id
        self.settings = settings
        self.clock = clock
        self.metrics = metrics if metrics is not None else Metrics()
        #: time.monotonic() of the first heartbeat of the current unbroken run of them (None: the
        #: last one failed). Until this process has reached the store for a whole heartbeat TTL,
        #: another process's missing heartbeat may be the same outage, not a death (TableService).
        self.up_since: float | None = None

    def lost(self) -> None:
        """Another part of this process found the store out of reach: the run of heartbeats is
        broken too. (A heartbeat can hang in its client's retries for a whole outage and then
        succeed, so the heartbeat alone may never see the outage that lapsed other processes'.)"""
        self.up_since = None

    def reached_store_for(self) -> float:
        """Seconds this process has reached the store without a failed heartbeat (0 if the last failed)."""
        return 0.0 if self.up_since is None else time.monotonic() - self.up_since

    async def first(self) -> int:
        """The first heartbeat; gives downtime back to the timers. How many milliseconds were given back."""
        now = self.clock()
        ttl = int(self.settings.heartbeat_ttl_s * 1000)
        last = await self.store.heartbeat(self.process_id, now, ttl)
        self.up_since = time.monotonic()
        if last is None or now - last <= self.settings.downtime_s * 1000:
            return 0
        gap = now - last
        moved = await self.store.shift_due(gap)
        log.info("no server ran for %.1f s: %d timers moved on by that much", gap / 1000, moved)
        return gap

    async def run(self) -> None:
        ttl = int(self.settings.heartbeat_ttl_s * 1000)
        while True:
            await asyncio.sleep(self.settings.heartbeat_s)
            try:
                await self.store.heartbeat(self.process_id, self.clock(), ttl)
            except Exception as exc:
                self.up_since = None
                if self.metrics.redis_error("server.timers", exc):
                    log.warning("heartbeat failed: the store is out of reach (%s)", exc)
                else:
                    log.exception("heartbeat failed")
            else:
                if self.up_since is None:
                    self.up_since = time.monotonic()
