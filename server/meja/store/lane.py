"""A lean, pipelined Redis connection for the store's hottest command: the commit.

Why it exists
-------------
Every accepted move is one commit: one EVALSHA. Through redis-py's asyncio
client a call costs about 80 microseconds of client CPU on this machine (the
connection pool's lock and condition, a timeout timer per read, argument
encoding in Python, the script object's checks); written straight onto one
connection with ``hiredis.pack_command`` and read back with ``hiredis.Reader``
it costs about 9 (measured 2026-11-30, 50 callers in parallel against a local
redis-server). At a thousand moves a second that is most of a tenth of a core,
so :class:`meja.store.redis.RedisStore` sends commits down this lane and keeps
redis-py for everything else (and for the cases below).

What it is
----------
One TCP or Unix-socket connection. Requests are written the moment they are
made and replies matched to them in order (Redis answers a connection's
commands in the order it received them), so any number of commits are in
flight at once on one connection: pipelining without batching.

What it is not
--------------
It has no retries, no reconnect backoff and no script loading: every failure
is raised to the caller as :class:`LaneError`, and the store then makes the
same call through redis-py, which has all three (see "Retries are safe" in
:mod:`meja.store.redis`: a commit carries its nonce, so sending it twice is
harmless). A reply that Redis sends as an error (``NOSCRIPT`` after a Redis
restart, a script error) comes back as :class:`LaneReplyError`. The lane
reconnects on the next call after a failure, at most once per
``reconnect_s`` (a Redis that is down costs no connect attempt per commit).

A request with no reply after ``timeout_s`` means the connection is dead (a
Redis frozen or unreachable): a watchdog, one timer rather than one per
request, closes it, and every request in flight fails over to redis-py.

Each connection keeps its own queue of requests in flight: a reply is only
ever matched to a request written on the same connection, even when a new
connection is opened while an old one is still being torn down.

Only plain ``redis://`` and ``unix://`` URLs use a lane (TLS and clusters go
through redis-py alone): see :func:`lane_for`.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import hiredis
from redis.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError

__all__ = ["Lane", "LaneError", "LaneReplyError", "PubSubLane", "PubSubLaneClient", "lane_for"]


_P = TypeVar("_P", bound=asyncio.BaseProtocol)


class LaneError(Exception):
    """The lane could not carry a request (no connection, connection lost, timed out)."""


class LaneReplyError(LaneError):
    """Redis answered with an error reply (its text is the message)."""


class _Protocol(asyncio.Protocol):
    """One connection, with the requests in flight on it (replies come back in their order)."""

    def __init__(self, lane: Lane) -> None:
        self.lane = lane
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None
        #: the requests written on this connection and not answered yet: (future, when sent)
        self.waiting: collections.deque[tuple[asyncio.Future[Any], float]] = collections.deque()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports are not asyncio.Transport subclasses, but they are one in all but name)
        self.transport = cast(asyncio.Transport, transport)

    def is_open(self) -> bool:
        return self.transport is not None and not self.transport.is_closing()

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        reader.feed(data)
        waiting = self.waiting
        while True:
            reply = reader.gets()
            if reply is False:
                return
            if not waiting:  # a reply nobody asked for: the stream is out of step
                self.close(LaneError("unexpected reply from Redis"))
                return
            future, _ = waiting.popleft()
            if future.done():
                continue  # its caller was cancelled; the reply still had to be read
            if isinstance(reply, hiredis.ReplyError):
                future.set_exception(LaneReplyError(str(reply)))
            else:
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.close(LaneError(f"connection lost: {exc}" if exc else "connection closed"))

    def close(self, error: LaneError) -> None:
        """Close this connection and fail every request in flight on it with ``error``."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()
        waiting, self.waiting = self.waiting, collections.deque()
        for future, _ in waiting:
            if not future.done():
                future.set_exception(error)
        self.lane._forget(self)


@dataclass(frozen=True, slots=True)
class _Endpoint:
    """Where and how to connect: TCP ``host:port`` or the Unix socket ``path``; ``setup``: the
    commands sent first on each connection (AUTH, SELECT); ``timeout_s`` bounds a connect."""

    host: str | None
    port: int
    path: str | None
    setup: tuple[tuple[bytes | str | int, ...], ...]
    timeout_s: float

    async def open(self, factory: Callable[[], _P]) -> _P:
        loop = asyncio.get_running_loop()
        if self.path is not None:
            _, protocol = await loop.create_unix_connection(factory, self.path)
        else:
            _, protocol = await loop.create_connection(factory, self.host or "localhost", self.port)
        return protocol


