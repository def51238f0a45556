"""``meja bench server``: real ``meja serve`` processes and a real Redis under scripted players.

    meja bench server [--json] [--tables N] [--seconds S] [--processes P] [--redis URL]
                      [--pace S] [--warmup S] [--no-echo] [--game G] [--options JSON] [--seats N]
                      [--humans H] [--search-tables K] [--search-seats N] [--search-level L]
                      [--bot-workers W] [--talk-flood K] [--frames whole|diffs]
                      [--compare-frames GAME:SEATS:HUMANS[:TABLES],...] [--rounds R]

What runs
---------
- a private ``redis-server`` (no persistence, a random free port), unless
  ``--redis URL`` names one: then every key goes under a fresh prefix, deleted
  at the end, and the Redis figures include whatever else that Redis is doing;
- ``P`` processes of ``meja serve --redis`` (``--port 0``: each tells its port
  in its log);
- this process: the load generator, on ``meja_client`` (client-protocol/), one
  asyncio loop. ``N`` tables of ``--game`` (the server's default game unless
  named) with ``--seats`` seats (3): ``--humans`` scripted players (2; seat 0
  hosts on process ``i mod P``, the others join on the next processes, so
  changes cross processes through Redis), bots in the other seats. A move is a
  step of the rules state's version in the host's view, so any game is counted
  alike. With ``--search-tables K``, K more tables of one scripted player and
  ``--search-level`` bots (``hard``: they search) load the servers, and the
  figures are the first N tables' (``--bot-workers`` sets the servers'
  ``bot_workers``: 0 puts the searches in a thread of the server process, as
  before issue 12, finding 7). With ``--talk-flood K``, K more tables each hold
  two people in a call, one of whom floods the table with talk as fast as the
  connection's rate limit lets it (reactions, chat lines, call updates and
  signals, never waiting for an answer): the measured tables' latency, set
  beside a run without it, says whether talk at one table slows another's
  moves (the talk limits refuse the flood before it reaches the store, so it
  should not). Players choose with
  ``meja_client.random_policy`` (a legal play when there is one, so rounds end);
  when a match ends the host starts a rematch, so every table plays for the
  whole run.

Frame forms
-----------
``--frames diffs`` makes the scripted players ask for updates in the patch form
(PROTOCOL.md 7.5; the default, ``whole``, is the form every figure before it
was taken in). ``--compare-frames`` measures, in one run, each listed table
layout (``GAME:SEATS:HUMANS``, optionally ``:TABLES``, else ``--tables``) with
whole views and then with patches, one after the other on the same Redis, with
the echo ceiling once per layout; it prints bytes, frames and server CPU per
move and moves per echo message side by side. ``--rounds R`` measures each form
R times, in turn (whole, patches; patches, whole; ...): on a machine whose load
drifts, both forms see the drift alike, and a form's figures are over all its
runs (its moves and CPU summed), each run's own in the JSON (e.g.
``--compare-frames A:3:2:500,B:10:10:100`` for a game A at 3 seats and a game B
that seats 10; docs/benchmarks.md names the games of its figures).

Two modes
---------
- **throughput** (the default): players act the moment they may, and the bots'
  thinking pause is set to zero (``MEJA_BOT_DELAY_*_MS=0``), so tables go as
  fast as the rules and the round trips let them. The per-connection rate limit
  is raised (``MEJA_RATE_PER_S=1000``): this mode measures the server, not the
  limit.
- **paced** (``--pace S``): each player thinks about ``S`` seconds (uniformly
  0.5 S to 1.5 S) before each decision and the bots keep the server's default
  pauses (600-1200 ms): a human-like load, e.g. ``--tables 1000 --pace 2``.
  It reports the latency percentiles at that load.

What it prints (over the measured window, after ``--warmup`` seconds)
---------------------------------------------------------------------
- **moves/s**: game actions committed (human and bot), counted from the host
  connection's updates (each committed version that carries an action);
- **latency** p50/p95/p99 of the players' actions: from just before ``act`` is
  sent to the moment the sender has the ``update`` answering it (its ``re``),
  i.e. until the sender's view shows its move;
- **server CPU per move**: user + system CPU of the ``meja serve`` processes
  (``/proc/<pid>/stat``, every thread), divided by moves; Redis's CPU (its
  ``INFO cpu``) and this generator's the same way;
- **Redis commands and round trips per move**, from ``INFO commandstats``
  (counts, not times; see :func:`redis_costs` for how round trips are told
  from the commands scripts run inside Redis);
- **bytes sent per move**: what the server sent to every client, frame payloads
  plus the WebSocket frame headers, divided by moves; frames per move too;
- **memory**: Redis ``MEMORY USAGE`` of a table's record and log (sampled at the
  end of the run, with the log's length), and the servers' resident memory per
  connection (RSS after every table is seated, minus RSS before any connection,
  over connections: it includes the cached tables);
- **the ceiling** (unless ``--no-echo``): the same generator drives a minimal
  echo server (:mod:`meja.bench.echo`) in ``P`` processes with as many
  connections, each sending a frame the size of an ``act`` and waiting for it
  to come back, for as long; ``moves/s`` divided by echo messages/s says how much
  of what this generator and machine can carry Meja gets to.

The cross-check with ``/metrics``
--------------------------------
The generator's own move count is checked against the servers' operators'
metrics (``meja_actions_total{outcome="accepted"}``, summed over the ``meja
serve`` processes; see :mod:`meja.server.metrics`), scraped over HTTP from
every process once the tables are seated, at both ends of the window, and once
more after the players stopped:

- **whole run** (exact): after the players stop, the generator waits (at most
  ``SETTLE_S``) until the tables are quiet and the host connections have read
  every update; then the actions the servers committed since the tables were
  seated must equal the moves the hosts saw. ``settled: false`` says they never
  agreed within the wait: a count is wrong somewhere (or a table never went
  quiet).
- **window** (within a bound): the window's edges cut through moves in flight,
  so the two counts differ by a little. The bound is computed from counts of the
  run, not from times: at each edge, the moves the hosts saw arrive while the
  scrape was under way (counted), plus :data:`IN_FLIGHT_PER_TABLE` actions per
  table that may be committed and still on their way to the host.

The JSON has both under ``metrics``, with the players' moves (``person``), the
refused actions by code and the Redis errors the servers counted over the run.
The generator's own ``errors`` are by code; ``refused_by_kind`` splits its refused
actions by the action's kind too: an out-of-turn action that several seats may
take at once (the first to claim something of another seat, say) is refused for
all but the first by design (``action/illegal``, or ``action/stale_version`` when the
next update had not reached the seat yet), in either frame form.

Timing figures depend on the machine and whatever else runs on it: the output
says so, and nothing here asserts a speed (tests/bench checks only that the
figures are consistent with what was played).

Only Linux: CPU and memory come from ``/proc``. Redis is read with
``redis-cli`` (installed with ``redis-server``), since the benchmarks, as entry
points, do not import the Redis client (tests/test_layering.py); ``/metrics`` is
fetched with a plain HTTP/1.1 GET on an asyncio stream (no HTTP client module)
and read with ``prometheus_client``'s text parser.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import re
import resource
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

# meja_client (client-protocol/python) is installed beside meja; mypy does not see editable installs.
from meja_client import (  # type: ignore[import-not-found, unused-ignore]
    Client,
    ConnectionClosed,
    ServerError,
    connect,
    encode,
    random_policy,
)
from prometheus_client.parser import text_string_to_metric_families

from meja.store.keys import Keys

from . import echo
from .procs import LOOPBACK_ENV, SERVING, Child, cli_binary, redis_command, serve_command, spawn, wait_for_line

__all__ = [
    "IN_FLIGHT_PER_TABLE",
    "MetricsScrape",
    "RedisCosts",
    "add_arguments",
    "frame_header_bytes",
    "percentile",
    "redis_costs",
    "run",
]


#: Commands a ``meja serve`` process sends to Redis itself (each one round trip), as
#: opposed to those its Lua scripts and MULTI blocks run inside Redis. ``hmget`` and
#: ``get`` are both: see :func:`redis_costs`.
TOP_LEVEL: Final = frozenset(
    {"evalsha", "eval", "exec", "lrange", "mget", "zrange", "subscribe", "unsubscribe", "ping", "script|load"}
)
#: What ``redis-cli`` sends for this benchmark itself; left out of every count.
OWN_COMMANDS: Final = frozenset(
    {"info", "memory|usage", "llen", "scan", "del", "dbsize", "command", "command|docs", "config|get", "hello"}
)

THROUGHPUT_ENV: Final = {
    "MEJA_BOT_DELAY_MIN_MS": "0",
    "MEJA_BOT_DELAY_MAX_MS": "0",
    "MEJA_HOLD_DELAY_MS": "0",
    "MEJA_READY_DELAY_MS": "0",
    "MEJA_RATE_PER_S": "1000",
    "MEJA_RATE_BURST": "1000",
    "MEJA_PRIVATE_STEPS_PER_S": "100000",
}
#: Every generator connection comes from 127.0.0.1: lift the per-address limits.
COMMON_ENV: Final = {**LOOPBACK_ENV, "MEJA_MAX_CONNECTIONS": "100000", "MEJA_LOG_LEVEL": "INFO"}
GRACE_S: Final = 600  # absent players keep their seats for the whole run
CAVEAT: Final = (
    "timing figures depend on the machine and on what else runs on it; the generator shares the machine "
    "with the servers and Redis (moves_per_echo_message tells how close to this generator's ceiling the run got)"
)
#: How long to wait for a process to start, or a request to be answered, in seconds.
START_TIMEOUT_S: Final = 60.0
REQUEST_TIMEOUT_S: Final = 60.0
#: How long the whole-run cross-check waits for the tables to go quiet after the players stop.
SETTLE_S: Final = 20.0
#: Actions of one table that may be committed and not yet read by its host at a window's edge:
#: one per seat (a player's, and a bot's right behind it, each on its way to the host).
IN_FLIGHT_PER_TABLE: Final = 3


# --------------------------------------------------------------------------- figures


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, by linear interpolation; ``nan`` if empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def frame_header_bytes(payload: int) -> int:
    """The bytes of an unmasked WebSocket frame header (server to client) for a ``payload``-byte frame."""
    if payload < 126:
        return 2
    if payload < 65536:
        return 4
    return 10


@dataclass(frozen=True, slots=True)
class RedisCosts:
    """Redis work over a window: every command it ran, and the round trips clients made."""

    commands: int
    round_trips: int
    by_command: dict[str, int]
    #: commands the clients sent (a script call is one; a MULTI block is MULTI, its commands, EXEC)
    sent: int = 0


def redis_costs(delta: Mapping[str, int]) -> RedisCosts:
    """Commands and round trips from a window's ``INFO commandstats`` call counts (``delta``).

    ``commandstats`` counts every command Redis ran, those a Lua script or a
    MULTI block ran inside Redis included, so *commands* is their plain sum (less
    this benchmark's own ``redis-cli`` calls). A *round trip* is a request a
    server process sent and waited for: an EVALSHA (one script run), an EXEC (a
    MULTI block sent as one pipeline), and the plain reads the store sends alone
    (:data:`TOP_LEVEL`). Three commands are sent both alone and by scripts:

    - ``hmget``: ``load`` sends it alone, and the commit script starts with one.
      Commit scripts are the script runs that are not one of the others, each of
      which runs a command no other script runs: ``zrangebyscore`` (claim), ``exists``
      (create), ``incr`` (rate-limit hit) and ``get`` (heartbeat);
    - ``get``: room-code lookups send it alone, the heartbeat script runs one;
    - ``zrange``: ``next_due_ms`` sends it alone; the timer loop's poll script
      (``poll_due``: claim, then the next due time) runs one after its
      ``zrangebyscore``, and the timer loop no longer claims any other way, so
      every ``zrangebyscore`` in the window comes with one ``zrange`` of a script.

    *Sent* commands are what the clients put on the wire: each round trip is one
    command, except a MULTI block, which is MULTI, its commands and EXEC; the one
    MULTI block a server sends on one Redis is ``finish_due``'s (ZREM, HDEL:
    ``tests/store/test_store_redis.py`` checks it), so each EXEC adds three.

    The benchmark seats every table before its window opens, so in the window
    there are no lookups (every ``get`` is a heartbeat's) and no creates; a
    process started in the window (none is) would add a ``shift`` script, not
    told apart here.
    """
    counts = {k: v for k, v in delta.items() if k not in OWN_COMMANDS and v > 0}
    scripts = counts.get("evalsha", 0) + counts.get("eval", 0)
    heartbeats = counts.get("get", 0)
    others = counts.get("zrangebyscore", 0) + counts.get("exists", 0) + counts.get("incr", 0) + heartbeats
    commits = max(0, scripts - others)
    loads = max(0, counts.get("hmget", 0) - commits)
    polled = min(counts.get("zrange", 0), counts.get("zrangebyscore", 0))  # the poll script's own zrange
    round_trips = sum(v for k, v in counts.items() if k in TOP_LEVEL) + loads - polled
    sent = round_trips + 3 * counts.get("exec", 0)
    return RedisCosts(sum(counts.values()), round_trips, dict(sorted(counts.items())), sent)


# --------------------------------------------------------------------------- /metrics


@dataclass(frozen=True, slots=True)
class MetricsScrape:
    """The figures of one ``/metrics`` scrape of each server process, summed over the processes."""

    accepted: dict[str, int]  # by source: person, bot, timer, other
    rejected: dict[str, int]  # players' refused actions, by error code
    redis_errors: int
    latency_count: int

    @property
    def moves(self) -> int:
        return sum(self.accepted.values())

    @classmethod
    def parse(cls, texts: Iterable[str]) -> MetricsScrape:
        """Sum the scrapes ``texts`` (one per process)."""
        accepted: Counter[str] = Counter()
        rejected: Counter[str] = Counter()
        redis_errors = latency = 0
        for text in texts:
            for family in text_string_to_metric_families(text):
                for sample in family.samples:
                    if not math.isfinite(sample.value):  # a gauge with nothing to report (NaN)
                        continue
                    labels, value = sample.labels, int(sample.value)
                    if sample.name == "meja_actions_total":
                        if labels.get("outcome") == "accepted":
                            accepted[labels.get("source", "")] += value
                        elif value:
                            rejected[labels.get("outcome", "")] += value
                    elif sample.name == "meja_redis_errors_total":
                        redis_errors += value
                    elif sample.name == "meja_move_latency_seconds_count":
                        latency += value
        return cls(dict(accepted), dict(rejected), redis_errors, latency)

    def since(self, earlier: MetricsScrape) -> MetricsScrape:
        def minus(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
            return {k: v - b.get(k, 0) for k, v in a.items() if v - b.get(k, 0)}

        return MetricsScrape(
            {k: v - earlier.accepted.get(k, 0) for k, v in self.accepted.items()},
            minus(self.rejected, earlier.rejected),
            self.redis_errors - earlier.redis_errors,
            self.latency_count - earlier.latency_count,
        )


async def _http_get(url: str, timeout: float = REQUEST_TIMEOUT_S) -> str:
    """The body of a 200 answer to ``GET url`` (``http://host:port/path``), over one asyncio stream."""
    found = re.fullmatch(r"http://([^:/]+):(\d+)(/.*)", url)
    if found is None:
        raise ValueError(f"not an http://host:port/path URL: {url!r}")
    host, port, path = found.group(1), int(found.group(2)), found.group(3)
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)  # the server closes after its answer
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0]
    if not re.match(rb"HTTP/1\.[01] 200 ", status):
        raise RuntimeError(f"GET {url}: {status.decode(errors='replace')}")
    return body.decode()


