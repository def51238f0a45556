"""An asyncio client for the Meja wire protocol (client-protocol/PROTOCOL.md), over ``websockets``.

One :class:`Client` is one websocket connection. A background task reads every
frame the server sends and keeps:

- ``state``: the latest full picture (the last ``state`` message, with every
  later ``update`` merged in): ``table`` (the table map), ``version``, ``seat``,
  ``is_host``, ``view`` (the game's view for this connection);
- ``events``: every event seen, in order (``event_versions`` has the table
  version each one came with), ``updates``: every ``update`` message;
- ``errors``: every ``error`` message; ``messages``: every decoded message
  (a ``patch`` is kept as the ``update`` it stands for: its ``table`` and
  ``view`` applied to the last ones, PROTOCOL.md 7.5; ``patches`` counts them);
  ``frames``: every raw frame when ``record=True`` (the leak tests read them);
- ``close_code`` / ``close_reason`` once the connection is closed.

Requests (``hello``, ``host``, ``join``, ``act``...) send a message with a fresh
``id`` and wait for its answer: the reply that carries ``re`` equal to that id
(for ``act``, ``seat``, ``sit``, ``start``, ``rematch`` and ``leave`` it is the ``update``
of the change the request made), or an ``error`` with that ``re``, raised as
:class:`ServerError`. So a request is known to be accepted or refused, never
guessed from other traffic.

:meth:`Client.wait_for` waits for any condition on the client (``predicate(client)``
truthy) with a timeout; it raises :class:`ConnectionClosed` if the connection
closes first. Every wait has a timeout: a test never hangs.

The library imports only ``msgpack`` and ``websockets``: never the server.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Generator
from types import TracebackType
from typing import Any, TypeVar

import websockets
from websockets.asyncio.client import ClientConnection

from .codec import DecodeError, decode, encode
from .errors import ConnectionClosed, ServerError
from .patch import PatchError, apply_patch

__all__ = ["PROTOCOL_VERSION", "Client", "connect"]

PROTOCOL_VERSION = 1
#: Seconds a request or wait may take by default (generous: CI machines are slow).
DEFAULT_TIMEOUT = 30.0

T = TypeVar("T")
Message = dict[str, Any]


class Client:
    """One connection to a Meja server. Build it with :func:`connect`."""

    def __init__(
        self, ws: ClientConnection, url: str, *, record: bool = False, pace: bool = True, diffs: bool = True
    ) -> None:
        self.ws = ws
        self.url = url
        #: ask in ``hello`` for updates in the patch form (PROTOCOL.md 7.5)
        self.diffs = diffs
        #: how many updates came in the patch form
        self.patches = 0
        #: by table id: the table map and view last received (what a ``patch`` applies to)
        self._documents: dict[str, Message] = {}
        self.record = record
        #: keep under the server's message rate (``welcome.limits``): see :meth:`send`
        self.pace = pace
        self._bucket = 0.0
        self._bucket_at = 0.0
        #: raw frames received, in order (only with ``record=True``)
        self.frames: list[bytes | str] = []
        #: frames that did not decode (the server broke the protocol)
        self.bad_frames: list[bytes | str] = []
        self.messages: list[Message] = []
        self.welcome: Message | None = None
        #: the last ``joined`` message (table id, room code, link, seat, seat token, host token)
        self.joined: Message | None = None
        self.host_token: str | None = None
        self.state: Message | None = None
        self.events: list[Message] = []
        self.event_versions: list[int] = []
        self.updates: list[Message] = []
        self.errors: list[Message] = []
        self.close_code: int | None = None
        self.close_reason: str | None = None
        self._version: int | None = None
        self._ids = itertools.count(1)
        self._waiters: list[asyncio.Future[None]] = []
        self._closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read(), name=f"meja-client-read {url}")

    # ------------------------------------------------------------------ what the client knows

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    @property
    def version(self) -> int | None:
        """The latest table version received (``state`` or ``update``)."""
        return self._version

    @property
    def table(self) -> Message | None:
        """The latest table map (id, code, status, seats...)."""
        return None if self.state is None else self.state.get("table")

    @property
    def view(self) -> Message | None:
        """The latest game view for this connection (``None`` in the lobby)."""
        return None if self.state is None else self.state.get("view")

    @property
    def seat(self) -> int | None:
        if self.state is not None and "seat" in self.state:
            seat: int | None = self.state["seat"]
            return seat
        return None if self.joined is None else self.joined.get("seat")

    @property
    def table_id(self) -> str | None:
        if self.joined is not None:
            return str(self.joined["table"])
        table = self.table
        return None if table is None else str(table["id"])

    @property
    def code(self) -> str | None:
        """The room code."""
        if self.joined is not None:
            return str(self.joined["code"])
        table = self.table
        return None if table is None else str(table["code"])

    @property
    def token(self) -> str | None:
        """This connection's seat token (keep it to :meth:`resume`)."""
        return None if self.joined is None else self.joined.get("token")

    @property
    def status(self) -> str | None:
        table = self.table
        return None if table is None else table.get("status")

    # ------------------------------------------------------------------ reading

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                if self.record:
                    self.frames.append(frame)
                if isinstance(frame, str):
                    self.bad_frames.append(frame)  # PROTOCOL.md 1: every message is a binary frame
                    continue
                try:
                    message = decode(frame)
                    if message["type"] == "patch":
                        message = self._unpatch(message)
                except (DecodeError, PatchError):
                    self.bad_frames.append(frame)
                    continue
                self._take(message)
                self._wake()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.close_reason = self.ws.close_reason
            self._closed.set()
            self._wake()

    def _take(self, message: Message) -> None:
        self.messages.append(message)
        kind = message["type"]
        if kind == "welcome":
            self.welcome = message
        elif kind == "joined":
            self.joined = message
            if message.get("host_token"):
                self.host_token = message["host_token"]
        elif kind == "state":
            self.state = {k: v for k, v in message.items() if k not in ("type", "re")}
            self._keep(message)
            self._set_version(message)
        elif kind == "update":
            self.updates.append(message)
            version = message.get("version")
            for event in message.get("events") or ():
                self.events.append(event)
                self.event_versions.append(version if isinstance(version, int) else -1)
            picture = dict(self.state or {})
            for key, value in message.items():
                if key in ("type", "re", "events"):
                    continue
                if key == "table" and not isinstance(value, dict):
                    continue  # the table's id, not its map
                picture[key] = value
            self.state = picture
            self._keep(message)
            self._set_version(message)
        elif kind == "error":
            self.errors.append(message)

    def _unpatch(self, message: Message) -> Message:
        """The ``update`` a ``patch`` stands for: its operations applied to the last table map and view."""
        last = self._documents.get(message.get("table"))  # type: ignore[arg-type]
        if last is None:
            raise PatchError("a patch before any state of its table")
        document = apply_patch(last, message["patch"])
        self.patches += 1
        update = {k: v for k, v in message.items() if k != "patch"}
        update.update(type="update", table=document["table"], view=document["view"])
        return update

    def _keep(self, message: Message) -> None:
        table = message.get("table")
        if isinstance(table, dict) and isinstance(table.get("id"), str):
            self._documents[table["id"]] = {"table": table, "view": message.get("view")}

    def _set_version(self, message: Message) -> None:
        version = message.get("version")
        if isinstance(version, int):
            self._version = version

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _next_message(self) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        await waiter

    async def wait_for(
        self, predicate: Callable[[Client], T | None], timeout: float = DEFAULT_TIMEOUT
    ) -> T:
        """Wait until ``predicate(self)`` is truthy and return its value.

        Checked now and after every message. :class:`ConnectionClosed` if the
        connection closes first (after one last check), ``TimeoutError`` (with
        the last message received in its text) after ``timeout`` seconds. An
        exception raised by the predicate propagates.
        """
        try:
            async with asyncio.timeout(timeout):
                while True:
                    result = predicate(self)
                    if result:
                        return result
                    if self.closed:
                        raise ConnectionClosed(self.close_code, self.close_reason)
                    await self._next_message()
        except TimeoutError:
            last = self.messages[-1] if self.messages else None
            raise TimeoutError(
                f"waited {timeout}s for {getattr(predicate, '__name__', predicate)!s} "
                f"at version {self._version}; last message: {_short(last)}"
            ) from None

    async def wait_closed(self, timeout: float = DEFAULT_TIMEOUT) -> int | None:
        """Wait until the connection is closed; its close code."""
        async with asyncio.timeout(timeout):
            await self._closed.wait()
        return self.close_code

    # ------------------------------------------------------------------ sending

    async def send(self, message: Message) -> None:
        """Send one message as it is (no ``id`` added, no waiting for an answer).

        With ``pace`` (the default), waits as needed to stay under the rate the
        server's ``welcome.limits`` announce (``rate_per_s``, ``rate_burst``), with
        a margin: a message over the limit would be dropped, and its
        ``protocol/rate_limited`` error cannot say which request it was.
        """
        if self.pace:
            await self._wait_for_rate()
        await self.send_raw(encode(message))

    async def _wait_for_rate(self) -> None:
        limits = (self.welcome or {}).get("limits") or {}
        rate, burst = limits.get("rate_per_s"), limits.get("rate_burst")
        if not isinstance(rate, (int, float)) or not isinstance(burst, (int, float)) or rate <= 0:
            return
        rate, capacity = 0.8 * rate, max(1.0, burst / 2)
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._bucket_at == 0.0:
            self._bucket, self._bucket_at = capacity, now
        self._bucket = min(capacity, self._bucket + (now - self._bucket_at) * rate)
        self._bucket_at = now
        if self._bucket < 1.0:
            await asyncio.sleep((1.0 - self._bucket) / rate)
            self._bucket, self._bucket_at = 1.0, loop.time()
        self._bucket -= 1.0

    async def send_raw(self, frame: bytes | str) -> None:
        """Send a frame as it is: bytes as a binary frame, str as a text frame (for bad input)."""
        try:
            await self.ws.send(frame)
        except websockets.ConnectionClosed:
            await self._closed.wait()
            raise ConnectionClosed(self.close_code, self.close_reason) from None

    def next_id(self) -> int:
        return next(self._ids)

    async def request(
        self,
        kind: str,
        fields: Message,
        done: Callable[[Client, int, int, int | None], T | None],
        timeout: float = DEFAULT_TIMEOUT,
        nil: frozenset[str] = frozenset(),
    ) -> T:
        """Send ``{type: kind, id, **fields}`` (``None`` fields left out, but those named in ``nil``,
        sent as nil); wait for ``done``.

        ``done(client, id, start, version_at_send)`` is checked after every
        message; ``start`` indexes ``messages`` at send time. An ``error``
        carrying ``re == id`` raises :class:`ServerError`.
        """
        rid = self.next_id()
        message: Message = {"type": kind, "id": rid}
        message.update((k, v) for k, v in fields.items() if v is not None or k in nil)
        start = len(self.messages)
        version = self._version
        await self.send(message)

        def answered(client: Client) -> T | None:
            for reply in client.messages[start:]:
                if reply["type"] == "error" and reply.get("re") == rid:
                    raise ServerError(reply)
            return done(client, rid, start, version)

        answered.__name__ = f"the answer to {kind} #{rid}"
        return await self.wait_for(answered, timeout)

    # ------------------------------------------------------------------ the messages

    async def hello(
        self, client: str = "meja-client/0.1", protocol: int = PROTOCOL_VERSION
    ) -> Message:
        """``hello``: the ``welcome`` (protocol, server, limits, games)."""
        fields: Message = {"protocol": protocol, "client": client}
        if self.diffs:
            fields["diffs"] = True
        return await self.request("hello", fields, _reply("welcome"))

    async def host(
        self,
        *,
        name: str,
        seats: int | None = None,
        game: str | None = None,
        options: Message | None = None,
        bots: str | None = None,
        deal_code: str | None = None,
        grace_s: int | None = None,
        turn_limit_s: int | None = None,
        talk: Message | None = None,
        seated: bool | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """Open a table and take seat 0 (``seated=False``: no seat, as a shared screen that hosts);
        ``joined`` (with the host token) once ``state`` came."""
        fields: Message = {
            "game": game,
            "options": options,
            "seats": seats,
            "name": name,
            "bots": bots,
            "deal_code": deal_code,
            "grace_s": grace_s,
            "turn_limit_s": turn_limit_s,
            "talk": talk,
            "seated": seated,
        }
        return await self.request("host", fields, _joined_then_state, timeout)

    async def join(
        self,
        *,
        name: str,
        code: str | None = None,
        table: str | None = None,
        seat: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """Take a seat by room code (or table id); returns ``joined`` once ``state`` came."""
        fields: Message = {"code": code, "table": table, "name": name, "seat": seat}
        return await self.request("join", fields, _joined_then_state, timeout)

    async def watch(
        self,
        *,
        code: str | None = None,
        table: str | None = None,
        since: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """Watch a table as a spectator (``since``: missed events first); returns the ``state``."""
        fields: Message = {"code": code, "table": table, "since": since}
        return await self.request("watch", fields, _reply("state"), timeout)

    async def resume(
        self,
        *,
        table: str,
        token: str,
        since: int | None = None,
        host_token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """Take a seat back with its token; the missed ``update``s come first, then ``state``."""
        fields: Message = {"table": table, "token": token, "since": since, "host_token": host_token}
        return await self.request("resume", fields, _joined_then_state, timeout)

    async def seat_to(
        self, seat: int, to: str, *, level: str | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> Message | None:
        """``seat`` (host, lobby): make ``seat`` a bot (``to="bot"``, with ``level``) or empty."""
        fields: Message = {"table": self._table_field(), "seat": seat, "to": to, "level": level}
        return await self.request("seat", fields, _update_with_re, timeout)

    async def sit(self, seat: int, *, timeout: float = DEFAULT_TIMEOUT) -> Message | None:
        """``sit`` (a seated person, lobby): move to the empty ``seat``; the token stays this seat's."""
        return await self.request("sit", {"table": self._table_field(), "seat": seat}, _update_with_re, timeout)

    async def start(self, *, timeout: float = DEFAULT_TIMEOUT) -> Message | None:
        """``start`` (host, lobby): deal the first round."""
        return await self.request("start", {"table": self._table_field()}, _update_with_re, timeout)

    async def act(
        self, action: Message, *, version: int | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> Message | None:
        """``act``: submit ``action`` at ``version`` (default: the latest one received).

        Returns the ``update`` that shows it applied (rarely a ``state``, at a later
        version: PROTOCOL.md 8); raises :class:`ServerError` if the server refused it
        (``action/stale_version``: the table moved on).
        """
        v = self._version if version is None else version
        fields: Message = {"table": self._table_field(), "version": v, "action": action}
        return await self.request("act", fields, _update_with_re, timeout)

    async def rematch(self, *, timeout: float = DEFAULT_TIMEOUT) -> Message | None:
        """``rematch`` (host, match over): a new match at the same table."""
        return await self.request("rematch", {"table": self._table_field()}, _update_with_re, timeout)

    async def leave(self, *, timeout: float = DEFAULT_TIMEOUT) -> Message | None:
        """``leave``: give up the seat (the connection stays open)."""
        return await self.request("leave", {"table": self._table_field()}, _update_with_re, timeout)

    async def ping(self, *, timeout: float = DEFAULT_TIMEOUT) -> Message:
        return await self.request("ping", {}, _reply("pong"), timeout)

    # ------------------------------------------------------------------ talk at the table (PROTOCOL.md 16)

    async def say(self, text: str, *, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """``say``: a chat line; the ``talk`` message that answers it (the line as stored)."""
        return await self.request("say", {"table": self._table_field(), "text": text}, _answer("talk"), timeout)

    async def react(self, reaction: str, *, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """``react``: one of the fixed reactions; the ``talk`` that answers it."""
        fields: Message = {"table": self._table_field(), "reaction": reaction}
        return await self.request("react", fields, _answer("talk"), timeout)

    async def talk_policy(self, *, timeout: float = DEFAULT_TIMEOUT, **settings: Any) -> Message | None:
        """``talk_policy`` (host): any of ``chat``, ``spectators``, ``table_talk``, ``relay``."""
        return await self.request("talk_policy", {"table": self._table_field(), **settings}, _update_with_re, timeout)

    async def mute(self, seat: int, muted: bool = True, *, timeout: float = DEFAULT_TIMEOUT) -> Message | None:
        """``mute`` (host): mute (or unmute) a seat's person for the whole table."""
        fields: Message = {"table": self._table_field(), "seat": seat, "muted": muted}
        return await self.request("mute", fields, _update_with_re, timeout)

    async def call(
        self, *, join: bool = True, mic: bool = False, cam: bool = False, speaking: bool = False,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> Message:
        """``call``: join the call (the answer is ``ice``), say what changed or leave (``call``)."""
        fields: Message = {"table": self._table_field(), "join": join, "mic": mic, "cam": cam, "speaking": speaking}
        return await self.request("call", fields, _answer("ice", "call"), timeout)

    async def signal(
        self, to: int, peer: str, kind: str, *, sdp: list[str] | None = None, candidates: list[Message] | None = None
    ) -> None:
        """``signal``: relayed to the connection of seat ``to`` in the call as ``peer``; no answer."""
        message: Message = {"type": "signal", "table": self._table_field(), "to": to, "peer": peer, "kind": kind}
        if sdp is not None:
            message["sdp"] = sdp
        if candidates is not None:
            message["candidates"] = candidates
        await self.send(message)

    async def host_to(self, seat: int | None, *, timeout: float = DEFAULT_TIMEOUT) -> Message | None:
        """``host_to``: hand the host's rights to the person at ``seat``, or take them back (``None``)."""
        fields: Message = {"table": self._table_field(), "seat": seat}
        return await self.request("host_to", fields, _update_with_re, timeout, nil=frozenset({"seat"}))

    async def hint(self, *, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """``hint``: a suggested move for this seat (``action``, one of its legal ones, at ``version``;
        ``why``, the bot's reason as data, when it gave one: PROTOCOL.md 16.1)."""
        return await self.request("hint", {"table": self._table_field()}, _answer("hint"), timeout)

    def talk_lines(self) -> list[Message]:
        """Every chat line and reaction received, history included, each once (by ``id``)."""
        seen: dict[str, Message] = {}
        for message in self.messages:
            if message["type"] == "talk":
                for line in message.get("lines") or ():
                    seen.setdefault(line["id"], line)
        return list(seen.values())

    def _table_field(self) -> str:
        table_id = self.table_id
        if table_id is None:
            raise RuntimeError("this connection is at no table: host, join, watch or resume first")
        return table_id

    # ------------------------------------------------------------------ ending

    def cut(self) -> None:
        """Drop the TCP connection with no closing handshake (a network cut, for tests)."""
        transport = self.ws.transport
        if transport is not None:
            transport.abort()

    async def close(self) -> None:
        """Close the connection (code 1000) and stop the reader."""
        try:
            await self.ws.close()
        finally:
            try:
                await asyncio.wait_for(self._reader, 10)
            except (TimeoutError, asyncio.CancelledError):
                self._reader.cancel()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


# ---------------------------------------------------------------------- how a request is answered


def _reply(kind: str) -> Callable[[Client, int, int, int | None], Message | None]:
    """The first ``kind`` message after the request (its ``re`` if it has one)."""

    def done(client: Client, rid: int, start: int, version: int | None) -> Message | None:
        for reply in client.messages[start:]:
            if reply["type"] == kind and reply.get("re", rid) == rid:
                return reply
        return None

    return done


def _answer(*kinds: str) -> Callable[[Client, int, int, int | None], Message | None]:
    """The message of one of ``kinds`` that carries the request's ``re``."""

    def done(client: Client, rid: int, start: int, version: int | None) -> Message | None:
        for reply in client.messages[start:]:
            if reply["type"] in kinds and reply.get("re") == rid:
                return reply
        return None

    return done


def _joined_then_state(client: Client, rid: int, start: int, version: int | None) -> Message | None:
    """``joined`` for this request, then the ``state`` that follows it."""
    joined_at = None
    for i in range(start, len(client.messages)):
        reply = client.messages[i]
        if joined_at is None:
            if reply["type"] == "joined" and reply.get("re", rid) == rid:
                joined_at = i
        elif reply["type"] == "state":
            return client.messages[joined_at]
    return None


def _update_with_re(client: Client, rid: int, start: int, version: int | None) -> Message | None:
    """The ``update`` (or ``state``) that answers the request: it carries ``re`` (PROTOCOL.md 2)."""
    for reply in client.messages[start:]:
        if reply.get("re") == rid and reply["type"] in ("update", "state"):
            return reply
    return None


def _short(message: Message | None) -> str:
    text = repr(message)
    return text if len(text) < 300 else text[:300] + "..."


# ---------------------------------------------------------------------- connecting


class connect:  # lower case: used like a function, as websockets.connect is
    """Open a connection: ``client = await connect(url)`` or ``async with connect(url) as client``.

    ``hello=True`` sends ``hello`` and waits for ``welcome`` before returning; ``diffs=True`` (the
    default) asks in it for updates in the patch form (the client rebuilds each whole ``update``).
    ``record=True`` keeps every raw frame in ``client.frames``. ``pace=False``
    sends as fast as asked, over the server's rate limit if need be (for tests).
    """

    def __init__(
        self,
        url: str,
        *,
        hello: bool = True,
        record: bool = False,
        pace: bool = True,
        diffs: bool = True,
        open_timeout: float = DEFAULT_TIMEOUT,
        **ws_options: Any,
    ) -> None:
        self.url = url
        self.diffs = diffs
        self.hello = hello
        self.record = record
        self.pace = pace
        self.open_timeout = open_timeout
        self.ws_options = ws_options
        self.client: Client | None = None

    async def _open(self) -> Client:
        ws = await websockets.connect(self.url, open_timeout=self.open_timeout, **self.ws_options)
        client = Client(ws, self.url, record=self.record, pace=self.pace, diffs=self.diffs)
        if self.hello:
            try:
                await client.hello()
            except BaseException:
                await client.close()
                raise
        self.client = client
        return client

    def __await__(self) -> Generator[Any, None, Client]:
        return self._open().__await__()

    async def __aenter__(self) -> Client:
        return await self._open()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.client is not None:
            await self.client.close()