class Lane:
    """See the module docstring. ``setup``: commands sent first on each connection (AUTH, SELECT)."""

    def __init__(
        self,
        *,
        host: str | None = None,
        port: int = 6379,
        path: str | None = None,
        setup: tuple[tuple[bytes | str | int, ...], ...] = (),
        timeout_s: float = 10.0,
        reconnect_s: float = 1.0,
    ) -> None:
        self._endpoint = _Endpoint(host, port, path, setup, timeout_s)
        self._timeout_s = timeout_s
        self._reconnect_s = reconnect_s
        self._protocol: _Protocol | None = None
        self._connecting: asyncio.Lock | None = None
        self._failed_at = -1e9
        self._watchdog: asyncio.TimerHandle | None = None
        self._closed = False

    async def call(self, *args: bytes | str | int) -> Any:
        """Send one command and return its reply; :class:`LaneError` on any failure."""
        protocol = self._protocol
        if protocol is None or not protocol.is_open():
            protocol = await self._connect()
        return await self._send(protocol, args)

    async def aclose(self) -> None:
        self._closed = True
        if self._protocol is not None:
            self._protocol.close(LaneError("the lane was closed"))

    # -- connection -----------------------------------------------------------------------

    async def _send(self, protocol: _Protocol, args: tuple[bytes | str | int, ...]) -> Any:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        protocol.waiting.append((future, loop.time()))
        assert protocol.transport is not None
        protocol.transport.write(hiredis.pack_command(args))  # type: ignore[arg-type]  # (stub: one-tuple)
        if self._watchdog is None:
            self._watchdog = loop.call_later(self._timeout_s, self._watch)
        return await future

    async def _connect(self) -> _Protocol:
        if self._closed:
            raise LaneError("the lane is closed")
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            protocol = self._protocol
            if protocol is not None and protocol.is_open():
                return protocol  # another caller connected meanwhile
            loop = asyncio.get_running_loop()
            if loop.time() - self._failed_at < self._reconnect_s:
                raise LaneError("Redis was unreachable a moment ago")
            protocol = None
            try:
                async with asyncio.timeout(self._timeout_s):
                    protocol = await self._endpoint.open(lambda: _Protocol(self))
                    for command in self._endpoint.setup:
                        await self._send(protocol, command)
            except (OSError, TimeoutError, LaneError) as exc:
                self._failed_at = loop.time()
                if protocol is not None:
                    protocol.close(LaneError(f"cannot connect: {exc}"))
                raise LaneError(f"cannot connect to Redis: {exc}") from None
            self._protocol = protocol
            return protocol

    def _forget(self, protocol: _Protocol) -> None:
        """``protocol`` is closed: new requests go to a new connection."""
        if self._protocol is protocol:
            self._protocol = None

    def _watch(self) -> None:
        """One timer: the oldest request in flight must not be older than the timeout."""
        self._watchdog = None
        protocol = self._protocol
        if protocol is None or not protocol.waiting:
            return
        loop = asyncio.get_running_loop()
        age = loop.time() - protocol.waiting[0][1]
        if age >= self._timeout_s:
            protocol.close(LaneError(f"no reply from Redis in {self._timeout_s} s"))
            return
        self._watchdog = loop.call_later(self._timeout_s - age, self._watch)


def lane_for(url: str, *, timeout_s: float = 10.0) -> Lane | None:
    """A lane to the Redis of ``url``, or ``None`` where the lane does not go (TLS, clusters,
    URL options only redis-py knows). The URL is read by redis-py's own parser."""
    if not url.startswith(("redis://", "unix://")):
        return None
    try:
        options = dict(parse_url(url))  # type: ignore[no-untyped-call]
    except ValueError:
        return None
    username, password = options.pop("username", None), options.pop("password", None)
    db = int(options.pop("db", 0) or 0)
    host, port, path = options.pop("host", None), int(options.pop("port", 6379) or 6379), options.pop("path", None)
    options.pop("connection_class", None)
    if options:
        return None  # socket options, timeouts...: leave the connection to redis-py
    setup: list[tuple[bytes | str | int, ...]] = []
    if password is not None:
        setup.append(("AUTH", username, password) if username else ("AUTH", password))
    if db:
        setup.append(("SELECT", db))
    return Lane(host=host, port=port, path=path, setup=tuple(setup), timeout_s=timeout_s)


