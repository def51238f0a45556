"""``meja bench chaos``: tables played through random faults, then every accepted action audited.

    meja bench chaos [--minutes M] [--tables N] [--seed S] [--json]
                     [--every S] [--whole K] [--pace S] [--target P] [--workdir DIR]

The fault suite (tests/faults) tries one fault at a time; this run throws them
at a fleet of tables one after another, for minutes, and then checks that
nothing a player was told was lost, doubled or made up.

What runs
---------
- a private ``redis-server`` with append-only persistence, ``appendfsync
  always``, on a random free port and a directory of its own. *Why always*:
  Redis writes and fsyncs the append-only file before it answers, so a Redis
  killed at any moment keeps every write it acknowledged; the audit can then
  blame any lost action on Meja. With ``everysec`` Redis answers before the
  fsync, and while a slow fsync is under way (a busy, shared disk) it even
  postpones the write itself for up to 2 s: a ``kill -9`` of Redis could then
  lose actions the server had acknowledged, which would be Redis's documented
  trade-off, not a bug of ours. The price is an fsync per Redis event-loop
  iteration (a batch of commands, not one per command).
- two ``meja serve --redis`` processes (``a`` and ``b``) with the settings of
  :data:`CHAOS_ENV` (short leases and heartbeats: faults are noticed in
  seconds), each restarted on its own port after a fault.
- this process: ``N`` table slots on ``meja_client`` (client-protocol/). A
  table has 3 seats: two scripted people (seat 0 hosts on process ``n mod 2``,
  seat 1 joins through the other one, so every change crosses processes
  through Redis) and a bot. People think ``--pace`` seconds (0.5 to 1.5 times)
  before each decision and choose with ``meja_client.random_policy``.
  ``--whole K`` of the slots (default a fifth) play whole matches (the house
  preset to ``--target`` points, 100 by default): when one ends the two people
  leave and the slot opens a new table, so each table holds one whole match.
  The other slots play one-round matches and the host asks for a rematch as
  soon as one ends, so they keep playing at one table (which the audit then
  replays match after match).

The faults
----------
Every ``--every`` seconds (20 by default; the first one ``--every`` seconds
in) one of five faults, drawn from a bag of all five shuffled with ``--seed``
(so every five faults in a row hold each kind once), with a seeded target:

- ``kill``: a server process gets SIGKILL (a crash), and is started again on
  its port after :data:`RESTART_GAP_S`;
- ``term``: a server process gets SIGTERM (it drains, closes its clients with
  1001), and is started again once it has exited;
- ``redis_restart``: Redis gets SIGKILL, and is started again on the same port
  and directory after :data:`RESTART_GAP_S` (its append-only file keeps the
  data; the fault lasts until it answers PING again);
- ``redis_pause``: Redis gets SIGSTOP for ``REDIS_PAUSE_S`` (5) seconds, then
  SIGCONT;
- ``net_cut``: one connected person's network goes, either at once (``abort``:
  the TCP connection is dropped, with no close frame) or silently (``silent``:
  the client reads nothing and answers no ping; the server's keepalive finds
  out, and the client notices after its own keepalive would,
  :data:`DETECT_S`, and gives the dead connection up; what it had already sent
  does reach the server, as on a network that dies right after a send).

A person whose connection closed (or was given up) reconnects as the page does
(web/js/net.js): after ``min(10 s, 0.5 s * 2^attempt)`` with jitter (half of
it to all of it), to the next process in turn (the other one first), and
``resume`` s the seat with its seat token (and the host token) and ``since``.

What it prints
--------------
- **tables finished**: the matches completed (the audit's count: the rules say
  they are over), split into whole matches and one-round ones, and how many
  slots completed at least one;
- **lost** and **applied twice**: from ``meja audit`` (:mod:`meja.server.audit`,
  run as a subprocess with ``--json``: the benchmarks may not import the
  server). Each person's client keeps, exactly, every action the server
  answered as applied and at which table version, every request that got no
  answer, and every refusal; the audit holds them against every table's log,
  and replays each log through the rules to the stored state. Both must be 0;
  so must ``refused but applied`` and the tables whose log does not replay;
- **the longest stall**: the longest time a table in play made no game
  progress while one of its people was connected (progress: an update with a
  game event, as the people see it), with the fault it followed; and the bound
  below, computed from the settings of this run;
- **resumes**: how many took a seat back, how many attempts failed and were
  retried (a process or Redis down), and how many **failed** for good (a
  seat not taken back within :data:`RESUME_GIVE_UP_S`, or refused with
  ``auth/bad_token`` or ``table/not_found``): must be 0; and how long people
  were without their seat (from the lost connection to the seat back);
- **requests unanswered**: actions or rematches the server never answered on
  a connection that stayed open (the person gives up after
  :data:`ACT_TIMEOUT_S`, as the page does, and resumes); a stall they caused
  says so;
- **closed with 4001**: live connections told their seat was opened by
  another connection, which nobody did (the run never replaces a connection
  it still reads); the page does not reconnect after a 4001;
- **the faults** with their times (seconds since the tables started) and how
  long each took; refusals and close codes the people saw; tracebacks the
  servers logged.

The exit status is 0 when nothing was lost or applied twice, every log
replayed, every resume succeeded, no stall passed the bound, every request was
answered and no live connection was closed with 4001; else 1 (``ok`` in the
JSON).
Timing figures (stalls, moves per second) depend on the machine and on what
else runs on it.

The stall bound
---------------
:func:`stall_bound_s` adds up, from the settings of the run (defaults of
:data:`CHAOS_ENV` in brackets), the longest a table in play may wait for its
next game event:

- **one step** with nothing failing: the decision the game waits for is a
  person's (think time up to 1.5 x ``--pace``, [0.75 s]) or a bot's (its pause,
  ``bot_delay_max_ms`` + ``hold_delay_ms`` [0.4 + 0.2 s], or
  ``ready_delay_ms`` between rounds [0.3 s], plus a poll of the timer loop,
  ``due_poll_s`` [0.25 s]): the larger, [0.85 s];
- plus the worst **recovery** of one fault, each term the time the system
  needs before that step can start:

  - ``kill``: a bot's move the dead process had claimed comes due again after
    its lease, ``due_lease_s`` [2 s], and another poll [0.25 s]; its people
    are back sooner (a close is seen at once, the first reconnection waits
    at most 0.5 s and goes to the live process): [2.25 s];
  - ``term``: the drain may take ``shutdown_timeout_s`` [5 s] before the 1001
    close, then one backoff [0.5 s]; or the lease as for ``kill``: [5.5 s];
  - ``redis_restart``: the outage itself (measured: from the SIGKILL until
    Redis answers PING, which includes loading the append-only file), then the
    server's Redis client's last retry pause (capped at 1 s) and its pub/sub
    listener's reconnection pause (``reconnect_max_s``, 2 s), and a lease for
    a claim taken just before the crash [2 s]: outage + 5 s;
  - ``redis_pause``: the pause [5 s], then the pub/sub listener's
    reconnection if its ping gave up meanwhile [2 s], and a lease [2 s]: [9 s];
  - ``net_cut``: the client's own keepalive (:data:`DETECT_S`, 3 s) before it
    gives a silent connection up, one backoff [0.5 s]: [3.5 s] (the server
    lets go of the old connection by then: ``ping_interval_s`` +
    ``ping_timeout_s``, [3 s], and a resume takes the seat over anyway).

- plus :data:`BUSY_SLACK_S` [5 s], the one figure not taken from a setting:
  every term above assumes the process that takes the people over answers
  their resumes at once. After a ``kill`` or ``term`` half the people (200 of
  400 at the default size) resume on the other process within a second, while
  it also serves every table; on this shared 2-core machine the slowest of
  them was back 2.5 to 5.6 s after losing the connection (the run prints these
  times: ``time away``), and a stall after a ``kill`` reached 8.1 s where the
  ``kill`` term alone says 3.1 s. The slack covers such a queue; the figures
  printed per fault show how much of it a run used.

With the defaults the bound is 0.85 + max(2.25, 5.5, outage + 5, 9, 3.5) + 5:
about 15 s (more if a Redis restart took over 4 s). The grace period of the
tables, :data:`GRACE_S`, is not in it: people here always come back (one who
takes longer than the grace has a bot play for them meanwhile, which moves the
table on), and a table with nobody connected does not count (its bots wait
by design). A request the server never answers holds its person up for
:data:`ACT_TIMEOUT_S` (15 s): that is a bug, not a recovery, and the stall it
causes is reported as such.

Only Linux (signals, ``/proc``). Processes and Redis are handled with
:mod:`meja.bench.server`'s helpers; the audit is ``meja audit``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

# meja_client (client-protocol/python) is installed beside meja; mypy does not see editable installs.
from meja_client import (  # type: ignore[import-not-found, unused-ignore]
    Client,
    ConnectionClosed,
    ServerError,
    connect,
    random_policy,
)

from meja.rules.game import TABLE_EVENT_KINDS

from .procs import FAULT_TIMING_ENV, SERVING, Child, redis_command, serve_command, spawn, stop, wait_for_line
from .server import COMMON_ENV, _Redis

__all__ = [
    "BUSY_SLACK_S",
    "CHAOS_ENV",
    "DETECT_S",
    "FAULT_KINDS",
    "GRACE_S",
    "add_arguments",
    "fault_schedule",
    "run",
    "stall_bound_s",
]

#: Server settings of the run (MEJA_* variables, see meja.server.settings), over :data:`COMMON_ENV`.
CHAOS_ENV: Final = {
    # Random players walk a decision made in any order step by step, far faster than people.
    "MEJA_PRIVATE_STEPS_PER_S": "100000",
    # Short leases and heartbeats: a dead, stopped or frozen process is noticed in seconds.
    **FAULT_TIMING_ENV,
    "MEJA_DUE_POLL_S": "0.25",
    # Bots quicker than the defaults (600-1200 ms), still above zero: the timer path is the real one.
    "MEJA_BOT_DELAY_MIN_MS": "100",
    "MEJA_BOT_DELAY_MAX_MS": "400",
    "MEJA_BOT_REACT_MIN_MS": "100",
    "MEJA_BOT_REACT_MAX_MS": "400",
    "MEJA_HOLD_DELAY_MS": "200",
    "MEJA_READY_DELAY_MS": "300",
}
#: The five faults (see the module docstring).
FAULT_KINDS: Final = ("kill", "term", "redis_restart", "redis_pause", "net_cut")
#: Seconds a killed server or Redis stays down before it is started again.
RESTART_GAP_S: Final = 1.0
#: Seconds Redis stays stopped (SIGSTOP) in a ``redis_pause``.
REDIS_PAUSE_S: Final = 5.0
#: The clients' keepalive (ping every 1 s, 2 s to answer): how long a silent cut goes unnoticed.
CLIENT_PING_INTERVAL_S: Final = 1.0
CLIENT_PING_TIMEOUT_S: Final = 2.0
DETECT_S: Final = CLIENT_PING_INTERVAL_S + CLIENT_PING_TIMEOUT_S
#: The page's reconnection backoff (web/js/net.js): base and cap, in seconds.
BACKOFF_BASE_S: Final = 0.5
BACKOFF_CAP_S: Final = 10.0
#: A person who cannot take the seat back for this long has failed to resume.
RESUME_GIVE_UP_S: Final = 60.0
#: Refusals of a resume after which trying again cannot help.
FINAL_RESUME_CODES: Final = frozenset({"auth/bad_token", "table/not_found"})
#: Seconds an absent person keeps the seat before a bot plays for them (the tables' ``grace_s``).
GRACE_S: Final = 5
#: What a request may take at most (a hang, not a speed), and a wait between checks of a cut.
REQUEST_TIMEOUT_S: Final = 30.0
#: How long a person waits for the answer to an action (the page's REQUEST_TIMEOUT_MS, web/js/net.js);
#: then it gives the connection up and resumes, which tells it what became of the action.
ACT_TIMEOUT_S: Final = 15.0
POLL_S: Final = 0.25
#: The stall bound's allowance for a busy machine (see the module docstring).
BUSY_SLACK_S: Final = 5.0
#: The server's Redis client: its last retry pause, and its pub/sub listener's reconnection cap.
REDIS_RETRY_CAP_S: Final = 1.0
REDIS_RECONNECT_MAX_S: Final = 2.0
#: How often the stall watchdog looks, and the shortest stall it keeps a record of.
WATCH_S: Final = 0.2
STALL_NOTE_S: Final = 1.0

ONE_ROUND: Final = {"preset": "house", "match_mode": "wins", "rounds": 1}
NAMES: Final = ("Ann", "Bob")
Wire = dict[str, Any]


# --------------------------------------------------------------------------- the bound and the schedule


def stall_bound_s(
    env: Mapping[str, str], *, pace_s: float, redis_pause_s: float = REDIS_PAUSE_S, redis_outage_s: float = 0.0
) -> dict[str, float]:
    """The stall bound of the module docstring, term by term (``"bound"``: the total), from ``env``.

    ``redis_outage_s``: the longest Redis restart of the run (SIGKILL to PING answered).
    """
    f = {k: float(v) for k, v in env.items() if k.endswith(("_S", "_MS"))}
    poll = f["MEJA_DUE_POLL_S"]
    bot = max(f["MEJA_BOT_DELAY_MAX_MS"] + f["MEJA_HOLD_DELAY_MS"], f["MEJA_READY_DELAY_MS"]) / 1000 + poll
    step = max(1.5 * pace_s, bot)
    lease = f["MEJA_DUE_LEASE_S"] + poll
    first_backoff = BACKOFF_BASE_S
    recovery = {
        "kill": max(lease, first_backoff),
        "term": max(lease, f["MEJA_SHUTDOWN_TIMEOUT_S"] + first_backoff),
        "redis_restart": redis_outage_s + REDIS_RETRY_CAP_S + REDIS_RECONNECT_MAX_S + f["MEJA_DUE_LEASE_S"],
        "redis_pause": redis_pause_s + REDIS_RECONNECT_MAX_S + f["MEJA_DUE_LEASE_S"],
        "net_cut": DETECT_S + first_backoff,
    }
    out = {"step": round(step, 3), **{k: round(v, 3) for k, v in recovery.items()}, "busy_slack": BUSY_SLACK_S}
    out["bound"] = round(step + max(recovery.values()) + BUSY_SLACK_S, 3)
    return out


def fault_schedule(seed: int, count: int) -> list[str]:
    """The kinds of the first ``count`` faults: bags of all five, each shuffled (seeded)."""
    rand = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        bag = list(FAULT_KINDS)
        rand.shuffle(bag)
        out += bag
    return out[:count]


def _backoff(attempt: int, rand: random.Random) -> float:
    """The page's reconnection delay before attempt ``attempt`` (0 first), in seconds."""
    ceiling: float = min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2.0 ** min(attempt, 16))
    return ceiling / 2 + rand.random() * ceiling / 2


