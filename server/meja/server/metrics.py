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
``meja_timers_total``                  counter  due actions this process ran, by ``kind`` (each of
                                                :data:`meja.server.tables.TIMERS`: bot, turn, ready,
                                                auto, check, grace, archive)
``meja_due_waiting``                   gauge    due actions stored (the whole store; leased included)
``meja_due_overdue``                   gauge    due actions whose time has come and that nobody has
                                                finished (:meth:`meja.store.base.Store.due_counts`);
                                                a value that stays high means the timers fall behind
``meja_redis_errors_total``            counter  Redis errors this process met, by ``logger`` (the module
                                                that met it, by its logger's name: ``store.redis`` is the
                                                pub/sub listener, ``server.session`` a request,
                                                ``server.timers`` the timers and the heartbeat,
                                                ``server.hub`` a delivery, ``server.metrics`` a scrape)
``meja_store_memory_bytes``            gauge    the store's memory use and limit, by ``kind`` (``used``,
                                                ``limit``), as the server last read it (``memory_check_s``;
                                                the fullest master of a cluster; absent without a limit)
``meja_store_full``                    gauge    1 while new tables are refused (``server/full``: the store
                                                is past ``store_full_pct`` of its limit), else 0
``process_*``                          various  CPU seconds, resident memory, open files, start time
                                                (``prometheus_client``'s process collector, Linux)
=====================================  =======  ==========================================================

Choices
-------
- **The library's types.** Counters, gauges, the histogram and the info metric
  are ``prometheus_client``'s own (``Counter``, ``Gauge``, ``Histogram``,
  ``Info``); what is read from the store at scrape time (the due gauges) comes
  from a custom collector. The connection and table gauges are computed when
  scraped (``Gauge.set_function``), never per move. ``_created`` series are
  turned off (``disable_created_metrics``, process-wide): the names scraped are
  the ones listed above.
- **Per-move cost.** The hot path (a commit, an ``act``) adds a context
  variable read, a counter ``inc`` and a histogram ``observe`` on children
  looked up in advance. The library takes a lock per update, which a single
  event loop does not need: about 1 µs for an ``observe`` and 0.8 µs for a
  labelled ``inc`` (timeit, this machine; plain ints took 0.3 and 0.2 µs), well
  under 1 % of a move's 0.3 ms of server CPU.
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
- **Redis errors** are counted where they are met, by the code that meets them
  (:meth:`Metrics.redis_error`): a request that fails (``server.session``), a
  timer, the timer loop or the heartbeat (``server.timers``), a change the hub
  could not deliver (``server.hub``), this module's due counts
  (``server.metrics``), and the store's own pub/sub listener (``store.redis``,
  through the store's ``on_error`` hook). An error counts when it is a
  ``redis.exceptions.RedisError`` or was raised from one (an ``OSError`` too,
  when the store itself met it); the label is the module that met it, as it
  names its logger.
- **The due gauges** are read from the store at scrape time, at most once per
  ``due_interval_s`` (1 s): a scrape flood costs Redis nothing more. When the
  read fails, the two gauges are left out of that scrape (and the error counted).
- **Open, not restricted.** ``/metrics`` is served to anyone who reaches the port,
  like ``/healthz`` (which already tells tables and connections): it holds only
  aggregate counts with bounded labels, and a scrape costs little (see above).
  An operator who wants it private blocks ``/metrics`` at the reverse proxy in
  front of the servers, as the shipped ``deploy/nginx.conf`` does (a Prometheus
  inside the network scrapes the processes directly). So there is no setting to
  turn it off.