async def _scrape(urls: Sequence[str]) -> MetricsScrape:
    """``/metrics`` of every server (``urls`` are their websocket URLs), summed."""
    pages = [re.sub(r"^ws://([^/]+)/ws$", r"http://\1/metrics", url) for url in urls]
    return MetricsScrape.parse(await asyncio.gather(*(_http_get_again(page) for page in pages)))


async def _http_get_again(url: str, attempts: int = 3) -> str:
    """:func:`_http_get`, tried again after a moment when it gets no answer (a server whose core
    other work keeps busy has closed a scrape's connection before answering: a run was lost so)."""
    for attempt in range(attempts):
        try:
            return await _http_get(url)
        except (RuntimeError, OSError, TimeoutError):
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


# --------------------------------------------------------------------------- processes


class _Redis:
    """The Redis under test, spoken to with ``redis-cli``."""

    def __init__(self, url: str, child: Child | None, prefix: str) -> None:
        self.url = url
        self.child = child
        self.prefix = prefix
        self._cli = cli_binary()

    @classmethod
    async def start(cls, workdir: Path) -> _Redis:
        rand = random.Random()
        last = ""
        for _ in range(20):  # a random port; another one if it is taken
            port = rand.randrange(20_000, 60_000)
            cmd = redis_command(port, workdir)
            child = spawn(f"redis-{port}", cmd, workdir)
            redis = cls(f"redis://127.0.0.1:{port}/0", child, "meja:")
            for _ in range(200):
                if child.popen.poll() is not None:
                    break
                if redis.cli("PING").strip() == "PONG":
                    return redis
                await asyncio.sleep(0.05)
            last = child.output()
            child.stop()
        raise RuntimeError(f"could not start redis-server:\n{last}")

    def cli(self, *args: str) -> str:
        done = subprocess.run(
            [self._cli, "-u", self.url, *args], capture_output=True, text=True, timeout=60, check=False
        )
        return done.stdout

    def info(self, section: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for line in self.cli("INFO", section).splitlines():
            if ":" in line and not line.startswith("#"):
                key, _, value = line.partition(":")
                out[key.strip()] = value.strip()
        return out

    def commandstats(self) -> dict[str, int]:
        """Calls per command so far (``cmdstat_evalsha:calls=12,...`` -> ``{"evalsha": 12}``)."""
        out: dict[str, int] = {}
        for key, value in self.info("commandstats").items():
            if key.startswith("cmdstat_"):
                calls = re.search(r"calls=(\d+)", value)
                if calls:
                    out[key[len("cmdstat_") :]] = int(calls.group(1))
        return out

    def cpu_s(self) -> float:
        cpu = self.info("cpu")
        return float(cpu.get("used_cpu_sys", 0)) + float(cpu.get("used_cpu_user", 0))

    def used_memory(self) -> int:
        return int(self.info("memory").get("used_memory", 0))

    def table_memory(self, table_ids: Sequence[str]) -> dict[str, float]:
        """Mean ``MEMORY USAGE`` of the tables' record and log keys, and the logs' mean length."""
        recs, logs, lengths = [], [], []
        for table_id in table_ids:
            names = Keys(self.prefix).table(table_id)  # the store's own key names
            rec = self.cli("MEMORY", "USAGE", names.record, "SAMPLES", "0").strip()
            log = self.cli("MEMORY", "USAGE", names.log, "SAMPLES", "0").strip()
            llen = self.cli("LLEN", names.log).strip()
            if rec.isdigit() and log.isdigit() and llen.isdigit():
                recs.append(int(rec))
                logs.append(int(log))
                lengths.append(int(llen))
        if not recs:
            return {}
        return {
            "tables_sampled": len(recs),
            "record_bytes": statistics.fmean(recs),
            "log_bytes": statistics.fmean(logs),
            "log_entries": statistics.fmean(lengths),
            "log_bytes_per_entry": sum(logs) / max(1, sum(lengths)),
            "total_bytes": statistics.fmean(recs) + statistics.fmean(logs),
        }

    def cleanup(self) -> None:
        """Delete this run's keys (only needed on a Redis we did not start)."""
        keys = self.cli("--scan", "--pattern", f"{self.prefix}*").split()
        for start in range(0, len(keys), 500):
            self.cli("DEL", *keys[start : start + 500])

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()


_PORT_LINE = re.compile(r"^(\d+)\s*$", re.MULTILINE)


async def _start_servers(count: int, store_url: str, env: Mapping[str, str], workdir: Path) -> list[tuple[Child, str]]:
    """``count`` processes of ``meja serve --redis store_url``; each with its websocket URL."""
    full_env = {**os.environ, **COMMON_ENV, **env}
    children = [
        spawn(
            f"meja-{i}",
            serve_command(0, store_url),
            workdir,
            full_env,
        )
        for i in range(count)
    ]
    out = []
    for child in children:
        found = await wait_for_line(child, SERVING, START_TIMEOUT_S)
        out.append((child, f"ws://127.0.0.1:{found.group(1)}/ws"))
    return out


async def _start_echo(count: int, workdir: Path) -> list[tuple[Child, str]]:
    children = [spawn(f"echo-{i}", echo.command(), workdir) for i in range(count)]
    out = []
    for child in children:
        found = await wait_for_line(child, _PORT_LINE, START_TIMEOUT_S)
        out.append((child, f"ws://127.0.0.1:{found.group(1)}/ws"))
    return out


# --------------------------------------------------------------------------- the generator


@dataclass
class _Counters:
    """What the generator saw; cumulative, read at the window's two ends."""

    moves: int = 0
    human_moves: int = 0
    frames: int = 0
    payload_bytes: int = 0
    header_bytes: int = 0
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (when answered, seconds)
    errors: Counter[str] = field(default_factory=Counter)
    #: the refused actions by code and the action's kind (``"action/illegal <kind>"``): out-of-turn
    #: actions that lost a race to another seat's are refused by design, and show here as such
    refused: Counter[str] = field(default_factory=Counter)

    def snapshot(self) -> dict[str, int]:
        return {
            "moves": self.moves,
            "human_moves": self.human_moves,
            "frames": self.frames,
            "payload_bytes": self.payload_bytes,
            "header_bytes": self.header_bytes,
        }


class _Seat:
    """One scripted player: its connection, and the bookkeeping that keeps memory flat."""

    def __init__(self, client: Client, counters: _Counters, *, counts_moves: bool) -> None:
        self.client = client
        self.counters = counters
        self.counts_moves = counts_moves  # the host counts every committed action once
        self._done = 0  # messages of client.messages already accounted for
        self._view_version: int | None = None  # the rules state's version in the last view counted

    def account(self) -> None:
        """Count the frames and moves received since the last call."""
        client, counters = self.client, self.counters
        frames = client.frames
        if frames:
            for frame in frames:
                size = len(frame)
                counters.payload_bytes += size
                counters.header_bytes += frame_header_bytes(size)
            counters.frames += len(frames)
            frames.clear()
        messages = client.messages
        if self.counts_moves:
            # Every game's view carries the rules state's version, one up per action (meja.rules.game.View):
            # the moves are its steps, whatever the game. A rematch starts it again from the deal's.
            for message in messages[self._done :]:
                view = message.get("view") if message.get("type") in ("update", "state") else None
                if not isinstance(view, dict) or not isinstance(view.get("version"), int):
                    continue
                version = view["version"]
                if self._view_version is not None:
                    counters.moves += version - self._view_version if version >= self._view_version else version
                self._view_version = version
        self._done = len(messages)

    def trim(self) -> None:
        """Forget what was received (only between requests: ``request`` indexes ``messages``)."""
        self.account()
        client = self.client
        for kept in (client.messages, client.events, client.event_versions, client.updates, client.errors):
            kept.clear()
        self._done = 0


async def _play(seat: _Seat, *, is_host: bool, seed: int, pace: float | None, stop: asyncio.Event) -> None:
    """Play ``seat`` until ``stop``: act on each new decision (after a human-like pause if ``pace``)."""
    client, counters = seat.client, seat.counters
    policy = random_policy(seed)
    rand = random.Random(seed)
    acted_at: int | None = None

    def next_step(c: Client) -> bool:
        if stop.is_set():
            return True
        view = c.view
        if view is None:
            return False
        if is_host and view.get("phase") == "match_over":
            return True
        return bool(c.status == "playing" and view.get("legal") and c.version != acted_at)

    while not stop.is_set():
        try:
            await client.wait_for(next_step, timeout=1.0)
        except TimeoutError:
            continue
        except ConnectionClosed:
            counters.errors["connection closed"] += 1
            return
        if stop.is_set():
            return
        view = client.view
        assert view is not None
        if pace is not None:
            await asyncio.sleep(pace * rand.uniform(0.5, 1.5))
            if stop.is_set():
                return
            view = client.view
            assert view is not None
        seat.trim()
        action: dict[str, Any] | None = None
        try:
            if is_host and view.get("phase") == "match_over":
                await client.rematch(timeout=REQUEST_TIMEOUT_S)
                continue
            if not view.get("legal") or client.status != "playing":
                continue
            version = client.version
            acted_at = version
            action = policy(view)
            started = time.perf_counter()
            await client.act(action, version=version, timeout=REQUEST_TIMEOUT_S)
            answered = time.perf_counter()
            counters.latencies.append((answered, answered - started))
            counters.human_moves += 1
        except ServerError as exc:
            counters.errors[exc.code] += 1
            if action is not None:
                counters.refused[f"{exc.code} {action.get('kind')}"] += 1
        except ConnectionClosed:
            counters.errors["connection closed"] += 1
            return
        except TimeoutError:
            counters.errors["timeout"] += 1


@dataclass
class _Table:
    table_id: str
    seats: list[_Seat]


@dataclass(frozen=True)
class _Layout:
    """What a table of the run is: its game and options, seat count, scripted players, bots' level."""

    game: str | None
    options: dict[str, Any] | None
    seats: int
    humans: int
    bots: str | None = None
    #: the players ask for updates in the patch form (PROTOCOL.md 7.5)
    diffs: bool = False


async def _seat_table(n: int, urls: Sequence[str], counters: _Counters, layout: _Layout) -> _Table:
    """Host table ``n`` on one process, seat the other players through the next ones, bots in the rest."""
    host = await connect(urls[n % len(urls)], record=True, diffs=layout.diffs, open_timeout=REQUEST_TIMEOUT_S)
    joined = await host.host(
        name=f"Host {n}",
        game=layout.game,
        options=layout.options,
        seats=layout.seats,
        bots=layout.bots,
        grace_s=GRACE_S,
        timeout=REQUEST_TIMEOUT_S,
    )
    seats = [_Seat(host, counters, counts_moves=True)]
    for k in range(1, layout.humans):
        guest = await connect(
            urls[(n + k) % len(urls)], record=True, diffs=layout.diffs, open_timeout=REQUEST_TIMEOUT_S
        )
        await guest.join(table=joined["table"], name=f"Guest {n}.{k}", timeout=REQUEST_TIMEOUT_S)
        seats.append(_Seat(guest, counters, counts_moves=False))
    for seat in range(layout.humans, layout.seats):
        await host.seat_to(seat, "bot", timeout=REQUEST_TIMEOUT_S)
    return _Table(str(joined["table"]), seats)


async def _flood_talk(n: int, urls: Sequence[str], stop: asyncio.Event, sent: Counter[str]) -> list[Client]:
    """Table ``n`` of the talk flood: Ann and Bob in a call, Ann sending talk without pause until ``stop``."""
    ann = await connect(urls[n % len(urls)], open_timeout=REQUEST_TIMEOUT_S)
    joined = await ann.host(name=f"Flood {n}", grace_s=GRACE_S, timeout=REQUEST_TIMEOUT_S)
    bob = await connect(urls[(n + 1) % len(urls)], open_timeout=REQUEST_TIMEOUT_S)
    await bob.join(table=joined["table"], name=f"Bob {n}", timeout=REQUEST_TIMEOUT_S)
    await ann.call(mic=True, timeout=REQUEST_TIMEOUT_S)
    peer = (await bob.call(mic=True, timeout=REQUEST_TIMEOUT_S))["id"]
    table = str(joined["table"])
    floods: list[dict[str, Any]] = [
        {"type": "react", "table": table, "reaction": "clap"},
        {"type": "say", "table": table, "text": "spam spam spam"},
        {"type": "call", "table": table, "join": True, "mic": True, "speaking": True},
        {"type": "signal", "table": table, "to": 1, "peer": peer, "kind": "offer", "sdp": ["v=0\r\n" * 40]},
    ]

    async def flood() -> None:
        k = 0
        while not stop.is_set():
            message = floods[k % len(floods)]
            await ann.send({**message, "id": k})
            sent[str(message["type"])] += 1
            k += 1

    task = asyncio.create_task(flood())
    _FLOODS.append(task)
    return [ann, bob]


#: the flood tasks of a run (kept referenced until the run ends)
_FLOODS: list[asyncio.Task[None]] = []


def _flood_answers(clients: Sequence[Client]) -> dict[str, int]:
    """What the flooding connections were answered: accepted (a talk, call or ice) or refused, by code."""
    answers: Counter[str] = Counter()
    for client in clients[0::2]:
        for message in client.messages:
            if message.get("re") is None or message["type"] in ("welcome", "joined", "state", "update"):
                continue
            answers[message["code"] if message["type"] == "error" else "accepted"] += 1
    return dict(answers)


async def _gather_in_batches(coros: Iterable[Any], batch: int = 50) -> list[Any]:
    pending = list(coros)
    out: list[Any] = []
    for start in range(0, len(pending), batch):
        out += await asyncio.gather(*pending[start : start + batch])
    return out


def _core_ticks() -> list[tuple[int, int]]:
    """(busy, total) clock ticks of each core since boot (``/proc/stat``; empty where there is none)."""
    out: list[tuple[int, int]] = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/stat").read_text().splitlines():
            name, *values = line.split()
            if name.startswith("cpu") and name != "cpu":
                ticks = [int(v) for v in values[:8]]  # user nice system idle iowait irq softirq steal
                idle = ticks[3] + ticks[4]
                out.append((sum(ticks) - idle, sum(ticks)))
    return out


def cores_busy(before: Sequence[tuple[int, int]], after: Sequence[tuple[int, int]]) -> list[float]:
    """How busy each core was between two :func:`_core_ticks` readings, in percent."""
    return [
        round(100 * (b1 - b0) / (t1 - t0), 1) if t1 > t0 else 0.0
        for (b0, t0), (b1, t1) in zip(before, after, strict=False)
    ]


def _cpu_self_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _system_cpu_s(pid: int) -> float:
    """The system (kernel) part of process ``pid``'s CPU seconds, from ``/proc``: its sockets' work,
    what a frame's size costs beyond its encoding."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    return int(text.rsplit(")", 1)[1].split()[12]) / os.sysconf("SC_CLK_TCK")  # stime (field 15)


@dataclass
class _Snapshot:
    when: float
    counters: dict[str, int]
    server_cpu: float
    server_system_cpu: float
    redis_cpu: float
    generator_cpu: float
    commandstats: dict[str, int]
    cores: list[tuple[int, int]]


def _take(counters: _Counters, seats: Sequence[_Seat], servers: Sequence[Child], redis: _Redis) -> _Snapshot:
    for seat in seats:
        seat.account()
    return _Snapshot(
        when=time.perf_counter(),
        counters=counters.snapshot(),
        server_cpu=sum(s.cpu_s() for s in servers),
        server_system_cpu=sum(_system_cpu_s(s.pid) for s in servers),
        redis_cpu=redis.cpu_s(),
        generator_cpu=_cpu_self_s(),
        commandstats=redis.commandstats(),
        cores=_core_ticks(),
    )


async def _edge(urls: Sequence[str], seats: Sequence[_Seat], counters: _Counters) -> tuple[MetricsScrape, int]:
    """Scrape the servers at a window's edge; with the moves the hosts saw arrive meanwhile."""
    before = counters.moves
    scrape = await _scrape(urls)
    for seat in seats:
        seat.account()
    return scrape, counters.moves - before


async def _settle(
    urls: Sequence[str], seats: Sequence[_Seat], counters: _Counters, seated: MetricsScrape, moves_seated: int
) -> tuple[bool, MetricsScrape]:
    """After the players stopped: wait (at most ``SETTLE_S``) until the servers' count of actions since
    ``seated`` equals the moves the hosts saw since then. Whether it did, and the last scrape (since ``seated``)."""
    deadline = time.monotonic() + SETTLE_S
    while True:
        for seat in seats:
            seat.account()
        scrape = (await _scrape(urls)).since(seated)
        if scrape.moves == counters.moves - moves_seated:
            return True, scrape
        if time.monotonic() > deadline:
            return False, scrape
        await asyncio.sleep(0.2)


async def _close_all(clients: Iterable[Client]) -> None:
    async def close(client: Client) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.close(), 10)

    await _gather_in_batches([close(c) for c in clients], batch=200)