# --------------------------------------------------------------------------- processes


class _Clock:
    """Seconds since the tables started (the times faults and stalls are reported at)."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.t0


class _AofRedis:
    """The private redis-server, append-only; killed, stopped and started again on its port and files."""

    def __init__(self, workdir: Path, fsync: str) -> None:
        self.dir = workdir / "redis"
        self.dir.mkdir()
        self.workdir = workdir
        self.fsync = fsync
        self.port = 0
        self.child: Child | None = None
        self.starts = 0
        self.paused = False
        self.ever_up = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _command(self) -> list[str]:
        return redis_command(self.port, self.dir, appendonly=True, appendfsync=self.fsync)

    async def start(self) -> None:
        """Start (the first time on a random free port, then on the same one); wait for PONG."""
        rand = random.Random()
        output = ""
        for _ in range(20):
            if not self.ever_up:  # a random port, another one if it is taken; then always that one
                self.port = rand.randrange(20_000, 60_000)
            self.starts += 1
            child = spawn(f"redis-{self.starts}", self._command(), self.workdir)
            cli = _Redis(self.url, child, "meja:")
            deadline = time.monotonic() + 120
            while child.popen.poll() is None and time.monotonic() < deadline:
                if (await asyncio.to_thread(cli.cli, "PING")).strip() == "PONG":
                    self.child = child
                    self.ever_up = True
                    return
                await asyncio.sleep(0.05)
            output = child.output()
            child.stop()
            if self.ever_up:
                await asyncio.sleep(0.5)  # the port may be held a moment longer: try it again
        raise RuntimeError(f"could not start redis-server:\n{output}")

    def kill(self) -> None:
        if self.child is not None:
            if self.paused:
                self.resume()
            self.child.popen.send_signal(signal.SIGKILL)
            self.child.popen.wait(30)
            self.child = None

    def pause(self) -> None:
        assert self.child is not None
        self.child.popen.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        assert self.child is not None
        self.child.popen.send_signal(signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        if self.child is not None:
            if self.paused:
                self.resume()
            self.child.stop()
            self.child = None


class _Server:
    """One ``meja serve --redis`` process, started again on the same port after a fault."""

    def __init__(
        self, label: str, entry: Sequence[str], redis: _AofRedis, env: Mapping[str, str], workdir: Path
    ) -> None:
        self.label = label
        self.entry = list(entry)
        self.redis = redis
        self.env = {**os.environ, **env}
        self.workdir = workdir
        self.port = 0
        self.child: Child | None = None
        self.starts = 0
        self.logs: list[Path] = []

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> None:
        self.starts += 1
        cmd = serve_command(self.port, self.redis.url, entry=self.entry)
        child = spawn(f"meja-{self.label}-{self.starts}", cmd, self.workdir, self.env)
        self.logs.append(child.log)
        found = await wait_for_line(child, SERVING, timeout=120)
        self.port = int(found.group(1))
        self.child = child

    def kill(self) -> None:
        if self.child is not None:
            self.child.popen.send_signal(signal.SIGKILL)
            self.child.popen.wait(30)
            self.child = None

    def terminate(self) -> int | None:
        """SIGTERM and wait for the drain (SIGKILL if it overstays); the exit status."""
        if self.child is None:
            return None
        status = stop(self.child.popen, 60)
        self.child = None
        return status

    def tracebacks(self) -> list[str]:
        found = []
        for path in self.logs:
            with contextlib.suppress(OSError):
                text = path.read_text(errors="replace")
                for chunk in text.split("Traceback (most recent call last):")[1:]:
                    found.append(f"{path.name}: {chunk[:800]}")
        return found


# --------------------------------------------------------------------------- the people


class _Abandoned(Exception):
    """The client noticed its connection is dead (a silent network cut): give it up."""


class _Stopped(Exception):
    """The run is over: stop waiting."""


@dataclass
class _Table:
    slot: int
    table_id: str
    whole: bool
    humans: list[_Human] = field(default_factory=list)
    active: bool = True  #: in play: its stalls count
    finished: bool = False  #: a whole match ended (whole-match slots)
    progress: int = -1  #: the highest table version with a game event any of its people has seen
    watched: int = -1  #: the progress the stall watchdog saw last
    stall: float = 0.0
    stall_began: float = 0.0
    stalls: list[tuple[float, float]] = field(default_factory=list)  #: (began at, seconds), the notable ones


@dataclass
class _Stats:
    """What every person saw, summed."""

    resumes: int = 0
    resume_retries: int = 0
    resume_failures: list[str] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    closes: Counter[str] = field(default_factory=Counter)
    #: (monotonic time, close code or "given up (silent cut)") of every connection a person lost
    close_events: list[tuple[float, str]] = field(default_factory=list)
    #: (monotonic time the connection was lost, seconds until the seat was back) of every resume
    away: list[tuple[float, float]] = field(default_factory=list)
    #: (monotonic time, table id, seat) of every request given up unanswered on an open connection
    no_answer: list[tuple[float, str, int]] = field(default_factory=list)
    accepted: int = 0
    rematches: int = 0


class _Human:
    """One scripted person at one seat: plays, rides over faults, and keeps exact claims for the audit."""

    def __init__(
        self,
        table: _Table,
        seat: int,
        joined: Mapping[str, Any],
        client: Client,
        urls: list[str],
        url_index: int,
        seed: int,
        pace: float,
        stats: _Stats,
    ) -> None:
        self.table = table
        self.seat = seat
        self.token = str(joined["token"])
        self.host_token: str | None = joined.get("host_token") if seat == 0 else None
        self.client: Client | None = client
        self.urls = urls
        self.url_index = url_index
        self.rand = random.Random(seed)
        self.policy = random_policy(seed)
        self.pace = pace
        self.stats = stats
        self.is_host = seat == 0
        self.stop = asyncio.Event()
        self.acted_at: int | None = None
        self.last_version: int | None = None
        self.scanned = 0
        self.cut_at: float | None = None
        self.dead: list[Client] = []
        # the claims (meja.server.audit.SeatClaims)
        self.accepted: dict[int, Wire] = {}
        self.after: dict[int, int] = {}  # answer version -> version sent at, for answers that came as a state
        self.unanswered: list[tuple[int, Wire]] = []
        self.refused: list[tuple[int, Wire, str]] = []
        self.rematches: list[int | list[int]] = []  # [version, sent at] for a state's answer
        self.rematches_unanswered = 0

    # ------------------------------------------------------------------ what it sees

    def connected(self) -> bool:
        c = self.client
        return c is not None and not c.closed and self.cut_at is None

    def account(self) -> None:
        """Note game progress in the messages received since the last look (the stall watchdog's clock)."""
        c = self.client
        if c is None:
            return
        messages = c.messages
        for message in messages[self.scanned :]:
            if message.get("type") != "update" or not isinstance(message.get("version"), int):
                continue
            kinds = {e.get("kind") for e in message.get("events") or ()}
            if kinds - TABLE_EVENT_KINDS or kinds & {"rematch", "started"}:
                self.table.progress = max(self.table.progress, message["version"])
        self.scanned = len(messages)
        if c.version is not None:
            self.last_version = c.version

    def trim(self) -> None:
        """Forget what was received (only between requests: a request reads ``messages``)."""
        self.account()
        c = self.client
        if c is None:
            return
        for kept in (c.messages, c.events, c.event_versions, c.updates, c.errors):
            kept.clear()
        self.scanned = 0

    def match_over(self) -> bool:
        c = self.client
        view = None if c is None else c.view
        return c is not None and (c.status == "finished" or (view is not None and view.get("phase") == "match_over"))

    # ------------------------------------------------------------------ playing

    async def _guard(self, coro: Any, *, stoppable: bool = False) -> Any:
        """Await ``coro``, giving up (:class:`_Abandoned`) once a silent cut would have been noticed;
        ``stoppable``: also when the run is over (:class:`_Stopped`; a request is always waited for)."""
        task = asyncio.ensure_future(coro)
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=POLL_S)
                if done:
                    return task.result()
                if self.cut_at is not None and time.monotonic() - self.cut_at >= DETECT_S:
                    raise _Abandoned()
                if stoppable and self.stop.is_set():
                    raise _Stopped()
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    async def run(self, stop: asyncio.Event) -> None:
        """Play until ``stop`` (or, at a whole-match table, until the match is over)."""
        self.stop = stop
        while not stop.is_set():
            c = self.client
            if c is None or c.closed or (self.cut_at is not None and time.monotonic() - self.cut_at >= DETECT_S):
                if not await self._reconnect(stop):
                    return
                continue
            try:
                if await self._step(c, stop):
                    return
            except (ConnectionClosed, _Abandoned):
                continue
            except TimeoutError:
                self._give_up_connection("no answer")

    def _give_up_connection(self, why: str) -> None:
        c = self.client
        if c is not None:
            self.stats.unexpected.append(f"table {self.table.table_id} seat {self.seat}: {why}; reconnecting")
            self.stats.no_answer.append((time.monotonic(), self.table.table_id, self.seat))
            c.cut()

    async def _step(self, c: Client, stop: asyncio.Event) -> bool:
        """Wait for a decision and take it; ``True`` when this person is done."""

        def ready(client: Client) -> bool:
            self.account()
            if stop.is_set():
                return True
            view = client.view
            if view is None:
                return False
            if self.match_over():
                return self.table.whole or self.is_host
            return bool(client.status == "playing" and view.get("legal") and client.version != self.acted_at)

        try:
            await self._guard(c.wait_for(ready, timeout=REQUEST_TIMEOUT_S), stoppable=True)
        except _Stopped:
            return True
        except TimeoutError:
            self.trim()
            return False
        self.trim()
        if stop.is_set():
            return True
        if self.match_over():
            if self.table.whole:
                self.table.finished = True
                return True
            await self._rematch(c)
            return False
        await asyncio.sleep(self.pace * self.rand.uniform(0.5, 1.5))
        if stop.is_set() or c.closed:
            return stop.is_set()
        view = c.view
        if view is None or c.status != "playing" or not view.get("legal") or self.match_over():
            return False  # the decision went away while thinking (someone else acted, or the match ended)
        version = c.version
        assert version is not None
        action = self.policy(view)
        self.acted_at = version
        try:
            answer = await self._guard(c.act(action, version=version, timeout=ACT_TIMEOUT_S))
        except ServerError as exc:
            self.refused.append((version, action, exc.code))
            self.stats.refusals[exc.code] += 1
            if exc.code not in ("action/stale_version", "internal"):
                self.stats.unexpected.append(
                    f"table {self.table.table_id} seat {self.seat} v{version}: {action} refused with {exc.code}: {exc}"
                )
            if exc.code != "action/stale_version":
                self.acted_at = None
                await asyncio.sleep(0.2)
            if exc.code == "auth/not_seated":
                c.cut()  # this connection lost the seat: take it back with a resume
            return False
        except BaseException:
            self.unanswered.append((version, action))
            raise
        assert answer is not None
        self.accepted[int(answer["version"])] = action
        if answer["type"] == "state":  # PROTOCOL.md 8: applied after `version`, at most at the answer's
            self.after[int(answer["version"])] = version
        self.stats.accepted += 1
        return False

    async def _rematch(self, c: Client) -> None:
        sent = c.version if c.version is not None else -1
        try:
            answer = await self._guard(c.rematch(timeout=ACT_TIMEOUT_S))
        except ServerError as exc:
            self.stats.refusals[f"rematch {exc.code}"] += 1
            self.stats.unexpected.append(f"table {self.table.table_id}: rematch refused with {exc.code}: {exc}")
            await asyncio.sleep(0.5)
            return
        except BaseException:
            self.rematches_unanswered += 1
            raise
        assert answer is not None
        self.rematches.append(int(answer["version"]) if answer["type"] != "state" else [int(answer["version"]), sent])
        self.stats.rematches += 1

    # ------------------------------------------------------------------ reconnecting

    async def _reconnect(self, stop: asyncio.Event) -> bool:
        """Connect to the next process that answers and resume the seat; ``False`` if it gave up (or ``stop``)."""
        old = self.client
        self.account()
        since = self.last_version
        lost_at = time.monotonic()
        if old is not None:
            if self.cut_at is not None and not old.closed:
                code = "given up (silent cut)"
                self.dead.append(old)  # left for the server's keepalive to find
            else:
                code = str(old.close_code)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(old.close(), 2)
            self.stats.closes[code] += 1
            self.stats.close_events.append((lost_at, code))
        self.client = None
        self.cut_at = None
        self.scanned = 0
        self.acted_at = None
        began = time.monotonic()
        last = ""
        attempt = 0
        while not stop.is_set():
            await asyncio.sleep(_backoff(attempt, self.rand))
            attempt += 1
            self.url_index += 1
            url = self.urls[self.url_index % len(self.urls)]
            client: Client | None = None
            try:
                client = await connect(
                    url, open_timeout=5, ping_interval=CLIENT_PING_INTERVAL_S, ping_timeout=CLIENT_PING_TIMEOUT_S
                )
                await client.resume(
                    table=self.table.table_id,
                    token=self.token,
                    since=since,
                    host_token=self.host_token,
                    timeout=REQUEST_TIMEOUT_S,
                )
            except ServerError as exc:
                last = f"{exc.code}: {exc}"
                if exc.code in FINAL_RESUME_CODES:
                    self.stats.resume_failures.append(f"table {self.table.table_id} seat {self.seat}: {last}")
                    await _close(client)
                    return False
            except Exception as exc:  # refused, reset, a 503 while a process drains, a timeout...
                last = repr(exc)
            else:
                assert client is not None
                self.client = client
                self.stats.resumes += 1
                self.stats.away.append((lost_at, time.monotonic() - lost_at))
                self.account()
                return True
            await _close(client)
            self.stats.resume_retries += 1
            if time.monotonic() - began > RESUME_GIVE_UP_S:
                self.stats.resume_failures.append(
                    f"table {self.table.table_id} seat {self.seat}: no process took the seat back in "
                    f"{RESUME_GIVE_UP_S:.0f} s: {last}"
                )
                return False
        return False

    # ------------------------------------------------------------------ faults

    def cut(self, how: str) -> None:
        """The network goes: ``abort`` drops the TCP connection; ``silent`` stops reading and answering."""
        c = self.client
        assert c is not None
        if how == "abort":
            c.cut()
            return
        keepalive = getattr(c.ws, "keepalive_task", None)
        if keepalive is not None:
            keepalive.cancel()
        transport = c.ws.transport
        if transport is not None:
            transport.pause_reading()
        self.cut_at = time.monotonic()

    def claims(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "accepted": sorted([v, a, self.after[v]] if v in self.after else [v, a] for v, a in self.accepted.items()),
            "unanswered": [[v, a] for v, a in self.unanswered],
            "refused": [[v, a, code] for v, a, code in self.refused],
        }

    async def close(self) -> None:
        for c in [*self.dead, *([self.client] if self.client is not None else [])]:
            if c in self.dead:
                c.cut()
            await _close(c)


