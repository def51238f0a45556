"""Many tables of scripted players that ride over faults, and a watchdog for stalled tables.

A :class:`SeatDriver` plays one human seat through ``meja_client``. When its
connection closes (a killed or stopped process: 1006 or 1001; a frozen one:
its own keepalive gives up) it reconnects to the next server in its list and
``resume``s with its seat token and ``since`` (PROTOCOL.md 9), as a real
client should. It keeps an exact record of what it sent, for the audit
(faults_audit.py):

- ``accepted``: table version -> action, for every action the server answered
  with the ``update`` that applied it (the one carrying the request's ``re``);
  ``after``: for an answer that came as a ``state`` instead (PROTOCOL.md 8), its
  version -> the version the request named (the action is in between);
- ``in_flight``: ``(version seen, action)`` sent, but the connection closed or
  the answer never came: it may or may not have been applied;
- ``internal``: refused with ``internal`` ("the table is unchanged",
  PROTOCOL.md 10): the audit checks that it really was not applied;
- ``unexpected``: any other refusal than ``action/stale_version`` (a scripted
  player acts only on its latest view, so anything else is a server bug).

A :class:`Fleet` opens ``n`` tables of two drivers and a bot, plays them until
every match is over, and runs a :class:`Watchdog` that records, per table, the
longest time without a game action (from the drivers' views) and fails the
run when one exceeds its limit: that limit is a generous timeout derived from
the documented bound (faults_harness.stall_bound_s), not a speed test.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meja_client import Client, ConnectionClosed, ServerError, connect, random_policy

NAMES = ("Ann", "Bob", "Cat", "Dan")

#: One-round matches (the CI size); MEJA_LONG plays whole matches to the house target.
ONE_ROUND: dict[str, Any] = {"preset": "house", "match_mode": "wins", "rounds": 1}
WHOLE_MATCH: dict[str, Any] = {"preset": "house"}

#: What every wait and request of a driver may take at most, in seconds (a hang, not a speed).
REQUEST_TIMEOUT_S = 30.0


class Stalled(AssertionError):
    """A table made no move for longer than the watchdog allows."""


def match_over(client: Client) -> bool:
    view = client.view
    return client.status == "finished" or (view is not None and view.get("phase") == "match_over")


@dataclass
class SeatDriver:
    """One human seat (see the module docstring)."""

    name: str
    table_id: str
    seat: int
    token: str
    host_token: str | None
    urls: list[str]
    client: Client | None
    seed: int
    accepted: dict[int, dict[str, Any]] = field(default_factory=dict)
    after: dict[int, int] = field(default_factory=dict)
    in_flight: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    internal: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    unexpected: list[dict[str, Any]] = field(default_factory=list)
    closes: list[tuple[str, int | None]] = field(default_factory=list)  # (url, close code)
    resumes: int = 0
    game_version: int = -1  # the highest rules version seen (the watchdog reads it)
    finished: bool = False
    #: stop after this many accepted actions, leaving the connection as :attr:`vanish` says
    vanish_after: int | None = None
    vanish: str = "silent"  # "silent": stop reading and writing; "abort": drop TCP, no close frame
    url_index: int = 0
    stopped: bool = False

    @property
    def url(self) -> str:
        return self.urls[self.url_index % len(self.urls)]

    def _note_progress(self) -> None:
        view = self.client.view if self.client is not None else None
        if isinstance(view, dict) and isinstance(view.get("version"), int):
            self.game_version = max(self.game_version, view["version"])

    async def reconnect(self, deadline: float) -> None:
        """Connect to the next server that answers and resume the seat with ``since``."""
        old = self.client
        since = old.version if old is not None else None
        if old is not None:
            self.closes.append((old.url, old.close_code))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(old.close(), 5)
        delay = 0.05
        while True:
            self.url_index += 1
            try:
                client = await connect(self.url, open_timeout=5, ping_interval=1, ping_timeout=2)
                await client.resume(table=self.table_id, token=self.token, since=since,
                                    host_token=self.host_token, timeout=REQUEST_TIMEOUT_S)
            except (OSError, ConnectionClosed, TimeoutError, ServerError, Exception) as exc:
                if isinstance(exc, ServerError) and exc.code == "auth/bad_token":
                    raise
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{self.name}: no server took the seat back: {exc!r}") from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            self.client = client
            self.resumes += 1
            self._note_progress()
            return

    async def run(self, reconnect_within_s: float) -> None:
        """Play until the match is over (or :attr:`vanish_after`)."""
        policy = random_policy(self.seed)
        acted_at: int | None = None
        while True:
            client = self.client
            assert client is not None
            try:
                def next_step(c: Client, acted_at: int | None = acted_at) -> bool:
                    self._note_progress()
                    return match_over(c) or bool(
                        c.status == "playing" and c.view and c.view.get("legal") and c.version != acted_at
                    )

                await client.wait_for(next_step, REQUEST_TIMEOUT_S)
            except (ConnectionClosed, TimeoutError):
                await self.reconnect(time.monotonic() + reconnect_within_s)
                acted_at = None
                continue
            if match_over(client):
                self.finished = True
                return
            view = client.view
            assert view is not None
            version = client.version
            assert version is not None
            action = policy(view)
            acted_at = version
            try:
                answer = await client.act(action, version=version, timeout=REQUEST_TIMEOUT_S)
            except ServerError as exc:
                if exc.code == "internal":
                    self.internal.append((version, action))
                    acted_at = None
                    await asyncio.sleep(0.2)
                elif exc.code == "auth/not_seated":
                    self.unexpected.append({"version": version, "action": action, "code": exc.code})
                    await self.reconnect(time.monotonic() + reconnect_within_s)
                    acted_at = None
                elif exc.code != "action/stale_version":
                    self.unexpected.append({"version": version, "action": action, "code": exc.code,
                                            "message": exc.message if hasattr(exc, "message") else str(exc)})
                continue
            except (ConnectionClosed, TimeoutError):
                self.in_flight.append((version, action))
                await self.reconnect(time.monotonic() + reconnect_within_s)
                acted_at = None
                continue
            assert answer is not None
            self.accepted[int(answer["version"])] = action
            if answer["type"] == "state":
                self.after[int(answer["version"])] = version
            if self.vanish_after is not None and len(self.accepted) >= self.vanish_after:
                self._vanish()
                return

    def _vanish(self) -> None:
        client = self.client
        assert client is not None
        transport = client.ws.transport
        if self.vanish == "abort":
            client.cut()  # TCP closed with no WebSocket close frame
        else:
            # Silent: read nothing and write nothing (no pongs, no pings of its own), as a client
            # whose network is gone; only the server's keepalive can tell.
            if client.ws.keepalive_task is not None:
                client.ws.keepalive_task.cancel()
            transport.pause_reading()
        self.stopped = True


def describe(driver: SeatDriver) -> str:
    """One line on a driver's connection and view, for failure messages."""
    c = driver.client
    if c is None:
        return f"{driver.name}: no connection"
    view = c.view or {}
    seats = (c.table or {}).get("seats", [])
    return (
        f"{driver.name} on {c.url} closed={c.closed} v{c.version} phase={view.get('phase')} "
        f"turn={view.get('turn')} legal={len(view.get('legal') or [])} resumes={driver.resumes} "
        f"closes={driver.closes} seats={[(s['kind'], s['connected'], s['auto']) for s in seats]}"
    )