"""

from __future__ import annotations

import contextvars
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from redis.exceptions import RedisError

from meja import __version__
from meja.rules import Event
from meja.store.base import Store

from .records import FINISHED, LOBBY, PLAYING, Table
from .tables import TIMER_KINDS

__all__ = ["CONTENT_TYPE", "LATENCY_BUCKETS", "SOURCE", "Metrics", "is_redis_error"]

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
_TIMER_KINDS: Final = tuple(TIMER_KINDS)
_LABEL: Final = re.compile(r"[a-z][a-z0-9_.]{0,31}(/[a-z][a-z0-9_]{0,31})?|[0-9]{1,4}")
_MAX_VALUES: Final = 64

# The _created series would double every counter and histogram; nobody here reads them.
disable_created_metrics()  # type: ignore[no-untyped-call]


def is_redis_error(exc: BaseException, *, store: bool = False) -> bool:
    """Whether ``exc`` is a Redis error or was raised from one (``store``: an ``OSError`` too)."""
    for cause in (exc, exc.__cause__, exc.__context__):
        if isinstance(cause, RedisError) or (store and isinstance(cause, OSError)):
            return True
    return False


class _Bounded:
    """One label of a counter, of bounded cardinality (see the module docstring)."""

    __slots__ = ("_children", "_make")

    def __init__(self, make: Callable[[str], Any], known: Iterable[str] = ()) -> None:
        self._make = make
        self._children: dict[str, Any] = {}
        for value in known:
            self.child(value)

    def child(self, value: str) -> Any:
        """The counter child of label ``value`` (``other`` past the bounds)."""
        found = self._children.get(value)
        if found is None:
            if len(self._children) >= _MAX_VALUES or not _LABEL.fullmatch(value):
                value = "other"
                found = self._children.get(value)
            if found is None:
                found = self._children[value] = self._make(value)
        return found

    def inc(self, value: str) -> None:
        self.child(value).inc()

    @property
    def values(self) -> tuple[str, ...]:
        """The label values counted so far."""
        return tuple(self._children)


class _DueCounts(Collector):
    """The due gauges: read from the store at scrape time (:meth:`Metrics.render`)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        due = self.metrics.due
        if due is not None:
            waiting, overdue = due
            yield GaugeMetricFamily("meja_due_waiting", "Due actions stored (whole store)", value=waiting)
            yield GaugeMetricFamily("meja_due_overdue", "Due actions past their time, unfinished", value=overdue)

    def describe(self) -> Iterable[Metric]:
        return ()  # unchecked: this registry is ours alone


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
        self.registry = CollectorRegistry(auto_describe=False)
        registry = self.registry
        Info("meja", "This Meja process", registry=registry).info(
            {"version": __version__, "store": store_kind, "process": process_id}
        )
        self._connections: Callable[[], int] = lambda: 0
        self._tables: Callable[[], Iterable[Table]] = tuple
        Gauge("meja_connections", "Open websocket connections", registry=registry).set_function(
            lambda: self._connections()
        )
        tables = Gauge("meja_tables", "Tables cached by this process, by status", ["status"], registry=registry)
        for status in _STATUSES:
            tables.labels(status).set_function(self._table_counter(status))
        actions = Counter(
            "meja_actions",
            "Game actions: accepted by source, refused by error code",
            ["source", "outcome"],
            registry=registry,
        )
        self._accepted = {source: actions.labels(source, "accepted") for source in _SOURCES}
        self.rejected = _Bounded(lambda code: actions.labels("person", code))
        request_errors = Counter(
            "meja_request_errors", "Error replies to requests, by error code", ["code"], registry=registry
        )
        self.request_errors = _Bounded(request_errors.labels)
        closes = Counter(
            "meja_connection_closes", "Connections closed by the server, by close code", ["code"], registry=registry
        )
        self.closes = _Bounded(closes.labels)
        timers = Counter("meja_timers", "Due actions run by this process, by kind", ["kind"], registry=registry)
        self.timers = _Bounded(timers.labels, _TIMER_KINDS)
        redis_errors = Counter(
            "meja_redis_errors", "Redis errors met by this process, by module", ["logger"], registry=registry
        )
        self.redis_errors = _Bounded(redis_errors.labels)
        self.latency = Histogram(
            "meja_move_latency_seconds",
            "A person's accepted act: frame received to its update queued",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self._store: Store | None = None
        self._store_memory: Callable[[], tuple[int, int] | None] = lambda: None
        self._store_full: Callable[[], bool] = lambda: False
        memory = Gauge("meja_store_memory_bytes", "The store's memory use and limit", ["kind"], registry=registry)
        memory.labels("used").set_function(lambda: (self._store_memory() or (float("nan"), 0))[0])
        memory.labels("limit").set_function(lambda: (self._store_memory() or (0, float("nan")))[1])
        Gauge("meja_store_full", "1 while new tables are refused (server/full)", registry=registry).set_function(
            lambda: 1.0 if self._store_full() else 0.0
        )
        self._archives: Callable[[], tuple[int, int]] = lambda: (0, 0)
        archives = Gauge(
            "meja_archives", "Finished matches this process archived, or did not (store full, log trimmed)",
            ["result"], registry=registry,
        )  # fmt: skip
        archives.labels("written").set_function(lambda: self._archives()[0])
        archives.labels("skipped").set_function(lambda: self._archives()[1])
        self.due: tuple[int, int] | None = None
        self._due_at = float("-inf")
        registry.register(_DueCounts(self))
        if process_collector:
            ProcessCollector(registry=registry)

    def bind(
        self,
        *,
        connections: Callable[[], int],
        tables: Callable[[], Iterable[Table]],
        store: Store | None,
        store_memory: Callable[[], tuple[int, int] | None] = lambda: None,
        store_full: Callable[[], bool] = lambda: False,
        archives: Callable[[], tuple[int, int]] = lambda: (0, 0),
    ) -> None:
        """What is read at scrape time: the connection count, the cached tables, the store (due counts),
        and the store's memory as the table service last read it (its use, its limit, whether full)."""
        self._connections = connections
        self._tables = tables
        self._store = store
        self._store_memory = store_memory
        self._store_full = store_full
        self._archives = archives

    def _table_counter(self, status: str) -> Callable[[], float]:
        """What ``meja_tables{status}`` reads when scraped."""
        return lambda: sum(1 for table in self._tables() if table.status == status)

    # ------------------------------------------------------------------ the hot path

    def on_commit(self, before: Table, after: Table, events: tuple[Event, ...]) -> None:
        """The table service's ``on_commit``: count a committed game action by its :data:`SOURCE`."""
        if before.status == PLAYING and after.gv != before.gv:
            counter = self._accepted.get(SOURCE.get())
            (counter if counter is not None else self._accepted["other"]).inc()

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

    def redis_error(self, where: str, exc: BaseException) -> bool:
        """Count ``exc`` if it is a Redis error (:func:`is_redis_error`), met by module ``where``
        (its logger's name without ``meja.``: ``server.timers``, ``store.redis``); whether it was."""
        if not is_redis_error(exc, store=where.startswith("store")):
            return False
        self.redis_errors.inc(where)
        return True

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
            self.due = await self._store.due_counts(self.clock())
        except Exception as exc:
            self.due = None
            self.redis_error("server.metrics", exc)
            log.warning("metrics: could not read the due counts", exc_info=True)

    def sample(self, name: str, labels: dict[str, str] | None = None) -> float | None:
        """One sample's current value (for tests and ``/healthz``-like uses), or ``None``."""
        value: float | None = self.registry.get_sample_value(name, dict(labels or {}))
        return value