async def _close(client: Client | None) -> None:
    if client is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.close(), 5)


# --------------------------------------------------------------------------- the run


@dataclass
class _Run:
    args: argparse.Namespace
    redis: _AofRedis
    servers: list[_Server]
    clock: _Clock = field(default_factory=_Clock)
    stats: _Stats = field(default_factory=_Stats)
    tables: list[_Table] = field(default_factory=list)
    #: tables whose start went unanswered: maybe started, audited with no claims
    orphans: list[str] = field(default_factory=list)
    faults: list[dict[str, Any]] = field(default_factory=list)
    seeds: random.Random = field(default_factory=random.Random)
    elapsed_s: float = 0.0

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    # ------------------------------------------------------------------ tables

    async def open_table(self, slot: int, whole: bool, stop: asyncio.Event | None) -> _Table | None:
        """Host, join, seat a bot and start; retried with backoff while faults get in the way."""
        urls = self.urls
        first = slot % len(urls)
        options = {"preset": "house", "target": self.args.target} if whole else dict(ONE_ROUND)
        attempt = 0
        rand = random.Random(self.seeds.randrange(1 << 30))
        while stop is None or not stop.is_set():
            host = guest = None
            table_id: str | None = None
            started = False
            try:
                host = await connect(
                    urls[first],
                    open_timeout=10,
                    ping_interval=CLIENT_PING_INTERVAL_S,
                    ping_timeout=CLIENT_PING_TIMEOUT_S,
                )
                joined = await host.host(
                    name=NAMES[0], seats=3, options=options, grace_s=GRACE_S, timeout=REQUEST_TIMEOUT_S
                )
                table_id = str(joined["table"])
                guest = await connect(
                    urls[(first + 1) % len(urls)],
                    open_timeout=10,
                    ping_interval=CLIENT_PING_INTERVAL_S,
                    ping_timeout=CLIENT_PING_TIMEOUT_S,
                )
                mine = await guest.join(table=table_id, name=NAMES[1], timeout=REQUEST_TIMEOUT_S)
                await host.seat_to(2, "bot", timeout=REQUEST_TIMEOUT_S)
                started = True  # from here on the table may have started, answered or not
                await host.start(timeout=REQUEST_TIMEOUT_S)
            except Exception:
                if started and table_id is not None:
                    self.orphans.append(table_id)
                await _close(host)
                await _close(guest)
                if stop is None and attempt > 5:
                    raise
                await asyncio.sleep(_backoff(attempt, rand))
                attempt += 1
                continue
            assert guest is not None
            table = _Table(slot, table_id, whole)
            table.humans = [
                _Human(table, 0, joined, host, urls, first, self.seeds.randrange(1 << 30), self.args.pace, self.stats),
                _Human(
                    table, 1, mine, guest, urls, first + 1, self.seeds.randrange(1 << 30), self.args.pace, self.stats
                ),
            ]
            self.tables.append(table)
            return table
        return None

    async def play_slot(self, table: _Table, stop: asyncio.Event) -> None:
        """Play the slot's table; a whole-match slot opens a new table after each match."""
        while True:
            await asyncio.gather(*(h.run(stop) for h in table.humans))
            table.active = False
            for h in table.humans:
                await h.close()
            if stop.is_set() or not table.whole:
                return
            opened = await self.open_table(table.slot, True, stop)
            if opened is None:
                return
            table = opened

    # ------------------------------------------------------------------ watching for stalls

    async def watch(self, stop: asyncio.Event) -> None:
        last = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(WATCH_S)
            now = time.monotonic()
            dt, last = now - last, now
            for table in self.tables:
                if not table.active:
                    continue
                for h in table.humans:
                    h.account()
                if table.progress != table.watched:  # (the people note progress as they read, too)
                    table.watched = table.progress
                    self._end_stall(table)
                elif any(h.connected() for h in table.humans):
                    if table.stall == 0.0:
                        table.stall_began = self.clock.now() - dt
                    table.stall += dt

    def _end_stall(self, table: _Table) -> None:
        if table.stall >= STALL_NOTE_S:
            table.stalls.append((round(table.stall_began, 2), round(table.stall, 2)))
        table.stall = 0.0

    # ------------------------------------------------------------------ faults

    async def inject(self, stop: asyncio.Event) -> None:
        every = self.args.every
        if every <= 0:
            return
        count = int(self.args.minutes * 60 / every)
        if count * every >= self.args.minutes * 60:
            count -= 1
        kinds = fault_schedule(self.args.seed, count)
        rand = random.Random(self.args.seed + 1)
        for n, kind in enumerate(kinds):
            due = (n + 1) * every
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), max(0.0, due - self.clock.now()))
            if stop.is_set():
                return
            began = self.clock.now()
            fault: dict[str, Any] = {"t": round(began, 2), "kind": kind}
            self.faults.append(fault)
            try:
                await self._fault(kind, fault, rand)
            except Exception as exc:  # a fault that could not be injected, or a process that did not come back
                fault["error"] = repr(exc)
            fault["took_s"] = round(self.clock.now() - began, 2)

    async def _fault(self, kind: str, fault: dict[str, Any], rand: random.Random) -> None:
        if kind in ("kill", "term"):
            server = rand.choice(self.servers)
            fault["target"] = f"server {server.label}"
            if kind == "kill":
                await asyncio.to_thread(server.kill)
                await asyncio.sleep(RESTART_GAP_S)
            else:
                fault["exit_status"] = await asyncio.to_thread(server.terminate)
            await server.start()
        elif kind == "redis_restart":
            fault["target"] = "redis"
            began = time.monotonic()
            await asyncio.to_thread(self.redis.kill)
            await asyncio.sleep(RESTART_GAP_S)
            await self.redis.start()
            fault["outage_s"] = round(time.monotonic() - began, 2)
        elif kind == "redis_pause":
            fault["target"] = "redis"
            self.redis.pause()
            try:
                await asyncio.sleep(REDIS_PAUSE_S)
            finally:
                self.redis.resume()
        else:
            people = sorted(
                (h for t in self.tables if t.active for h in t.humans if h.connected()),
                key=lambda h: (h.table.slot, h.seat),
            )
            if not people:
                fault["target"] = "nobody connected"
                return
            person = rand.choice(people)
            how = rand.choice(("abort", "silent"))
            fault["target"] = f"table {person.table.slot} seat {person.seat} ({how})"
            person.cut(how)

    # ------------------------------------------------------------------ the whole run

    async def play(self) -> None:
        args = self.args
        whole = set(range(args.tables - args.whole, args.tables))
        opened: list[_Table | None] = []
        for start in range(0, args.tables, 10):
            opened += await asyncio.gather(
                *(self.open_table(n, n in whole, None) for n in range(start, min(args.tables, start + 10)))
            )
        stop = asyncio.Event()
        self.clock = _Clock()
        first = [t for t in opened if t is not None]
        slots = [asyncio.create_task(self.play_slot(t, stop), name=f"slot {t.slot}") for t in first]
        watcher = asyncio.create_task(self.watch(stop))
        injector = asyncio.create_task(self.inject(stop))
        await asyncio.sleep(args.minutes * 60)
        stop.set()
        self.elapsed_s = self.clock.now()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(injector, 120)
        done, pending = await asyncio.wait(slots, timeout=REQUEST_TIMEOUT_S + 10)
        for task in pending:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
        for task in done:
            if task.exception() is not None:
                self.stats.unexpected.append(f"{task.get_name()}: {task.exception()!r}")
        watcher.cancel()
        with contextlib.suppress(BaseException):
            await watcher
        for table in self.tables:
            self._end_stall(table)
            for h in table.humans:
                await h.close()

    def claims(self) -> dict[str, Any]:
        tables = [
            {
                "table": t.table_id,
                "seats": [h.claims() for h in t.humans],
                "rematches": {
                    "accepted": [v for h in t.humans for v in h.rematches],
                    "unanswered": sum(h.rematches_unanswered for h in t.humans),
                },
            }
            for t in self.tables
        ]
        known = {t.table_id for t in self.tables}
        tables += [{"table": o, "seats": []} for o in dict.fromkeys(self.orphans) if o not in known]
        return {"tables": tables}