@dataclass
class TableRun:
    table_id: str
    code: str
    drivers: list[SeatDriver]
    bot_seats: list[int]

    @property
    def finished(self) -> bool:
        return all(d.finished or d.stopped for d in self.drivers) and any(d.finished for d in self.drivers)


@dataclass
class Watchdog:
    """Per table, the longest time without a game action; fails past ``limit_s`` (see the module docstring)."""

    tables: Sequence[TableRun]
    limit_s: float
    period_s: float = 0.2
    longest: dict[str, float] = field(default_factory=dict)
    failure: str | None = None

    async def run(self) -> None:
        last: dict[str, tuple[int, float]] = {}
        while True:
            now = time.monotonic()
            for table in self.tables:
                if table.finished:
                    continue
                progress = max(d.game_version for d in table.drivers)
                seen = last.get(table.table_id)
                if seen is None or progress != seen[0]:
                    last[table.table_id] = (progress, now)
                    continue
                stalled = now - seen[1]
                self.longest[table.table_id] = max(self.longest.get(table.table_id, 0.0), stalled)
                if stalled > self.limit_s and self.failure is None:
                    self.failure = (
                        f"table {table.table_id} made no move for {stalled:.1f} s at rules version {progress}; "
                        + "; ".join(describe(d) for d in table.drivers)
                    )
            if all(t.finished for t in self.tables):
                return
            await asyncio.sleep(self.period_s)

    @property
    def max_stall_s(self) -> float:
        return max(self.longest.values(), default=0.0)