async def _measure_game(args: argparse.Namespace, redis: _Redis, workdir: Path) -> dict[str, Any]:
    env = {} if args.pace is not None else dict(THROUGHPUT_ENV)
    env["MEJA_BOT_WORKERS"] = str(args.bot_workers)
    options = json.loads(args.options) if args.options else None
    diffs = args.frames == "diffs"
    layout = _Layout(args.game, options, args.seats, args.humans, diffs=diffs)
    search = _Layout(args.game, options, args.search_seats, 1, args.search_level, diffs=diffs)
    store_url = redis.url if redis.child is not None else f"{redis.url}?prefix={redis.prefix}"
    started = await _start_servers(args.processes, store_url, env, workdir)
    servers = [child for child, _ in started]
    urls = [url for _, url in started]
    counters = _Counters()
    tables: list[_Table] = []
    search_tables: list[_Table] = []
    try:
        await asyncio.sleep(0.5)
        rss_before = sum(s.rss() for s in servers)
        memory_before = redis.used_memory()
        tables = await _gather_in_batches(_seat_table(n, urls, counters, layout) for n in range(args.tables))
        seats = [seat for table in tables for seat in table.seats]
        # Tables whose bots search: their scripted player keeps them going; the figures are the others'.
        searching = _Counters()
        search_tables = await _gather_in_batches(
            _seat_table(args.tables + n, urls, searching, search) for n in range(args.search_tables)
        )
        flood_stop = asyncio.Event()
        flood_sent: Counter[str] = Counter()
        flooders = [
            client
            for n in range(args.talk_flood)
            for client in await _flood_talk(args.tables + args.search_tables + n, urls, flood_stop, flood_sent)
        ]
        rss_seated = sum(s.rss() for s in servers)
        connections = len(seats)
        for seat in seats:
            seat.account()
        moves_seated = counters.moves
        seated = await _scrape(urls)

        stop = asyncio.Event()
        # Start every table, then let the players loose.
        await _gather_in_batches(t.seats[0].client.start(timeout=REQUEST_TIMEOUT_S) for t in tables + search_tables)
        rand = random.Random(args.seed)
        tasks = [
            asyncio.create_task(_play(seat, is_host=i == 0, seed=rand.randrange(1 << 30), pace=args.pace, stop=stop))
            for table in tables + search_tables
            for i, seat in enumerate(table.seats)
        ]
        await asyncio.sleep(args.warmup)
        # The scrapes lie just outside the window (their Redis calls and CPU are not the moves').
        edge_first = await _edge(urls, seats, counters)
        first = _take(counters, seats, servers, redis)
        await asyncio.sleep(args.seconds)
        last = _take(counters, seats, servers, redis)
        edge_last = await _edge(urls, seats, counters)
        memory_after = redis.used_memory()
        flood_window = dict(flood_sent)
        stop.set()
        flood_stop.set()
        await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT_S)
        for task in tasks:
            task.cancel()
        settled, run_metrics = await _settle(urls, seats, counters, seated, moves_seated)
        run_moves = counters.moves - moves_seated
        table_memory = redis.table_memory([t.table_id for t in tables[:50]])
        rss_end = sum(s.rss() for s in servers)
    finally:
        for task in _FLOODS:
            task.cancel()
        _FLOODS.clear()
        await _close_all(seat.client for table in tables + search_tables for seat in table.seats)
        await _close_all(flooders if "flooders" in locals() else [])
        for child in servers:
            child.stop()

    elapsed = last.when - first.when
    window = {k: last.counters[k] - first.counters[k] for k in last.counters}
    moves = window["moves"]
    per_move = 1.0 / moves if moves else float("nan")
    latencies = [lat for when, lat in counters.latencies if first.when < when <= last.when]
    delta = {k: v - first.commandstats.get(k, 0) for k, v in last.commandstats.items()}
    costs = redis_costs(delta)
    in_window = edge_last[0].since(edge_first[0])
    bound = edge_first[1] + edge_last[1] + 2 * IN_FLIGHT_PER_TABLE * len(tables)
    metrics = {
        "window": {
            "moves": in_window.moves,
            "bench_moves": moves,
            "difference": in_window.moves - moves,
            "bound": bound,
            "agree": abs(in_window.moves - moves) <= bound,
            "by_source": in_window.accepted,
            "latency_count": in_window.latency_count,
            "bench_human_moves": window["human_moves"],
        },
        "run": {
            "moves": run_metrics.moves,
            "bench_moves": run_moves,
            "difference": run_metrics.moves - run_moves,
            "settled": settled,
            "by_source": run_metrics.accepted,
        },
        "rejected": run_metrics.rejected,
        "redis_errors": run_metrics.redis_errors,
    }
    return {
        "frames": args.frames,
        "connections": connections,
        "window_s": round(elapsed, 3),
        "moves": moves,
        "moves_per_s": round(moves / elapsed, 1),
        "human_moves": window["human_moves"],
        "latency_ms": _latency_summary(latencies),
        "server_cpu_ms_per_move": round((last.server_cpu - first.server_cpu) * 1000 * per_move, 3),
        "server_cpu_percent": round(100 * (last.server_cpu - first.server_cpu) / elapsed, 1),
        "server_system_cpu_ms_per_move": round((last.server_system_cpu - first.server_system_cpu) * 1000 * per_move, 3),
        "redis_cpu_ms_per_move": round((last.redis_cpu - first.redis_cpu) * 1000 * per_move, 3),
        "generator_cpu_ms_per_move": round((last.generator_cpu - first.generator_cpu) * 1000 * per_move, 3),
        # whether the generator (one process, one core at most) was the limit, and how busy the machine was
        "generator_cpu_percent": round(100 * (last.generator_cpu - first.generator_cpu) / elapsed, 1),
        "cores_busy_percent": cores_busy(first.cores, last.cores),
        "redis": {
            "commands_per_move": round(costs.commands * per_move, 2),
            "commands_sent_per_move": round(costs.sent * per_move, 2),
            "round_trips_per_move": round(costs.round_trips * per_move, 2),
            "calls_per_move": {k: round(v * per_move, 3) for k, v in costs.by_command.items()},
        },
        "bytes_per_move": round((window["payload_bytes"] + window["header_bytes"]) * per_move, 1),
        "payload_bytes_per_move": round(window["payload_bytes"] * per_move, 1),
        "frames_per_move": round(window["frames"] * per_move, 2),
        "memory": {
            "redis_table": {k: round(v, 1) for k, v in table_memory.items()},
            "redis_used_bytes_per_table": round((memory_after - memory_before) / max(1, len(tables)), 1),
            "server_rss_bytes_per_connection": round((rss_seated - rss_before) / max(1, connections), 1),
            "server_rss_bytes_start": rss_before,
            "server_rss_bytes_end": rss_end,
        },
        "errors": dict(counters.errors),
        "refused_by_kind": dict(counters.refused),
        "metrics": metrics,
        "talk_flood": {
            "tables": args.talk_flood,
            "sent": flood_window,
            "answers": _flood_answers(flooders),
        },
        "search_tables": {
            "tables": args.search_tables,
            "seats": args.search_seats,
            "level": args.search_level,
            "bot_workers": args.bot_workers,
            "their_player_actions": len(searching.latencies),
        },
    }


