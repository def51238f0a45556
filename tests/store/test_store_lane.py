"""The commit lane (meja.store.lane): pipelined replies in order, failures raised, and the
store's fallback to redis-py whenever the lane cannot carry a commit.

Against private redis-servers (``redis_servers`` in tests/conftest.py), so that killing
connections or whole servers disturbs nothing else.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from typing import Any

import pytest
import redis.asyncio as aioredis
from meja.store import open_store
from meja.store.lane import Lane, LaneError, LaneReplyError, PubSubLaneClient, lane_for
from meja.store.redis import RedisStore

LONG = 600_000


def test_lane_for_urls() -> None:
    plain = lane_for("redis://127.0.0.1:7000/0")
    assert plain is not None and plain._endpoint.port == 7000 and plain._endpoint.setup == ()
    auth = lane_for("redis://ann:s%40cret@host:7001/3")
    assert auth is not None and auth._endpoint.setup == (("AUTH", "ann", "s@cret"), ("SELECT", 3))
    assert lane_for("unix:///run/redis.sock") is not None
    # Where only redis-py knows the way: TLS, clusters, options in the query.
    assert lane_for("rediss://host:6380/0") is None
    assert lane_for("redis+cluster://h:7000,h:7001") is None
    assert lane_for("redis://host:6379/0?socket_timeout=3") is None


async def test_pipelined_replies_come_back_to_their_callers(redis_servers: Callable[..., Any]) -> None:
    server = redis_servers()
    lane = lane_for(server.url)
    assert lane is not None
    try:
        # 200 requests in flight at once on one connection: each caller gets its own reply.
        replies = await asyncio.gather(*(lane.call("ECHO", f"m{i}") for i in range(200)))
        assert replies == [f"m{i}".encode() for i in range(200)]
        counts = await asyncio.gather(*(lane.call("INCR", "n") for _ in range(50)))
        assert sorted(counts) == list(range(1, 51))
        with pytest.raises(LaneReplyError, match="NOSCRIPT"):
            await lane.call("EVALSHA", "0" * 40, 0)
        assert await lane.call("GET", "n") == b"50"  # an error reply leaves the stream in step
    finally:
        await lane.aclose()


async def test_a_lost_connection_fails_requests_in_flight_then_reconnects(redis_servers: Callable[..., Any]) -> None:
    server = redis_servers()
    lane = Lane(host="127.0.0.1", port=server.port, reconnect_s=0.05)
    admin = aioredis.Redis.from_url(server.url)
    try:
        await lane.call("CLIENT", "SETNAME", "lane")
        blocked = asyncio.ensure_future(lane.call("BLPOP", "nothing", 0))  # in flight until killed
        await asyncio.sleep(0.1)
        assert await admin.client_kill_filter(_type="normal", skipme=True) >= 1
        with pytest.raises(LaneError):
            await asyncio.wait_for(blocked, 5)
        await asyncio.sleep(0.1)
        assert await lane.call("PING") == b"PONG"  # a new connection
    finally:
        await lane.aclose()
        await admin.aclose()


async def test_a_new_connection_never_gets_the_old_ones_replies(redis_servers: Callable[..., Any]) -> None:
    """A connection being torn down (closing, its connection_lost still to come) while a request
    opens the next one: each reply goes to a request written on its own connection."""
    server = redis_servers()
    lane = Lane(host="127.0.0.1", port=server.port)
    try:
        await lane.call("PING")
        old = lane._protocol
        assert old is not None and old.transport is not None
        blocked = asyncio.ensure_future(lane.call("BLPOP", "nothing", 0))  # in flight on the old one
        await asyncio.sleep(0.05)
        # Closing now, and told so late (as a busy loop may): the next request opens a new
        # connection while the old one still has a request in flight.
        told = old.connection_lost
        old.connection_lost = lambda exc: asyncio.get_running_loop().call_later(0.3, told, exc)  # type: ignore[method-assign]
        old.transport.close()
        assert await asyncio.wait_for(lane.call("ECHO", "mine"), 5) == b"mine"  # a new connection
        assert lane._protocol is not old
        with pytest.raises(LaneError):
            await asyncio.wait_for(blocked, 5)
    finally:
        await lane.aclose()


async def test_a_silent_redis_times_out(redis_servers: Callable[..., Any]) -> None:
    server = redis_servers()
    lane = Lane(host="127.0.0.1", port=server.port, timeout_s=0.3)
    try:
        await lane.call("PING")
        server.process.send_signal(signal.SIGSTOP)  # frozen: no reply, no close
        try:
            with pytest.raises(LaneError, match="no reply"):
                await asyncio.wait_for(lane.call("PING"), 5)
        finally:
            server.process.send_signal(signal.SIGCONT)
    finally:
        await lane.aclose()


async def test_an_unreachable_redis_is_an_error_at_once() -> None:
    lane = Lane(host="127.0.0.1", port=1)  # nothing listens on port 1
    with pytest.raises(LaneError, match="cannot connect"):
        await asyncio.wait_for(lane.call("PING"), 5)
    with pytest.raises(LaneError, match="a moment ago"):  # no connect attempt per call while down
        await lane.call("PING")


async def test_commits_fall_back_to_redis_py(redis_servers: Callable[..., Any]) -> None:
    """NOSCRIPT (scripts flushed, as after a restart), a killed lane connection and a restarted
    Redis: every commit still lands exactly once."""
    server = redis_servers(appendonly=True)
    admin = aioredis.Redis.from_url(server.url)
    store = open_store(server.url)
    assert isinstance(store, RedisStore) and store._lane is not None
    try:
        assert await store.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        assert await store.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)  # NOSCRIPT on the lane: redis-py loads it
        assert await store.commit("T1", 1, b"r2", b"e2", ttl_ms=LONG)
        await admin.script_flush()
        assert await store.commit("T1", 2, b"r3", b"e3", ttl_ms=LONG)
        assert await admin.client_kill_filter(_type="normal", skipme=True) >= 1  # the lane's too
        assert await store.commit("T1", 3, b"r4", b"e4", ttl_ms=LONG)
        assert not await store.commit("T1", 3, b"rX", b"eX", ttl_ms=LONG)  # the check still holds
        server.restart()
        assert await store.commit("T1", 4, b"r5", b"e5", ttl_ms=LONG)
        assert await store.load("T1") == (5, b"r5")
        assert [v for v, _ in await store.log_since("T1", -1)] == [0, 1, 2, 3, 4, 5]
    finally:
        await store.aclose()
        await admin.aclose()


async def test_a_store_with_a_password_commits_and_hears_its_changes(redis_servers: Callable[..., Any]) -> None:
    """The lane and its pub/sub connection authenticate as redis-py would (AUTH from the URL),
    and a change committed down the lane reaches a subscriber on the lane's pub/sub."""
    # A user with a password; the default user may only PING (the fixture's own check), so any
    # connection that did not authenticate (a commit, a subscription) is refused.
    server = redis_servers(
        extra=("--user", "default", "on", "nopass", "-@all", "+ping", "--user", "ann", "on", ">s3cret", "~*", "&*",
               "+@all")
    )
    url = f"redis://ann:s3cret@127.0.0.1:{server.port}/0"
    async with open_store(url) as reader, open_store(url) as writer:
        assert isinstance(writer, RedisStore) and writer._lane is not None
        assert await writer.create("T1", "ABC123", b"r0", b"e0", ttl_ms=LONG)
        await reader.subscribe("T1")
        changes = reader.changes()
        assert await writer.commit("T1", 0, b"r1", b"e1", ttl_ms=LONG)  # NOSCRIPT first: redis-py
        assert await writer.commit("T1", 1, b"r2", b"e2", ttl_ms=LONG)  # then the lane
        got = [await asyncio.wait_for(anext(changes), 10) for _ in range(2)]
        assert [(c.version, c.record) for c in got] == [(1, b"r1"), (2, b"r2")]
    wrong = Lane(host="127.0.0.1", port=server.port, setup=(("AUTH", "ann", "nope"),))
    with pytest.raises(LaneError, match="cannot connect"):
        await wrong.call("PING")


async def test_a_cancelled_wait_for_a_message_is_cancelled_even_as_one_arrives() -> None:
    """The store's listener loops until cancelled: a cancellation that lands as a message arrives
    must end the wait (Python 3.11's wait_for dropped it, and a test teardown hung on the listener),
    and the message stays for the next read."""
    sub = PubSubLaneClient(Lane(host="127.0.0.1", port=1)).pubsub()  # its queue alone: no connection
    waiting = asyncio.ensure_future(sub.get_message(timeout=5))
    await asyncio.sleep(0)  # waiting on the queue
    sub._messages.put_nowait([b"message", b"chan", b"data"])  # wakes the reader...
    waiting.cancel()  # ...as the cancellation lands
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert await sub.get_message(timeout=1) == {"type": "message", "channel": b"chan", "data": b"data"}
