"""Operators' metrics: ``GET /metrics`` in the Prometheus text format (``prometheus_client``).

Every ``meja serve`` process answers ``/metrics`` on its own port, beside
``/healthz``; Prometheus scrapes each process and sums over them. What a
process reports is about *itself*: the connections it holds, the tables it has
cached, the actions *it* committed. The due-action gauges are the exception:
they count the whole store's due set, so every process reports the same value
(take ``max``, not ``sum``, over processes).

The metrics
-----------
=====================================  =======  ==========================================================
name                                   type     what
=====================================  =======  ==========================================================
``meja_info``                          gauge    always 1; labels ``version``, ``store`` (memory|redis),
                                                ``process`` (this process's id, as in ``/healthz``)
``meja_connections``                   gauge    open websocket connections of this process
``meja_tables``                        gauge    tables this process has cached (a local connection sits
                                                there), by ``status``: lobby, playing, finished. Two
                                                processes with players at one table both count it.
``meja_actions_total``                 counter  game actions, by ``source`` (person: a player's ``act``;
                                                bot: a bot's move or an absent player's, played by a bot;
                                                timer: a turn limit's or a ``ready`` timeout's move;
                                                other: none of those, which should stay 0) and
                                                ``outcome`` (``accepted``, or the error code a person's
                                                refused ``act`` got, e.g. ``action/illegal``,
                                                ``action/stale_version``)
``meja_request_errors_total``          counter  error replies to every kind of request, by ``code``
                                                (``protocol/rate_limited`` counts every dropped frame)
``meja_connection_closes_total``       counter  connections the server closed, by close ``code``
                                                (1001 shutdown, 4000 malformed, 4001 replaced,
                                                4002 flood, 4003 protocol version, 4004 too slow)
``meja_move_latency_seconds``          hist.    a person's accepted ``act``: from its frame coming off
                                                the websocket to the end of its handling, when the
                                                commit is done and this process's connections (the
                                                sender first among them) have their ``update`` queued
``meja_timers_total``                  counter  due actions this process ran, by ``kind`` (bot, turn,
                                                ready, grace, check)
``meja_due_waiting``                   gauge    due actions stored (the whole store; leased included)
``meja_due_overdue``                   gauge    due actions whose time has come and that nobody has
                                                finished (:meth:`meja.store.base.Store.due_counts`);
                                                a value that stays high means the timers fall behind
``meja_redis_errors_total``            counter  Redis errors this process logged, by ``logger`` (the
                                                module that met it: ``store.redis`` is the pub/sub
                                                listener, ``server.session`` a request, ``server.timers``
                                                the timers and the heartbeat, ``server.hub`` a delivery)
``process_*``                          various  CPU seconds, resident memory, open files, start time
                                                (``prometheus_client``'s process collector, Linux)
=====================================  =======  ==========================================================

Choices
-------
- **Per-move cost.** The hot path (a commit, an ``act``) adds a context
  variable read, a dict increment and a histogram observation (a ``bisect`` on
  the bucket bounds): about 0.2 µs in all. The counters are plain Python ints
  read by a custom collector at scrape time, not ``prometheus_client`` metric
  objects, which take a ``threading.Lock`` on every update (0.3 µs for an
  ``inc``, 0.7 µs for an ``observe``) that a single event loop does not need.
  Everything else (connections, tables by status, the due gauges) is computed
  when scraped, never per move.
- **Whose action.** :data:`SOURCE`, a context variable, says who is acting: the
  server sets ``person`` in each connection's handler task and ``bot``/``timer``
  in each due action's task; :meth:`Metrics.on_commit` (the table service's
  ``on_commit`` hook) reads it. A commit is a game action when the table was
  playing before it and its game version (``gv``) moved; ``start`` and
  ``rematch`` deal a round but are not actions (the table was in the lobby or
  finished), and joining, leaving and presence changes leave ``gv`` alone.
- **Own registry.** Each :class:`Metrics` has its own ``CollectorRegistry``
  (several servers share a test process), never the global default one.
- **Bounded labels, nothing hidden.** Labels are codes, kinds and statuses the
  server defines, never a table id, a room code, a name or a token. A label
  value that is not a short lowercase code, or one past the 64th distinct value
  of a label, is counted as ``other``.
- **Redis errors** are counted from the log: a handler on the ``meja`` logger
  counts each record of WARNING or above that carries a Redis error
  (``redis.exceptions.RedisError``, or an ``OSError`` logged by the store) in its
  exception or arguments. This sees the errors of modules this one does not
  reach (the store's pub/sub listener, the hub) without touching them, at no
  cost per move; errors nobody logs are not counted, nor any with the log level
  set above WARNING. Several servers in one process each count all of them.
- **The due gauges** are read from the store at scrape time, at most once per
  ``due_interval_s`` (1 s): a scrape flood costs Redis nothing more. When the
  read fails, the two gauges are left out of that scrape (and the error counted).
- **Open, not restricted.** ``/metrics`` is served to anyone who reaches the port,
  like ``/healthz`` (which already tells tables and connections): it holds only
  aggregate counts with bounded labels, and a scrape costs little (see above).
  An operator who wants it private blocks ``/metrics`` at the reverse proxy in
  front of the servers (a Prometheus inside the network scrapes the processes
  directly). So there is no setting to turn it off.
"""