def _latency_summary(latencies: Sequence[float]) -> dict[str, float]:
    ms = [x * 1000 for x in latencies]
    return {
        "count": len(ms),
        "p50": round(percentile(ms, 50), 2),
        "p95": round(percentile(ms, 95), 2),
        "p99": round(percentile(ms, 99), 2),
        "max": round(max(ms), 2) if ms else float("nan"),
    }


async def _echo_loop(client: Client, n: int, stop: asyncio.Event, done: list[tuple[float, float]]) -> None:
    """One echo connection: send a frame the size of an ``act``, wait for it to come back, again."""
    table = secrets.token_hex(16)

    def back(c: Client, rid: int, start: int, version: int | None) -> bool:
        return any(m.get("id") == rid for m in c.messages[start:])

    while not stop.is_set():
        client.messages.clear()
        started = time.perf_counter()
        # The fields of an act; "pong" so that the client files the echo as a message.
        fields = {"table": table, "version": 40 + n % 100, "action": {"kind": "draw"}}
        try:
            await client.request("pong", fields, back, timeout=REQUEST_TIMEOUT_S)
        except (ConnectionClosed, TimeoutError):
            return
        answered = time.perf_counter()
        done.append((answered, answered - started))


async def _measure_echo(args: argparse.Namespace, connections: int, workdir: Path) -> dict[str, Any]:
    started = await _start_echo(args.processes, workdir)
    children = [child for child, _ in started]
    urls = [url for _, url in started]
    clients: list[Client] = []
    try:
        for start in range(0, connections, 100):
            batch = range(start, min(connections, start + 100))
            clients += await asyncio.gather(
                *(connect(urls[i % len(urls)], hello=False, open_timeout=REQUEST_TIMEOUT_S) for i in batch)
            )
        stop = asyncio.Event()
        done: list[tuple[float, float]] = []
        tasks = [asyncio.create_task(_echo_loop(c, i, stop, done)) for i, c in enumerate(clients)]
        await asyncio.sleep(args.warmup)
        first, cpu0, cores0 = time.perf_counter(), _cpu_self_s(), _core_ticks()
        server_cpu0 = sum(c.cpu_s() for c in children)
        await asyncio.sleep(args.seconds)
        last, cpu1, cores1 = time.perf_counter(), _cpu_self_s(), _core_ticks()
        server_cpu1 = sum(c.cpu_s() for c in children)
        stop.set()
        await asyncio.wait(tasks, timeout=REQUEST_TIMEOUT_S)
        for task in tasks:
            task.cancel()
    finally:
        await _close_all(clients)
        for child in children:
            child.stop()
    window = [lat for when, lat in done if first < when <= last]
    count = len(window)
    per = 1.0 / count if count else float("nan")
    return {
        "connections": len(clients),
        "messages": count,
        "messages_per_s": round(count / (last - first), 1),
        "latency_ms": _latency_summary(window),
        "server_cpu_ms_per_message": round((server_cpu1 - server_cpu0) * 1000 * per, 4),
        "generator_cpu_ms_per_message": round((cpu1 - cpu0) * 1000 * per, 4),
        "server_cpu_percent": round(100 * (server_cpu1 - server_cpu0) / (last - first), 1),
        "generator_cpu_percent": round(100 * (cpu1 - cpu0) / (last - first), 1),
        "cores_busy_percent": cores_busy(cores0, cores1),
        "frame_bytes": len(
            encode({"type": "pong", "id": 1, "table": "0" * 32, "version": 40, "action": {"kind": "draw"}})
        ),
    }