# --------------------------------------------------------------------------- the subscriber


class _Subscriber(asyncio.Protocol):
    """A subscriber connection's protocol: every parsed reply goes on ``messages``."""

    def __init__(self, messages: asyncio.Queue[Any]) -> None:
        self.messages = messages
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        reader.feed(data)
        put = self.messages.put_nowait
        while True:
            reply = reader.gets()
            if reply is False:
                return
            put(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.messages.put_nowait(LaneError(f"connection lost: {exc}" if exc else "connection closed"))


class PubSubLane:
    """A pub/sub connection on the lane's terms, for :class:`meja.store.redis.RedisStore`'s listener.

    The subset of redis-py's ``PubSub`` the listener uses (``connect``, ``subscribe``,
    ``unsubscribe``, ``ping``, ``get_message``, ``aclose``), with the same message
    dicts (``type``, ``channel``, ``data``) and redis-py's ``ConnectionError`` for a
    broken connection, so the listener's reconnect and resync logic is unchanged.
    What differs is the cost per message: hiredis parses what arrives into a queue,
    and a message already there is returned at once, with no timer and no lock;
    redis-py's ``get_message`` spent about as much CPU per change as a commit did.
    Every process receives every change of its tables this way, its own included.
    """

    def __init__(self, endpoint: _Endpoint) -> None:
        self._endpoint = endpoint
        self._messages: asyncio.Queue[Any] = asyncio.Queue()
        self._protocol: _Subscriber | None = None

    async def connect(self) -> None:
        try:
            async with asyncio.timeout(self._endpoint.timeout_s):
                self._protocol = await self._endpoint.open(lambda: _Subscriber(self._messages))
                for command in self._endpoint.setup:  # AUTH: answered before any subscription
                    self._write(command)
                    reply = await self._messages.get()
                    if isinstance(reply, Exception):
                        raise LaneError(str(reply))
        except (OSError, TimeoutError, LaneError) as exc:
            await self.aclose()
            raise _connection_error(f"cannot connect to Redis: {exc}") from None

    async def subscribe(self, *channels: bytes | str) -> None:
        self._write(("SUBSCRIBE", *channels))

    async def unsubscribe(self, *channels: bytes | str) -> None:
        self._write(("UNSUBSCRIBE", *channels))

    async def ping(self) -> None:
        self._write(("PING",))

    async def get_message(self, timeout: float) -> dict[str, Any] | None:
        """The next message (subscribe confirmations and pongs included), or ``None`` after ``timeout``."""
        messages = self._messages
        if messages.empty():
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for drops a cancellation that
            # lands as the message arrives, and the store's listener, which loops until it is
            # cancelled, then ran on after its store was closed (a test teardown hung on it).
            try:
                async with asyncio.timeout(timeout):
                    reply = await messages.get()
            except TimeoutError:
                return None
        else:
            reply = messages.get_nowait()
        if isinstance(reply, Exception):
            messages.put_nowait(reply)  # the connection stays broken for every later call
            raise _connection_error(str(reply))
        if not isinstance(reply, list) or len(reply) < 2:
            return {"type": "other", "channel": None, "data": reply}
        kind = reply[0].decode() if isinstance(reply[0], bytes) else str(reply[0])
        return {"type": kind, "channel": reply[1], "data": reply[2] if len(reply) > 2 else None}

    async def aclose(self) -> None:
        protocol, self._protocol = self._protocol, None
        if protocol is not None and protocol.transport is not None:
            protocol.transport.abort()

    def _write(self, command: tuple[bytes | str | int, ...]) -> None:
        protocol = self._protocol
        if protocol is None or protocol.transport is None or protocol.transport.is_closing():
            raise _connection_error("the pub/sub connection is closed")
        protocol.transport.write(hiredis.pack_command(command))  # type: ignore[arg-type]


class PubSubLaneClient:
    """What ``RedisStore`` asks for a pub/sub connection (``client.pubsub()``), on the lane."""

    def __init__(self, lane: Lane) -> None:
        self._lane = lane

    def pubsub(self) -> PubSubLane:
        return PubSubLane(self._lane._endpoint)

    async def aclose(self) -> None:
        """Nothing to release: each ``PubSubLane`` owns its connection."""


def _connection_error(message: str) -> Exception:
    """redis-py's ConnectionError, which the store's listener already treats as "reconnect"."""
    return RedisConnectionError(message)