from __future__ import annotations

import bisect
import contextvars
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from redis.exceptions import RedisError

from meja import __version__
from meja.rules import Event
from meja.store.base import Store

from .records import FINISHED, LOBBY, PLAYING, Table

__all__ = ["CONTENT_TYPE", "LATENCY_BUCKETS", "SOURCE", "Metrics"]

log = logging.getLogger("meja.server.metrics")

#: The classic text format, which every Prometheus reads (prometheus_client's CONTENT_TYPE_LATEST
#: names text format 1.0.0; with only legacy-valid names, as here, the text is the same).
CONTENT_TYPE: Final = CONTENT_TYPE_PLAIN_0_0_4

#: Who is acting in the current task: "person", "bot", "timer" (see the module docstring).
SOURCE: Final[contextvars.ContextVar[str]] = contextvars.ContextVar("meja_source", default="other")

#: Upper bounds of the latency histogram's buckets, in seconds (ms-scale, fine around the 20 ms goal).
LATENCY_BUCKETS: Final = (
    0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075,
    0.1, 0.2, 0.5, 1.0, 2.5, 5.0,
)  # fmt: skip
_SOURCES: Final = ("person", "bot", "timer", "other")
_STATUSES: Final = (LOBBY, PLAYING, FINISHED)
_TIMER_KINDS: Final = ("bot", "turn", "ready", "grace", "check")
_LABEL: Final = re.compile(r"[a-z][a-z0-9_.]{0,31}(/[a-z][a-z0-9_]{0,31})?|[0-9]{1,4}")
_MAX_VALUES: Final = 64


class _Counts:
    """Counts by a label value of bounded cardinality (see the module docstring)."""

    __slots__ = ("values",)

    def __init__(self, known: Iterable[str] = ()) -> None:
        self.values: dict[str, int] = dict.fromkeys(known, 0)

    def inc(self, value: str) -> None:
        values = self.values
        if value in values:
            values[value] += 1
            return
        if len(values) >= _MAX_VALUES or not _LABEL.fullmatch(value):
            value = "other"
        values[value] = values.get(value, 0) + 1


