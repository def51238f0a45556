"""``GET /metrics``: the operators' metrics move exactly as the play that happened.

A real server (memory store and Redis), real websocket clients: a whole match
against two bots with every ``act`` counted by the client (accepted, or the
error code it got), a few refused requests, a malformed frame, then a scrape
over HTTP whose counts must equal the client's, action for action. Each
assertion fails if its metric is not wired (or counts the wrong thing).

Cost: about 2 s per store, plus 1 s for the Redis listener test.
"""

from __future__ import annotations

import asyncio
import logging
import urllib.request
from collections import Counter
from typing import Any

import pytest
import redis
from meja import __version__
from meja.server.metrics import LATENCY_BUCKETS, Metrics
from meja.server.service import wall_ms
from prometheus_client.parser import text_string_to_metric_families
from redis.exceptions import ConnectionError as RedisConnectionError
from server_helpers import host
from server_wire import Wire

STORES = ["memory", "redis"]
#: Event kinds of a game action (one action per version): as the benchmark counts them.
ACTION_KINDS = frozenset({"play", "draw", "pass", "suit", "ready"})

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _get(port: int, path: str) -> tuple[int, str, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return response.status, response.headers["Content-Type"], response.read().decode()


async def scrape(port: int) -> tuple[str, Samples]:
    """The text of ``/metrics`` and its samples by (name, sorted labels)."""
    status, content_type, text = await asyncio.to_thread(_get, port, "/metrics")
    assert status == 200 and content_type == "text/plain; version=0.0.4; charset=utf-8"
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def by_label(samples: Samples, name: str, label: str, **fixed: str) -> Counter[str]:
    out: Counter[str] = Counter()
    for (sample, labels), v in samples.items():
        found = dict(labels)
        if sample == name and all(found.get(k) == x for k, x in fixed.items()) and v:
            out[found[label]] += int(v)
    return out


async def play_match(wire: Wire, table: str) -> Counter[str]:
    """Play seat 0 to the end of the match with ``act`` requests; their outcomes (accepted or code)."""
    outcomes: Counter[str] = Counter()
    acted_at: int | None = None
    async with asyncio.timeout(60):
        while not (wire.view is not None and wire.view["phase"] == "match_over"):
            view, version = wire.view, wire.version
            playing = wire.table is not None and wire.table["status"] == "playing"
            if playing and view is not None and view["legal"] and version != acted_at:
                acted_at = version
                act = {"type": "act", "table": table, "version": version, "action": view["legal"][0]}
                reply = await wire.request(act)
                outcomes["accepted" if reply["type"] == "update" else reply["code"]] += 1
            else:
                await wire.recv()
    return outcomes


def actions_seen(wire: Wire) -> Counter[int]:
    """Committed game actions by seat, from every update ``wire`` received (one per version at most)."""
    by_seat: Counter[int] = Counter()
    for message in wire.seen:
        if message["type"] == "update":
            acts = [e for e in message["events"] if e["kind"] in ACTION_KINDS]
            assert message["version"] - message["since"] == 1 and len(acts) <= 1, message
            if acts:
                by_seat[acts[0]["seat"]] += 1
    return by_seat


@pytest.mark.parametrize("store", STORES)
async def test_metrics_count_what_was_played(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    server.metrics.due_interval_s = 0.0  # read the due counts on every scrape
    port = server.port

    _, samples = await scrape(port)
    assert value(samples, "meja_connections") == 0
    assert value(samples, "meja_info", version=__version__, store=store, process=server.process_id) == 1
    assert by_label(samples, "meja_actions_total", "source") == Counter()

    ann = await connect(server)
    joined = await host(ann, seats=3)
    table = joined["table"]
    _, samples = await scrape(port)
    assert value(samples, "meja_connections") == 1
    assert value(samples, "meja_tables", status="lobby") == 1 and value(samples, "meja_tables", status="playing") == 0

    refused: Counter[str] = Counter()  # every error reply, by code
    refused_acts: Counter[str] = Counter()
    # Refused acts: not started yet; then stale after the start; a table this connection is not at.
    draw = {"kind": "draw"}
    for message in (
        {"type": "act", "table": table, "version": 0, "action": draw},
        "start",
        {"type": "act", "table": table, "version": 0, "action": draw},
        {"type": "act", "table": "0" * 32, "version": 3, "action": draw},
    ):
        if message == "start":
            await ann.ok({"type": "start", "table": table})
            continue
        assert isinstance(message, dict)
        reply = await ann.request(message)
        assert reply["type"] == "error", reply
        refused[reply["code"]] += 1
        refused_acts[reply["code"]] += 1
    assert set(refused_acts) >= {"table/not_playing", "action/stale_version"}, refused_acts
    # A refused request that is not an action.
    reply = await ann.request({"type": "join", "code": "ZZZZZZ", "name": "Bo"})
    refused[reply["code"]] += 1

    outcomes = await play_match(ann, table)
    accepted = outcomes.pop("accepted")
    refused_acts += outcomes
    refused += outcomes
    seen = actions_seen(ann)
    assert accepted == seen[0] > 5, (outcomes, seen)
    bots = seen[1] + seen[2]
    assert bots > 5

    # A second table, with a turn limit, left at its player's turn: its timer waits.
    bob = await connect(server)
    bobs = await host(bob, seats=2, turn_limit_s=600, name="Bob")
    await bob.ok({"type": "start", "table": bobs["table"]})
    while bob.view is None or not bob.view["legal"]:  # the bot may play first
        await bob.recv()
    # A malformed frame (text): closed with 4000.
    rude = await connect(server)
    await rude.ws.send("not msgpack")
    assert await rude.closed() == 4000

    text, samples = await scrape(port)
    actions = by_label(samples, "meja_actions_total", "source", outcome="accepted")
    assert actions_seen(bob)[0] == 0  # bob has not acted; his bot may have, before his turn
    assert actions == Counter({"person": accepted, "bot": bots + actions_seen(bob)[1]}), actions
    rejected = by_label(samples, "meja_actions_total", "outcome", source="person")
    del rejected["accepted"]
    assert rejected == refused_acts
    assert by_label(samples, "meja_request_errors_total", "code") == refused
    assert by_label(samples, "meja_connection_closes_total", "code") == Counter({"4000": 1})
    # One latency per accepted person act; cumulative buckets end at the count.
    count = value(samples, "meja_move_latency_seconds_count")
    assert count == accepted and value(samples, "meja_move_latency_seconds_sum") > 0
    buckets = [value(samples, "meja_move_latency_seconds_bucket", le=repr(b)) for b in LATENCY_BUCKETS]
    assert buckets == sorted(buckets) and value(samples, "meja_move_latency_seconds_bucket", le="+Inf") == count
    assert value(samples, "meja_timers_total", kind="bot") >= bots
    assert value(samples, "meja_tables", status="finished") == value(samples, "meja_tables", status="playing") == 1
    # The closed connection may still be on its way out.
    assert 2 <= value(samples, "meja_connections") <= 3
    # Bob's turn timer waits (not overdue for 10 minutes).
    assert value(samples, "meja_due_waiting") >= 1
    assert value(samples, "meja_due_overdue") <= value(samples, "meja_due_waiting")
    assert value(samples, "process_resident_memory_bytes") > 0
    # Nothing that identifies a table or a player.
    for secret in (table, joined["code"], joined["token"], joined["host_token"], bobs["table"], "Ann", "Bob"):
        assert secret not in text

    # An hour from now every timer is overdue: the scrape asks the store with the metrics' clock.
    server.metrics.clock = lambda: wall_ms() + 3_600_000
    _, samples = await scrape(port)
    assert value(samples, "meja_due_overdue") == value(samples, "meja_due_waiting") >= 1


async def test_redis_errors_of_the_store_listener_are_counted(serve: Any, connect: Any, redis_servers: Any) -> None:
    private = redis_servers()
    server = await serve(redis_url=private.url)
    ann = await connect(server)
    await host(ann, seats=2)  # subscribes: the store's pub/sub listener runs
    _, samples = await scrape(server.port)
    assert by_label(samples, "meja_redis_errors_total", "logger") == Counter()
    client = redis.Redis.from_url(private.url)
    try:
        client.client_kill_filter(_type="pubsub")
    finally:
        client.close()
    async with asyncio.timeout(20):
        while not by_label(samples, "meja_redis_errors_total", "logger")["store.redis"]:
            await asyncio.sleep(0.1)
            _, samples = await scrape(server.port)


def test_redis_errors_are_told_from_other_errors() -> None:
    """Counted where they are met (Metrics.redis_error), by the module that met them; not from the log."""
    metrics = Metrics()
    assert metrics.redis_error("server.timers", RedisConnectionError("gone"))
    assert not metrics.redis_error("server.timers", ValueError("a bug"))
    try:
        try:
            raise RedisConnectionError("gone")
        except RedisConnectionError as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as wrapped:
        assert metrics.redis_error("server.hub", wrapped)
    assert metrics.redis_error("store.redis", OSError("reset"))  # the store's own connection
    assert not metrics.redis_error("server.session", OSError("reset"))  # not Redis's
    # Logging one counts nothing by itself.
    logging.getLogger("meja.server.timers").error("logged only", exc_info=RedisConnectionError("x"))
    counted = {k: v for k, v in _counts(metrics, "meja_redis_errors_total", "logger").items() if v}
    assert counted == {"server.timers": 1, "server.hub": 1, "store.redis": 1}


async def test_a_request_that_meets_a_redis_error_is_counted(serve: Any, connect: Any) -> None:
    server = await serve()
    wire = await connect(server)

    async def lookup(code: str) -> str | None:
        raise RedisConnectionError("Redis went away")

    server.store.lookup = lookup  # type: ignore[method-assign]
    reply = await wire.request({"type": "join", "code": "ABCDEF", "name": "Bo"})
    assert reply["code"] == "internal"
    _, samples = await scrape(server.port)
    assert by_label(samples, "meja_redis_errors_total", "logger") == Counter({"server.session": 1})


def _counts(metrics: Metrics, name: str, label: str) -> dict[str, float]:
    """A counter's samples by the value of ``label``, read from the registry."""
    out: dict[str, float] = {}
    for family in metrics.registry.collect():
        for sample in family.samples:
            if sample.name == name:
                out[sample.labels[label]] = sample.value
    return out


def test_labels_stay_bounded() -> None:
    metrics = Metrics()
    metrics.request_error("table/not_found")
    metrics.request_error("Table 1234 of Ann")  # not a code: never a label value
    for n in range(100):
        metrics.request_error(f"made/up_{n}")
    values = _counts(metrics, "meja_request_errors_total", "code")
    assert len(values) <= 65 and values["table/not_found"] == 1 and values["other"] >= 37
    assert not any(" " in v for v in values)


def test_the_library_types_are_used() -> None:
    """Counters, gauges and the histogram are prometheus_client's; no _created series."""
    from prometheus_client import Histogram

    metrics = Metrics()
    assert isinstance(metrics.latency, Histogram)
    names = {m.name: m.type for m in metrics.registry.collect()}
    assert names["meja_actions"] == names["meja_request_errors"] == names["meja_redis_errors"] == "counter"
    assert names["meja_connections"] == names["meja_tables"] == "gauge"
    assert names["meja_move_latency_seconds"] == "histogram" and names["meja"] == "info"
    assert not any(s.name.endswith("_created") for m in metrics.registry.collect() for s in m.samples)