def parse_layouts(spec: str, tables: int) -> list[tuple[str, int, int, int]]:
    """``--compare-frames``: ``GAME:SEATS:HUMANS[:TABLES]`` layouts, comma-separated."""
    out = []
    for part in spec.split(","):
        fields = part.strip().split(":")
        if len(fields) not in (3, 4) or not all(f.isdigit() for f in fields[1:]):
            raise ValueError(f"not GAME:SEATS:HUMANS[:TABLES]: {part!r}")
        seats, humans = int(fields[1]), int(fields[2])
        if not 1 <= humans <= seats:
            raise ValueError(f"{part!r}: humans must be 1 to the seats")
        out.append((fields[0], seats, humans, int(fields[3]) if len(fields) == 4 else tables))
    return out


async def _compare_frames(args: argparse.Namespace, redis: _Redis, workdir: Path) -> list[dict[str, Any]]:
    """Each layout with whole views and with patches, ``--rounds`` times each in turn (whole,
    patches; then patches, whole; ...: a drift in the machine's load falls on both forms alike),
    and the echo ceiling at its connections once; a form's figures are over all its runs."""
    rows = []
    for game, seats, humans, tables in parse_layouts(args.compare_frames, args.tables):
        echo_rate: float | None = None
        runs: dict[str, list[dict[str, Any]]] = {"whole": [], "diffs": []}
        for round_ in range(args.rounds):
            for frames in ("whole", "diffs") if round_ % 2 == 0 else ("diffs", "whole"):
                run_args = argparse.Namespace(
                    **{**vars(args), "game": game, "seats": seats, "humans": humans, "tables": tables, "frames": frames}
                )
                # Each run on an empty Redis: the last run's tables (their bots' timers still due) would
                # otherwise go on playing on this run's servers and count in its CPU per move.
                redis.cleanup()
                runs[frames].append(await _measure_game(run_args, redis, workdir))
                if echo_rate is None and not args.no_echo:
                    echo_rate = (await _measure_echo(args, runs[frames][-1]["connections"], workdir))["messages_per_s"]
        for frames in ("whole", "diffs"):
            figures = over_runs(runs[frames])
            per_echo = round(figures["moves_per_s"] / echo_rate, 4) if echo_rate else None
            rows.append({
                "game": game, "seats": seats, "humans": humans, "tables": tables, "frames": frames, **figures,
                "echo_messages_per_s": echo_rate, "moves_per_echo_message": per_echo,
            })  # fmt: skip
    return rows


