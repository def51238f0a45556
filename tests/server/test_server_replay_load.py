"""A hostile player's findings on ``replay`` and the outbox (PROTOCOL.md 11, 18): a replay's steps are
built off the event loop, within a per-address budget and a bounded queue, and a connection that
does not read is closed (4004) once its queued bytes pass ``outbox_max_bytes``, however few
messages they are."""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any

import meja.server.archive as archive_module
import msgpack
import pytest
from conftest import url_of
from meja.server.records import Table, archive_id
from server_helpers import host, match_over, play
from server_wire import Wire
from test_server_archive import archive_done


async def finished(server: Any, connect: Any, seats: int = 2) -> tuple[Wire, str, int]:
    """Ann and bots play a short match to its end: (Ann's wire, archive id, the match's steps)."""
    ann = await connect(server)
    table = (await host(ann, seats=seats, options={"preset": "house", "target": 10}))["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table)
    assert match_over(ann)
    assert await archive_done(server, ann, table) == "yes"
    got = await server.store.load(table)
    key = archive_id(Table.from_bytes(got[1]).seed)
    steps = (await ann.ok({"type": "replay", "archive": key, "count": 1}))["match"]["steps"]
    return ann, key, steps


def views_left(server: Any, views: float) -> None:
    """Set the views every test connection's address (loopback) may still ask for."""
    (bucket,) = server.service.archiver._views._buckets.values()
    bucket.available()
    bucket.tokens = float(views)


async def test_a_replay_is_built_off_the_event_loop_while_others_are_answered(
    serve: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await serve(replay_queue=1)
    ann, key, _ = await finished(server, connect)
    bob = await connect(server)
    eve = await connect(server)
    await eve.ok({"type": "replay", "archive": key, "count": 1})  # Eve has opened the archive

    release = threading.Event()
    started = threading.Event()
    built: list[int] = []  # the threads that built steps
    real = archive_module.steps_wire

    def slow_steps(*args: Any, **kwargs: Any) -> Any:
        built.append(threading.get_ident())
        started.set()
        # On the event loop (the old code), this wait stalls every connection until it times out.
        release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(archive_module, "steps_wire", slow_steps)
    rid = 991
    await ann.send({"type": "replay", "archive": key, "open": True, "id": rid})
    while not started.is_set():
        await asyncio.sleep(0.01)
    # While Ann's replay is being built, a bystander's pings are answered, every one of them ...
    for _ in range(5):
        assert (await bob.request({"type": "ping"}))["type"] == "pong"
        assert not release.is_set() and len(built) == 1, "the ping waited for the replay"
    # ... and a second replay past the queue's bound (1 here) is refused at once, not queued.
    refused = await eve.request({"type": "replay", "archive": key, "count": 2})
    assert refused["type"] == "error" and refused["code"] == "limit/exceeded", refused
    assert "busy" in refused["message"]
    release.set()
    reply = await ann.until(lambda m: m.get("re") == rid)
    assert reply["type"] == "replay" and reply["steps"] and "views" in reply["steps"][0], reply
    assert built[0] != threading.get_ident(), "the steps were built on the event loop's thread"
    # The queue is free again.
    assert (await eve.request({"type": "replay", "archive": key, "count": 2}))["type"] == "replay"


async def test_replay_step_views_are_budgeted_per_address(serve: Any, connect: Any) -> None:
    # 2 seats: an open step costs 2 views, a seat's or a spectator's 1.
    server = await serve(replay_steps_burst=30 + 1000, replay_steps_per_s=0.001)
    ann, key, steps = await finished(server, connect)
    assert steps >= 12, steps
    # What the finished() lookup left (its rebuild and 1 view spent) is set to 29: 10 open steps = 20 views
    views_left(server, 29)
    assert (await ann.request({"type": "replay", "archive": key, "open": True, "count": 10}))["type"] == "replay"
    again = await ann.request({"type": "replay", "archive": key, "open": True, "count": 10})
    assert again["type"] == "error" and again["code"] == "limit/exceeded", again
    assert "step views" in again["message"]
    # What is left (9 views) still serves a smaller request; another connection of the same
    # address shares the budget.
    other = await connect(server)
    assert (await other.request({"type": "replay", "archive": key, "count": 9, "seat": 0}))["type"] == "replay"
    last = await other.request({"type": "replay", "archive": key, "count": 1})
    assert last["type"] == "error" and last["code"] == "limit/exceeded", last
    # Steps past the match's end cost nothing: none are built.
    assert (await ann.request({"type": "replay", "archive": key, "first": steps, "count": 50}))["type"] == "replay"


async def test_a_client_that_does_not_read_is_closed_past_its_queued_bytes(serve: Any, connect: Any) -> None:
    # Far fewer messages than outbox_max (1024), but more bytes than outbox_max_bytes. The queue of
    # builds is lifted too: on a busy machine requests past it were refused in small errors, and
    # the bytes queued never passed the bound.
    server = await serve(
        outbox_max_bytes=64 * 1024, replay_steps_burst=10**6, replay_steps_per_s=10**6, replay_queue=1000
    )
    _, key, _ = await finished(server, connect, seats=3)
    # A client with a tiny receive window that reads nothing: the server's queue holds what the
    # socket cannot take.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    lazy = await Wire.open(url_of(server), sock=sock, max_queue=1)
    size = len(msgpack.packb(await lazy.request({"type": "replay", "archive": key, "open": True}), use_bin_type=True))
    requests = 300
    assert requests < server.settings.outbox_max
    assert size * requests > 4 * 1024 * 1024, size  # more than the socket buffers can hold
    for n in range(requests):
        await lazy.send({"type": "replay", "archive": key, "open": True, "id": n})
    # Nothing read until the server has closed it (waited for: building 300 open replays took
    # more than a minute on a saturated machine). Reading while it built them let a slow server's
    # queue drain as fast as it grew, and it never passed the bound (a loaded CI run).
    async with asyncio.timeout(240):
        while _closes(server, 4004) < 1:
            await asyncio.sleep(0.05)
    assert await lazy.closed() == 4004


def _closes(server: Any, code: int) -> float:
    """Connections ``server`` closed with ``code`` (its operators' metric)."""
    return sum(
        s.value
        for family in server.metrics.registry.collect()
        for s in family.samples
        if s.name == "meja_connection_closes_total" and s.labels["code"] == str(code)
    )


async def test_an_evicted_match_is_rebuilt_off_the_event_loop_within_the_budget(
    serve: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A reviewer's finding: the rebuild of a match no longer cached ran on the event loop, before
    # the queue's bound and the address's budget were checked (and so even for a refused request).
    server = await serve(replay_queue=1, replay_steps_burst=10**6, replay_steps_per_s=0.001)
    ann, key, _ = await finished(server, connect)
    archiver = server.service.archiver
    rebuilt_in: list[int] = []
    real = archive_module.rebuild

    def recorded(data: Any) -> Any:
        rebuilt_in.append(threading.get_ident())
        return real(data)

    monkeypatch.setattr(archive_module, "rebuild", recorded)
    cost = archive_module.rebuild_cost(archiver._cache[key].data)
    assert cost > 1, cost  # the match has actions: its rebuild costs more than a step's view
    # Evicted (16 other archives opened since), and the address's budget short of the rebuild.
    archiver._cache.clear()
    views_left(server, cost - 0.5)
    refused = await ann.request({"type": "replay", "archive": key, "count": 1})
    assert refused["type"] == "error" and refused["code"] == "limit/exceeded", refused
    assert rebuilt_in == [], "a refused request rebuilt the match"
    # The replay thread's queue full: refused at once, nothing rebuilt.
    views_left(server, 10**6)
    archiver.building = 1
    busy = await ann.request({"type": "replay", "archive": key, "count": 1})
    assert busy["type"] == "error" and busy["code"] == "limit/exceeded" and "busy" in busy["message"], busy
    assert rebuilt_in == []
    archiver.building = 0
    # Within the budget: rebuilt once, in the replay thread, and charged before the step's view.
    views_left(server, cost + 1)
    assert (await ann.request({"type": "replay", "archive": key, "count": 1}))["type"] == "replay"
    assert len(rebuilt_in) == 1 and rebuilt_in[0] != threading.get_ident(), "rebuilt on the event loop's thread"
    assert archiver._views._buckets and next(iter(archiver._views._buckets.values())).available() < 1
    # Cached now: the next request rebuilds nothing and costs only its view.
    views_left(server, 1)
    assert (await ann.request({"type": "replay", "archive": key, "count": 1}))["type"] == "replay"
    assert len(rebuilt_in) == 1