def _audit(redis_url: str, claims: Mapping[str, Any], workdir: Path) -> dict[str, Any]:
    path = workdir / "claims.json"
    path.write_text(json.dumps(claims), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "meja.cli", "audit", "--redis", redis_url, "--claims", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise RuntimeError(f"meja audit failed ({done.returncode}):\n{done.stderr[-4000:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _after(run: _Run, t: float) -> dict[str, Any] | None:
    """The last fault injected at or before ``t`` (seconds of the run's clock)."""
    found = None
    for f in run.faults:
        if f["t"] <= t:
            found = f
    return found


def _away(run: _Run) -> dict[str, Any]:
    """How long people were without their seat (connection lost to seat back), overall and by fault."""
    times = sorted(seconds for _, seconds in run.stats.away)
    by_kind: dict[str, float] = {}
    for lost_at, seconds in run.stats.away:
        fault = _after(run, lost_at - run.clock.t0)
        kind = "none" if fault is None else fault["kind"]
        by_kind[kind] = round(max(by_kind.get(kind, 0.0), seconds), 2)

    def q(p: float) -> float:
        return round(times[min(len(times) - 1, int(p * len(times)))], 2) if times else 0.0

    return {"count": len(times), "p50": q(0.5), "p95": q(0.95), "max": q(1.0), "longest_by_fault": by_kind}


def _closes_by_fault(run: _Run) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = {}
    for when, code in run.stats.close_events:
        fault = _after(run, when - run.clock.t0)
        out.setdefault("none" if fault is None else fault["kind"], Counter())[code] += 1
    return {k: dict(v) for k, v in out.items()}


def _stalls(run: _Run) -> dict[str, Any]:
    """The longest stall, and the longest after each kind of fault (the last fault before it ended)."""
    every: list[dict[str, Any]] = []
    unanswered: dict[str, list[float]] = {}
    for when, table_id, _ in run.stats.no_answer:
        unanswered.setdefault(table_id, []).append(when - run.clock.t0)
    for table in run.tables:
        for began, seconds in table.stalls:
            fault = _after(run, began + seconds)
            # A person who waited in vain for an answer held the table up (see ACT_TIMEOUT_S).
            cause = (
                "request unanswered"
                if any(began <= t <= began + seconds + 1 for t in unanswered.get(table.table_id, ()))
                else None
            )
            every.append(
                {
                    "seconds": seconds,
                    "began_at": began,
                    "table": table.table_id,
                    "slot": table.slot,
                    "after": None if fault is None else f"{fault['kind']} at {fault['t']} s",
                    "cause": cause,
                }
            )
    every.sort(key=lambda s: -s["seconds"])
    by_kind: dict[str, float] = {}
    for s in every:
        kind = "none" if s["after"] is None else s["after"].split(" ")[0]
        by_kind[kind] = max(by_kind.get(kind, 0.0), s["seconds"])
    plain = [s for s in every if s["cause"] is None]
    return {
        "longest": every[0] if every else None,
        "top": every[:10],
        "longest_by_fault": by_kind,
        "longest_with_every_request_answered": plain[0] if plain else None,
        "noted_over_s": STALL_NOTE_S,
        "count": len(every),
    }


async def _chaos(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    redis = _AofRedis(workdir, "always")
    await redis.start()
    env = {**COMMON_ENV, **CHAOS_ENV}
    entry = [sys.executable, args.server_entry] if args.server_entry else [sys.executable, "-m", "meja.cli"]
    servers = [_Server(label, entry, redis, env, workdir) for label in ("a", "b")]
    run = _Run(args, redis, servers)
    run.seeds = random.Random(args.seed)
    try:
        for server in servers:
            await server.start()
        await run.play()
        statuses = [await asyncio.to_thread(s.terminate) for s in servers]
        report = await asyncio.to_thread(_audit, redis.url, run.claims(), workdir)
    finally:
        for server in servers:
            await asyncio.to_thread(server.kill)
        redis.stop()
    tracebacks = [t for s in servers for t in s.tracebacks()]
    per_table = {e["table"]: e for e in report["per_table"]}
    whole_ids = {t.table_id for t in run.tables if t.whole}

    def finished(ids: set[str]) -> int:
        return sum(int(per_table.get(i, {}).get("matches_finished", 0)) for i in ids)

    one_round_ids = {t.table_id for t in run.tables if not t.whole}
    slots_done = {t.slot for t in run.tables if per_table.get(t.table_id, {}).get("matches_finished", 0)}
    outage = max((f.get("outage_s", 0.0) for f in run.faults if f["kind"] == "redis_restart"), default=0.0)
    bound = stall_bound_s(env, pace_s=args.pace, redis_outage_s=outage)
    stalls = _stalls(run)
    longest = stalls["longest"]["seconds"] if stalls["longest"] else 0.0
    human_actions = sum(
        int(e.get("actions_by_seat", {}).get(str(s), 0))
        for e in report["per_table"]
        if e.get("replayed")
        for s in (0, 1)
    )
    stats = run.stats
    doc: dict[str, Any] = {
        "benchmark": "chaos",
        "minutes": args.minutes,
        "elapsed_s": round(run.elapsed_s, 1),
        "slots": args.tables,
        "whole_match_slots": args.whole,
        "tables": len(run.tables),
        "processes": len(servers),
        "seed": args.seed,
        "every_s": args.every,
        "pace_s": args.pace,
        "target": args.target,
        "redis": "private redis-server, appendonly yes, appendfsync always",
        "server_env": env,
        "grace_s": GRACE_S,
        "faults": run.faults,
        "faults_by_kind": dict(Counter(f["kind"] for f in run.faults)),
        "fault_errors": [f for f in run.faults if "error" in f],
        "matches_finished": report["matches_finished"],
        "whole_matches_finished": finished(whole_ids),
        "one_round_matches_finished": finished(one_round_ids),
        "slots_with_a_finished_match": len(slots_done),
        "whole_slots_with_a_finished_match": len({s for s in slots_done if s >= args.tables - args.whole}),
        # Whole-match tables whose people saw the match end, but whose log does not end a match (must be 0).
        "seen_over_but_not_finished": sum(
            1
            for t in run.tables
            if t.whole and t.finished and not per_table.get(t.table_id, {}).get("matches_finished")
        ),
        "actions": report["actions"],
        "actions_per_s": round(report["actions"] / max(run.elapsed_s, 1e-9), 1),
        "human_actions": human_actions,
        "accepted_answers": stats.accepted,
        "lost": report["lost"],
        "applied_twice": report["doubled"],
        "refused_but_applied": report["refused_but_applied"],
        "rematches": {
            "answered": stats.rematches,
            "lost": report["rematches_lost"],
            "doubled": report["rematches_doubled"],
        },
        "replayed_tables": report["replayed"],
        "replay_failures": report["replay_failures"],
        "unverified_actions": report["unverified_actions"],
        "matches_dealt_from": report["matches_dealt_from"],
        "by_server_for_absent_players": report["by_server"],
        "unanswered_but_applied": report["explained_by_unanswered"],
        "audit_messages": report["messages"][:20],
        "stall": stalls,
        "longest_stall_s": longest,
        "stall_bound_s": bound,
        "stall_within_bound": longest <= bound["bound"],
        "resumes": stats.resumes,
        "resume_attempts_retried": stats.resume_retries,
        "resumes_failed": len(stats.resume_failures),
        "resume_failures": stats.resume_failures[:20],
        "refusals": dict(stats.refusals),
        "unexpected": stats.unexpected[:20],
        "unexpected_count": len(stats.unexpected),
        # Requests (actions, rematches) the server never answered on an open connection.
        "requests_unanswered": len(stats.no_answer),
        "closes": dict(stats.closes),
        "closes_by_fault": _closes_by_fault(run),
        # A live connection closed with 4001 although nobody else took its seat (the bench never replaces
        # one: a silent cut's connection is given up, not read): the page would not reconnect after it.
        "replaced_closes": stats.closes.get("4001", 0),
        "time_away_s": _away(run),
        "server_exit_statuses": statuses,
        "server_tracebacks": len(tracebacks),
        "server_traceback_samples": tracebacks[:3],
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        },
        "note": "timing figures (stalls, actions/s) depend on the machine and on what else runs on it",
    }
    doc["ok"] = bool(
        report["ok"]
        and not stats.resume_failures
        and doc["stall_within_bound"]
        and not doc["requests_unanswered"]
        and not doc["replaced_closes"]
        and not doc["seen_over_but_not_finished"]
    )
    return doc


# --------------------------------------------------------------------------- the command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a summary")
    parser.add_argument("--minutes", type=float, default=10.0, metavar="M", help="how long to play (default 10)")
    parser.add_argument("--tables", type=int, default=200, metavar="N", help="table slots of 3 seats (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the faults, their targets and the players")
    parser.add_argument(
        "--every", type=float, default=20.0, metavar="S", help="seconds between faults (default 20; 0: no faults)"
    )
    parser.add_argument(
        "--whole", type=int, metavar="K", help="slots that play whole matches, a new table each (default: a fifth)"
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.5,
        metavar="S",
        help="a person's thinking time per decision, 0.5 to 1.5 times S (default 0.5)",
    )
    parser.add_argument(
        "--target",
        type=int,
        default=100,
        metavar="P",
        help="points that end a whole match (default 100, the house rules')",
    )
    parser.add_argument("--workdir", metavar="DIR", help="keep Redis's files, the logs and the claims here")
    parser.add_argument(
        "--server-entry",
        metavar="SCRIPT",
        help="run the servers as `python SCRIPT serve ...` (tests plant bugs this way)",
    )


def _print_summary(doc: Mapping[str, Any]) -> None:
    stall = doc["stall"]["longest"]
    bound = doc["stall_bound_s"]
    print(
        f"meja bench chaos: {doc['elapsed_s'] / 60:.1f} min, {doc['slots']} table slots "
        f"({doc['whole_match_slots']} of whole matches; {doc['tables']} tables), {doc['processes']} processes, "
        f"Redis appendfsync always, seed {doc['seed']}"
    )
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(doc["faults_by_kind"].items()))
    print(f"  faults                 {len(doc['faults']):>8}   every {doc['every_s']} s: {kinds}")
    print(
        f"  matches finished       {doc['matches_finished']:>8}   ({doc['whole_matches_finished']} whole, "
        f"{doc['one_round_matches_finished']} of one round; {doc['slots_with_a_finished_match']} of "
        f"{doc['slots']} slots finished one)"
    )
    if doc["seen_over_but_not_finished"]:
        print(
            f"  seen over, not in log  {doc['seen_over_but_not_finished']:>8}   whole-match tables whose people saw "
            f"the match end, with no finished match in the log"
        )
    print(
        f"  actions                {doc['actions']:>8}   ({doc['actions_per_s']}/s; {doc['human_actions']} by "
        f"people, {doc['accepted_answers']} answered as applied)"
    )
    print(f"  lost                   {doc['lost']:>8}")
    print(
        f"  applied twice          {doc['applied_twice']:>8}   (refused but applied {doc['refused_but_applied']}; "
        f"rematches lost {doc['rematches']['lost']}, doubled {doc['rematches']['doubled']})"
    )
    print(
        f"  logs replayed          {doc['replayed_tables']:>8}   of {doc['tables']} tables to their stored "
        f"state ({doc['replay_failures']} failed, {doc['unverified_actions']} actions unverified)"
    )
    where = "none"
    if stall:
        cause = f"; {stall['cause']}" if stall["cause"] else ""
        where = f"table slot {stall['slot']} at {stall['began_at']} s, after {stall['after']}{cause}"
    print(
        f"  longest stall          {doc['longest_stall_s']:>8} s ({where}); bound {bound['bound']} s"
        f"{'' if doc['stall_within_bound'] else '  OVER THE BOUND'}"
    )
    by = ", ".join(f"{k} {v} s" for k, v in sorted(doc["stall"]["longest_by_fault"].items()))
    print(f"  longest stall by fault           {by}")
    print(
        f"  resumes                {doc['resumes']:>8}   ({doc['resume_attempts_retried']} attempts retried, "
        f"{doc['resumes_failed']} failed)"
    )
    if doc["requests_unanswered"]:
        plain = doc["stall"]["longest_with_every_request_answered"]
        print(
            f"  requests unanswered    {doc['requests_unanswered']:>8}   (on open connections, given up after "
            f"{ACT_TIMEOUT_S:.0f} s; longest stall without one: {plain['seconds'] if plain else 0} s)"
        )
    print(f"  refusals               {doc['refusals']}")
    print(f"  closes                 {doc['closes']}")
    away = doc["time_away_s"]
    print(
        f"  time away              p50 {away['p50']} s, p95 {away['p95']} s, max {away['max']} s "
        f"(connection lost to seat back; by fault: {away['longest_by_fault']})"
    )
    if doc["replaced_closes"]:
        print(
            f"  closed with 4001       {doc['replaced_closes']:>8}   live connections told their seat was opened "
            f"elsewhere, which nobody did (the page does not reconnect after 4001), after "
            f"{ {k: v['4001'] for k, v in doc['closes_by_fault'].items() if '4001' in v} }"
        )
    if doc["server_tracebacks"]:
        print(f"  server tracebacks      {doc['server_tracebacks']:>8}")
    for line in doc["unexpected"][:5] + doc["resume_failures"][:5] + doc["audit_messages"][:5]:
        print(f"  ! {line}")
    print("  faults:")
    for f in doc["faults"]:
        extra = "".join(f", {k} {f[k]}" for k in ("outage_s", "exit_status", "error") if k in f)
        print(f"    {f['t']:>7.1f} s  {f['kind']:<14} {f.get('target', ''):<28} took {f.get('took_s')} s{extra}")
    print(f"  note: {doc['note']}")


def run(args: argparse.Namespace) -> int:
    """Run the chaos benchmark; print a summary (or JSON with ``--json``). The exit status."""
    if args.whole is None:
        args.whole = args.tables // 5
    if args.tables < 1 or args.minutes <= 0 or not 0 <= args.whole <= args.tables or args.pace < 0:
        print("meja bench chaos: --tables at least 1, --minutes above 0, --whole within --tables", file=sys.stderr)
        return 2
    try:
        if args.workdir:
            workdir = Path(args.workdir)
            workdir.mkdir(parents=True, exist_ok=True)
            doc = asyncio.run(_chaos(args, workdir))
        else:
            with tempfile.TemporaryDirectory(prefix="meja-chaos-") as tmp:
                doc = asyncio.run(_chaos(args, Path(tmp)))
    except RuntimeError as exc:
        print(f"meja bench chaos: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        _print_summary(doc)
    return 0 if doc["ok"] else 1