class Fleet:
    """``n`` tables of two human drivers and one bot, spread over ``urls`` (host on one, guest on the next)."""

    def __init__(self, urls: Sequence[str], *, grace_s: int = 600, options: dict[str, Any] | None = None,
                 seed: int = 0) -> None:
        self.urls = list(urls)
        self.grace_s = grace_s
        self.options = dict(options if options is not None else ONE_ROUND)
        self.rand = random.Random(seed)
        self.tables: list[TableRun] = []

    async def _open(self, n: int) -> TableRun:
        first = n % len(self.urls)
        order = self.urls[first:] + self.urls[:first]
        host = await connect(order[0], open_timeout=10, ping_interval=1, ping_timeout=2)
        joined = await host.host(name=NAMES[0], seats=3, options=self.options, grace_s=self.grace_s,
                                 timeout=REQUEST_TIMEOUT_S)
        guest_urls = order[1:] + order[:1]
        guest = await connect(guest_urls[0], open_timeout=10, ping_interval=1, ping_timeout=2)
        mine = await guest.join(table=joined["table"], name=NAMES[1], timeout=REQUEST_TIMEOUT_S)
        await host.seat_to(2, "bot", timeout=REQUEST_TIMEOUT_S)
        drivers = [
            SeatDriver(f"table {n} seat 0", joined["table"], 0, joined["token"], joined["host_token"], order, host,
                       self.rand.randrange(1 << 30)),
            SeatDriver(f"table {n} seat 1", joined["table"], 1, mine["token"], None, guest_urls, guest,
                       self.rand.randrange(1 << 30)),
        ]
        return TableRun(joined["table"], joined["code"], drivers, [2])

    async def open(self, n: int, batch: int = 10) -> list[TableRun]:
        """Open ``n`` tables (not started)."""
        for start in range(0, n, batch):
            self.tables += await asyncio.gather(*(self._open(i) for i in range(start, min(n, start + batch))))
        return self.tables

    async def start(self) -> None:
        async def go(table: TableRun) -> None:
            host = table.drivers[0].client
            assert host is not None
            await host.start(timeout=REQUEST_TIMEOUT_S)

        for start in range(0, len(self.tables), 10):
            await asyncio.gather(*(go(t) for t in self.tables[start : start + 10]))

    @property
    def drivers(self) -> list[SeatDriver]:
        return [d for t in self.tables for d in t.drivers]

    async def play(
        self,
        *,
        watchdog_s: float,
        reconnect_within_s: float = 60.0,
        fault: Callable[[], Any] | None = None,
        when: Callable[[Fleet], bool] | None = None,
        overall_s: float = 300.0,
    ) -> Watchdog:
        """Play every table to its end; run ``fault()`` once ``when(fleet)`` holds (checked every 50 ms).

        Raises if a driver fails, the watchdog fires, or the whole run takes over ``overall_s``.
        """
        watchdog = Watchdog(self.tables, watchdog_s)
        tasks = [asyncio.create_task(d.run(reconnect_within_s), name=d.name) for d in self.drivers]
        dog = asyncio.create_task(watchdog.run(), name="watchdog")
        try:
            async with asyncio.timeout(overall_s):
                if fault is not None:
                    while when is not None and not when(self):
                        if all(t.done() for t in tasks):
                            raise AssertionError("every table finished before the fault could be injected")
                        await asyncio.sleep(0.05)
                    result = fault()
                    if asyncio.iscoroutine(result):
                        await result
                pending = set(tasks)
                while pending:
                    done, pending = await asyncio.wait(pending, timeout=0.5, return_when=asyncio.FIRST_COMPLETED)
                    for task in done:
                        task.result()  # a driver's failure fails the run
                    if watchdog.failure:
                        raise Stalled(f"stall: {watchdog.failure}")
            await asyncio.wait_for(dog, 10)
        finally:
            for task in [*tasks, dog]:
                task.cancel()
            await asyncio.gather(*tasks, dog, return_exceptions=True)
        return watchdog

    def mid_round(self, fraction: float = 0.5, min_moves: int = 6) -> Callable[[Fleet], bool]:
        """A ``when``: at least ``fraction`` of the tables have made ``min_moves`` game actions."""

        def ready(fleet: Fleet) -> bool:
            busy = sum(1 for t in fleet.tables if max(d.game_version for d in t.drivers) >= min_moves)
            return busy >= fraction * len(fleet.tables)

        return ready

    async def close(self) -> None:
        async def close(driver: SeatDriver) -> None:
            client = driver.client
            if client is None:
                return
            if driver.stopped:
                client.cut()  # a vanished client cannot do a closing handshake: drop it
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 5)

        await asyncio.gather(*(close(d) for d in self.drivers))