class _Histogram:
    """A fixed-bucket histogram of plain ints (cumulated only when scraped)."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: Iterable[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last one is +Inf
        self.sum = 0.0

    def observe(self, value: float) -> None:
        # bisect_left: a value equal to a bound falls in that bound's bucket (le = "less or equal").
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value

    def buckets(self) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = []
        total = 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            total += count
            out.append(("+Inf" if bound == float("inf") else repr(bound), float(total)))
        return out


class _RedisErrorLog(logging.Handler):
    """Counts the log records that carry a Redis error (see the module docstring)."""

    def __init__(self, counts: _Counts) -> None:
        super().__init__(logging.WARNING)
        self.counts = counts

    def emit(self, record: logging.LogRecord) -> None:
        store = record.name.startswith("meja.store")
        args = record.args if isinstance(record.args, tuple) else ()
        found = [a for a in args if isinstance(a, BaseException)]
        if record.exc_info and record.exc_info[1] is not None:
            found.append(record.exc_info[1])
        for exc in found:
            # The error itself, or what it was raised from.
            for cause in (exc, exc.__cause__, exc.__context__):
                if isinstance(cause, RedisError) or (store and isinstance(cause, OSError)):
                    self.counts.inc(record.name.removeprefix("meja."))
                    return

    def handleError(self, record: logging.LogRecord) -> None:
        pass  # counting must never make logging fail


class Metrics:
    """One process's metrics and their registry; see the module docstring.

    ``bind`` connects what is read at scrape time; the hot-path methods
    (:meth:`on_commit`, :meth:`observe_move`, the counters) work without it.
    """

    def __init__(
        self,
        *,
        process_id: str = "",
        store_kind: str = "",
        due_interval_s: float = 1.0,
        process_collector: bool = False,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.process_id = process_id
        self.store_kind = store_kind
        self.due_interval_s = due_interval_s
        self.clock = clock or (lambda: time.time_ns() // 1_000_000)
        self.accepted: dict[str, int] = dict.fromkeys(_SOURCES, 0)
        self.rejected = _Counts()
        self.request_errors = _Counts()
        self.closes = _Counts()
        self.timers = _Counts(_TIMER_KINDS)
        self.redis_errors = _Counts()
        self.latency = _Histogram(LATENCY_BUCKETS)
        self._connections: Callable[[], int] = lambda: 0
        self._tables: Callable[[], Iterable[Table]] = tuple
        self._store: Store | None = None
        self._due: tuple[int, int] | None = None
        self._due_at = float("-inf")
        self._log_handler: _RedisErrorLog | None = None
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(self)
        if process_collector:
            ProcessCollector(registry=self.registry)

    def bind(
        self, *, connections: Callable[[], int], tables: Callable[[], Iterable[Table]], store: Store | None
    ) -> None:
        """What is read at scrape time: the connection count, the cached tables, the store (due counts)."""
        self._connections = connections
        self._tables = tables
        self._store = store

    def watch_log(self) -> None:
        """Start counting the Redis errors that ``meja.*`` modules log (until :meth:`unwatch_log`)."""
        if self._log_handler is None:
            self._log_handler = _RedisErrorLog(self.redis_errors)
            logging.getLogger("meja").addHandler(self._log_handler)

    def unwatch_log(self) -> None:
        if self._log_handler is not None:
            logging.getLogger("meja").removeHandler(self._log_handler)
            self._log_handler = None

    # ------------------------------------------------------------------ the hot path

    def on_commit(self, before: Table, after: Table, events: tuple[Event, ...]) -> None:
        """The table service's ``on_commit``: count a committed game action by its :data:`SOURCE`."""
        if before.status == PLAYING and after.gv != before.gv:
            self.accepted[SOURCE.get()] += 1

    def observe_move(self, seconds: float) -> None:
        """A person's accepted ``act``, handled in ``seconds`` (see ``meja_move_latency_seconds``)."""
        self.latency.observe(seconds)

    def reject_action(self, code: str) -> None:
        """A person's ``act`` was refused with ``code``."""
        self.rejected.inc(code)

    def request_error(self, code: str) -> None:
        self.request_errors.inc(code)

    def closed(self, code: int) -> None:
        self.closes.inc(str(code))

    def timer(self, kind: str) -> None:
        self.timers.inc(kind if kind in _TIMER_KINDS else "other")

    # ------------------------------------------------------------------ scraping

    async def render(self) -> bytes:
        """The text of a scrape (reads the due counts first, at most once per ``due_interval_s``)."""
        await self._refresh_due()
        return generate_latest(self.registry)

    async def _refresh_due(self) -> None:
        if self._store is None:
            return
        now = time.monotonic()
        if now - self._due_at < self.due_interval_s:
            return
        self._due_at = now
        try:
            self._due = await self._store.due_counts(self.clock())
        except Exception:
            self._due = None
            log.warning("metrics: could not read the due counts", exc_info=True)

    def sample(self, name: str, labels: Mapping[str, str] | None = None) -> float | None:
        """One sample's current value (for tests and ``/healthz``-like uses), or ``None``."""
        value: float | None = self.registry.get_sample_value(name, dict(labels or {}))
        return value

    def collect(self) -> Iterator[Metric]:
        """The custom collector (``prometheus_client`` calls it on each scrape)."""
        info = GaugeMetricFamily("meja_info", "This Meja process", labels=["version", "store", "process"])
        info.add_metric([__version__, self.store_kind, self.process_id], 1)
        yield info
        yield GaugeMetricFamily("meja_connections", "Open websocket connections", value=self._connections())
        by_status = dict.fromkeys(_STATUSES, 0)
        for table in self._tables():
            status = table.status if table.status in by_status else "other"
            by_status[status] = by_status.get(status, 0) + 1
        tables = GaugeMetricFamily("meja_tables", "Tables cached by this process, by status", labels=["status"])
        for status, count in by_status.items():
            tables.add_metric([status], count)
        yield tables
        actions = CounterMetricFamily(
            "meja_actions", "Game actions: accepted by source, refused by error code", labels=["source", "outcome"]
        )
        for source, count in self.accepted.items():
            actions.add_metric([source, "accepted"], count)
        for code, count in self.rejected.values.items():
            actions.add_metric(["person", code], count)
        yield actions
        yield _counter("meja_request_errors", "Error replies to requests, by error code", "code", self.request_errors)
        yield _counter(
            "meja_connection_closes", "Connections closed by the server, by close code", "code", self.closes
        )
        yield _counter("meja_timers", "Due actions run by this process, by kind", "kind", self.timers)
        yield _counter(
            "meja_redis_errors", "Redis errors logged by this process, by module", "logger", self.redis_errors
        )
        latency = HistogramMetricFamily(
            "meja_move_latency_seconds", "A person's accepted act: frame received to its update queued", unit=""
        )
        latency.add_metric([], self.latency.buckets(), self.latency.sum)
        yield latency
        if self._due is not None:
            waiting, overdue = self._due
            yield GaugeMetricFamily("meja_due_waiting", "Due actions stored (whole store)", value=waiting)
            yield GaugeMetricFamily("meja_due_overdue", "Due actions past their time, unfinished", value=overdue)

    def describe(self) -> Iterable[Any]:
        return ()  # names are not checked against other collectors' (this registry is ours alone)


def _counter(name: str, documentation: str, label: str, counts: _Counts) -> CounterMetricFamily:
    family = CounterMetricFamily(name, documentation, labels=[label])
    for value, count in counts.values.items():
        family.add_metric([value], count)
    return family