#: what the JSON keeps of each run of a form (``--rounds``)
_RUN_FIGURES: Final = (
    "moves", "moves_per_s", "bytes_per_move", "server_cpu_ms_per_move", "server_system_cpu_ms_per_move",
    "server_cpu_percent",
)  # fmt: skip


def over_runs(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The figures of one form over its runs (``_measure_game``'s): moves, the measured windows and
    the CPU summed (so a per-move figure is the total over the total moves), each run's own kept."""
    moves = sum(r["moves"] for r in runs)
    window = sum(r["window_s"] for r in runs)

    def per_move(name: str, digits: int) -> float:
        return round(sum(r[name] * r["moves"] for r in runs) / moves, digits) if moves else float("nan")

    def busy(name: str) -> float:
        return round(sum(r[name] * r["window_s"] for r in runs) / window, 1) if window else float("nan")

    errors: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for r in runs:
        errors.update(r["errors"])
        refused.update(r.get("refused_by_kind", {}))
    return {
        "connections": runs[0]["connections"],
        "moves": moves,
        "moves_per_s": round(moves / window, 1) if window else 0.0,
        "bytes_per_move": per_move("bytes_per_move", 1),
        "frames_per_move": per_move("frames_per_move", 2),
        "server_cpu_ms_per_move": per_move("server_cpu_ms_per_move", 3),
        "server_system_cpu_ms_per_move": per_move("server_system_cpu_ms_per_move", 3),
        "server_cpu_percent": busy("server_cpu_percent"),
        "generator_cpu_percent": busy("generator_cpu_percent"),
        # the median over the runs of each run's percentile (a form's latencies are not kept whole)
        "latency_ms": {k: sorted(r["latency_ms"][k] for r in runs)[len(runs) // 2] for k in ("p50", "p95", "p99")},
        "errors": dict(errors),
        "refused_by_kind": dict(refused),
        "settled": all(r["metrics"]["run"]["settled"] for r in runs),
        "runs": [
            {
                k: r[k]
                for k in ("moves", "moves_per_s", "bytes_per_move", "server_cpu_ms_per_move", "server_cpu_percent")
            }
            for r in runs
        ],
    }


async def _bench(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="meja-bench-") as tmp:
        workdir = Path(tmp)
        if args.redis:
            redis = _Redis(args.redis, None, f"meja-bench-{secrets.token_hex(4)}:")
        else:
            redis = await _Redis.start(workdir)
        rows: list[dict[str, Any]] = []
        game: dict[str, Any] = {}
        try:
            if args.compare_frames:
                rows = await _compare_frames(args, redis, workdir)
            else:
                game = await _measure_game(args, redis, workdir)
        finally:
            if redis.child is None:
                redis.cleanup()
            redis.stop()
        if args.compare_frames:
            return {
                "benchmark": "server", "compare_frames": rows, "processes": args.processes,
                "seconds": args.seconds, "rounds": args.rounds, "warmup_s": args.warmup, "pace_s": args.pace,
                "mode": "paced" if args.pace is not None else "throughput",
                "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                            "load_average": [round(x, 2) for x in os.getloadavg()]},
                "note": CAVEAT,
            }  # fmt: skip
        doc: dict[str, Any] = {
            "benchmark": "server",
            "mode": "paced" if args.pace is not None else "throughput",
            "tables": args.tables,
            "processes": args.processes,
            "seconds": args.seconds,
            "warmup_s": args.warmup,
            "pace_s": args.pace,
            "redis_server": "external (--redis)" if args.redis else "private redis-server (no persistence)",
            "server_env": {**COMMON_ENV, **({} if args.pace is not None else THROUGHPUT_ENV)},
            **game,
        }
        if not args.no_echo:
            ceiling = await _measure_echo(args, game["connections"], workdir)
            doc["echo"] = ceiling
            echo_rate = ceiling["messages_per_s"]
            doc["moves_per_echo_message"] = round(game["moves_per_s"] / echo_rate, 4) if echo_rate else None
        doc["machine"] = {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }
        doc["note"] = CAVEAT
        return doc


# --------------------------------------------------------------------------- the command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a summary")
    parser.add_argument("--tables", type=int, default=100, metavar="N", help="tables measured (default 100)")
    parser.add_argument("--seconds", type=float, default=10.0, metavar="S", help="measured window (default 10)")
    parser.add_argument("--warmup", type=float, default=2.0, metavar="S", help="play before measuring (default 2)")
    parser.add_argument("--processes", type=int, default=2, metavar="P", help="meja serve processes (default 2)")
    parser.add_argument("--redis", metavar="URL", help="use this Redis (keys under a fresh prefix, deleted after)")
    parser.add_argument(
        "--pace",
        type=float,
        metavar="S",
        help="paced mode: each player thinks about S seconds per decision; bots keep their default pauses",
    )
    parser.add_argument("--game", help="the tables' game (default: the server's default game)")
    parser.add_argument("--options", metavar="JSON", help='the tables\' options, e.g. \'{"preset": "party"}\'')
    parser.add_argument("--seats", type=int, default=3, metavar="N", help="seats per table (default 3)")
    parser.add_argument("--humans", type=int, default=2, metavar="H", help="scripted players per table (default 2)")
    parser.add_argument(
        "--search-tables",
        type=int,
        default=0,
        metavar="N",
        help="extra tables of one scripted player and bots that search (--search-level), whose load the "
        "other tables' figures are measured under (default 0)",
    )
    parser.add_argument("--search-seats", type=int, default=8, metavar="N", help="seats of those tables (default 8)")
    parser.add_argument("--search-level", default="hard", help="their bots' level (default hard)")
    parser.add_argument(
        "--bot-workers", type=int, default=1, metavar="W", help="the servers' bot_workers (default 1; 0: threads)"
    )
    parser.add_argument(
        "--talk-flood",
        type=int,
        default=0,
        metavar="K",
        help="extra tables where one person floods talk and call signals while the others play (default 0)",
    )
    parser.add_argument(
        "--frames",
        choices=("whole", "diffs"),
        default="whole",
        help="the players' updates: whole views (default) or patches (PROTOCOL.md 7.5)",
    )
    parser.add_argument(
        "--compare-frames",
        metavar="LAYOUTS",
        help="measure GAME:SEATS:HUMANS[:TABLES] layouts (comma-separated) with whole views and with patches",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        metavar="R",
        help="with --compare-frames: measure each form R times, in turn (default 1)",
    )
    parser.add_argument("--no-echo", action="store_true", help="skip the echo-server ceiling")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices (default 1)")


def _print_frames(doc: Mapping[str, Any]) -> None:
    print(
        f"meja bench server --compare-frames: {doc['mode']}, {doc['processes']} processes, "
        f"{doc['rounds']} run(s) of {doc['seconds']} s measured per form, in turn"
    )
    print(
        f"  {'layout':<34} {'frames':<6} {'moves/s':>8} {'bytes/move':>11} {'frames/move':>11} "
        f"{'server CPU ms/move':>18} {'moves/echo msg':>14}"
    )
    for r in doc["compare_frames"]:
        layout = f"{r['game']} {r['seats']} seats, {r['humans']} players, {r['tables']} tables"
        print(
            f"  {layout:<34} {r['frames']:<6} {r['moves_per_s']:>8} {r['bytes_per_move']:>11} "
            f"{r['frames_per_move']:>11} {r['server_cpu_ms_per_move']:>18} {r['moves_per_echo_message']!s:>14}"
            f"{'' if r['settled'] else '  (NOT settled)'}{'  errors ' + str(r['errors']) if r['errors'] else ''}"
        )
        if r["refused_by_kind"]:
            print(f"  {'':<34} {'':<6} refused actions by kind: {r['refused_by_kind']}")
        each = ", ".join(f"{run['server_cpu_ms_per_move']}" for run in r["runs"])
        print(
            f"  {'':<34} {'':<6} server CPU ms/move: {r['server_system_cpu_ms_per_move']} of it in the kernel; "
            f"each run's: {each}"
        )
    print(f"  note: {doc['note']}")


def _print_summary(doc: Mapping[str, Any]) -> None:
    lat = doc["latency_ms"]
    mem = doc["memory"]
    table = mem["redis_table"]
    print(
        f"meja bench server: {doc['mode']}, {doc['tables']} tables ({doc['connections']} connections), "
        f"{doc['processes']} processes, {doc['window_s']} s measured"
    )
    print(
        f"  moves/s                {doc['moves_per_s']:>10}   ({doc['moves']} moves, {doc['human_moves']} by players)"
    )
    print(
        f"  latency ms p50/p95/p99 {lat['p50']:>10} / {lat['p95']} / {lat['p99']}   (max {lat['max']}, "
        f"{lat['count']} actions)"
    )
    print(
        f"  server CPU ms/move     {doc['server_cpu_ms_per_move']:>10}   "
        f"(servers at {doc['server_cpu_percent']} % of one core; Redis {doc['redis_cpu_ms_per_move']} ms, "
        f"generator {doc['generator_cpu_ms_per_move']} ms)"
    )
    print(
        f"  busy                   {doc['generator_cpu_percent']:>10} % generator (one core at most); "
        f"cores {' / '.join(f'{c} %' for c in doc['cores_busy_percent'])}"
    )
    print(
        f"  Redis per move         {doc['redis']['round_trips_per_move']:>10} round trips, "
        f"{doc['redis']['commands_sent_per_move']} commands sent "
        f"({doc['redis']['commands_per_move']} run, scripts' own included)"
    )
    print(f"  bytes sent per move    {doc['bytes_per_move']:>10}   ({doc['frames_per_move']} frames)")
    if table:
        print(
            f"  Redis per table        {table['total_bytes']:>10} bytes (record {table['record_bytes']}, "
            f"log {table['log_bytes']} for {table['log_entries']} entries)"
        )
    print(f"  server RSS/connection  {mem['server_rss_bytes_per_connection']:>10} bytes")
    window, whole = doc["metrics"]["window"], doc["metrics"]["run"]
    print(
        f"  /metrics cross-check   window: servers {window['moves']} vs bench {window['bench_moves']} moves "
        f"(difference {window['difference']}, bound {window['bound']}); whole run: {whole['moves']} vs "
        f"{whole['bench_moves']}{'' if whole['settled'] else ' (NOT settled)'}"
    )
    if "echo" in doc:
        e = doc["echo"]
        print(
            f"  echo ceiling           {e['messages_per_s']:>10} messages/s over {e['connections']} connections"
            f" (p50 {e['latency_ms']['p50']} ms; generator {e['generator_cpu_percent']} %, cores "
            f"{' / '.join(f'{c} %' for c in e['cores_busy_percent'])})"
        )
        print(f"  moves per echo message {doc['moves_per_echo_message']:>10}")
    if doc["errors"]:
        print(f"  errors                 {doc['errors']}")
    if doc.get("refused_by_kind"):
        print(f"  refused, by kind       {doc['refused_by_kind']}")
    flood = doc["talk_flood"]
    if flood["tables"]:
        print(
            f"  under a talk flood of  {flood['tables']:>10} tables: sent {flood['sent']}, answered {flood['answers']}"
        )
    search = doc["search_tables"]
    if search["tables"]:
        print(
            f"  under load of          {search['tables']:>10} tables of {search['seats']} seats with "
            f"{search['level']} bots (bot_workers {search['bot_workers']})"
        )
    print(f"  note: {doc['note']}")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; print a summary (or JSON with ``--json``). The exit status."""
    if args.tables < 1 or args.processes < 1 or args.seconds <= 0 or args.warmup < 0:
        print("meja bench server: --tables and --processes must be at least 1, --seconds above 0", file=sys.stderr)
        return 2
    if args.pace is not None and args.pace <= 0:
        print("meja bench server: --pace must be above 0", file=sys.stderr)
        return 2
    if not 1 <= args.humans <= args.seats:
        print("meja bench server: --humans must be 1 to --seats", file=sys.stderr)
        return 2
    if args.compare_frames:
        try:
            parse_layouts(args.compare_frames, args.tables)
            if args.rounds < 1:
                raise ValueError(f"--rounds must be at least 1, not {args.rounds}")
        except ValueError as exc:
            print(f"meja bench server: --compare-frames: {exc}", file=sys.stderr)
            return 2
    try:
        doc = asyncio.run(_bench(args))
    except RuntimeError as exc:
        print(f"meja bench server: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(doc, indent=2))
    elif "compare_frames" in doc:
        _print_frames(doc)
    else:
        _print_summary(doc)
    return 0
