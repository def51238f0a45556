"""One client connection: its rate limit, its outgoing queue, and what each message does.

A :class:`Session` reads frames in order, one at a time (a request finishes,
its commit included, before the next is read), and answers through one
ordered outbox drained by a writer task, so that replies, updates pushed by
other players' actions and a final close code reach the client in the order
they were queued, and a client that does not read cannot block anyone else:
past ``Settings.outbox_max`` queued messages, or ``Settings.outbox_max_bytes``
queued bytes (a short request may ask for a reply of hundreds of KB), it is
closed with 4004.

Every frame goes through, in order:

1. the rate limit (a token bucket: ``rate_per_s`` with bursts of
   ``rate_burst``): over it, the message is dropped with ``protocol/rate_limited``
   (at most one such reply a second), and the next frame is read only when a
   token is back (backpressure: a flooder fills its own TCP window instead of
   this process's CPU; the other connections keep their latency,
   tests/fuzz/test_fuzz_flood.py); over it for ``flood_close_s``, close 4002;
2. the strict codec (:func:`meja.protocol.decode`): a malformed frame closes 4000;
3. the message parser (:func:`meja.protocol.parse_client`): ``protocol/bad_message``
   or ``protocol/unknown_type``;
4. the request itself, which may be refused with any code of
   :mod:`meja.protocol.errors` (or a rules code, passed through) and then
   changes nothing.

Metrics (:mod:`meja.server.metrics`): every error reply counts by its code,
a refused ``act`` also as a refused action, every close the server queues by
its close code, and an accepted ``act`` adds its handling time (from the frame
coming off the websocket to the end of its handling, its update queued) to the
latency histogram.

What a connection holds: at most ``max_tables_per_connection`` tables, at each
a seat (with its token's hash, and the host token's if it is the host) or a
spectator's place. Those live in the hub (:class:`meja.server.hub.Member`),
which keeps them in line with the committed table.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from meja import __version__, games
from meja.protocol import codec, messages
from meja.protocol.errors import (
    BadSeat,
    BadToken,
    CloseCode,
    LimitExceeded,
    MalformedFrame,
    MejaError,
    NotHost,
    NotSeated,
    RateLimited,
    SeatTaken,
    TableNotFound,
    UnsupportedVersion,
    wire_error,
)
from meja.rules.errors import RulesError

from .hub import Hub, Member, Reply
from .learn import learn_answer, learn_step
from .limits import TokenBucket
from .metrics import Metrics
from .records import screen_token
from .rooms import token_hash
from .service import Asker, TableService
from .settings import Settings
from .tables import clean_name

__all__ = ["HANDLERS", "Session", "TokenBucket"]

log = logging.getLogger("meja.server.session")

SERVER_NAME: Final = f"meja/{__version__}"


@functools.cache
def _catalog(default_game: str | None) -> tuple[dict[str, Any], ...]:
    """The games' descriptions for ``welcome``, the server's default game first (built once)."""
    plugins = sorted(games.plugins(), key=lambda p: p.name != (default_game or games.names()[0]))
    return tuple(p.describe() for p in plugins)


@dataclass(frozen=True, slots=True)
class _Close:
    code: int
    reason: str


@dataclass(frozen=True, slots=True)
class _Delivered:
    """Queued after the ``state`` that seats this connection at a table: written means delivered."""

    table_id: str


class Session:
    """One websocket connection; see the module docstring."""

    def __init__(
        self,
        *,
        cid: str,
        address: str,
        settings: Settings,
        service: TableService,
        hub: Hub,
        send: Callable[[bytes], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        clock: Callable[[], float] = time.monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        self.cid = cid
        self.address = address
        self.settings = settings
        self.service = service
        self.hub = hub
        self.conn = (hub.process_id, cid)
        self._send_frame = send
        self._close = close
        self.clock = clock
        self.bucket = TokenBucket(settings.rate_per_s, settings.rate_burst, clock)
        self.flooding_since: float | None = None
        self.last_rate_reply = -1e9
        self.tables: set[str] = set()
        #: updates as patches of what this connection was last sent (``hello.diffs``)
        self.diffs = False
        self.closing = False
        #: Shutdown: read no new requests; the one in progress finishes (see MejaServer.stop).
        self.draining = False
        self.in_flight = False
        self._outbox: deque[bytes | _Close | _Delivered] = deque()
        #: bytes of the frames in the outbox (``outbox_max_bytes`` bounds them as ``outbox_max`` their number)
        self._queued = 0
        #: tables whose seat this connection took and whose ``state`` reached the socket: a seat
        #: given up by a connection that never got there keeps its away clock (tables.disconnect)
        self.delivered: set[str] = set()
        self._ready = asyncio.Event()
        self._limits = settings.codec_limits
        self.metrics = metrics if metrics is not None else Metrics()
        #: when the frame being handled came off the websocket (time.perf_counter)
        self._received = 0.0
        #: archives this connection found (its next lookups of them spend no room-code budget)
        self.archives: set[str] = set()

    # ------------------------------------------------------------------ output

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message (see the module docstring for the queue's limit)."""
        if not self.closing:
            self.send_frame(codec.encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Queue one encoded message (the hub encodes an update once for every connection that shares it)."""
        if self.closing:
            return
        # (one frame however big passes an empty queue: the bound is on what waits behind it)
        over = self._queued > 0 and self._queued + len(frame) > self.settings.outbox_max_bytes
        if len(self._outbox) >= self.settings.outbox_max or over:
            self._outbox.clear()
            self._queued = 0
            self.close_soon(CloseCode.TOO_SLOW, "too slow: the client did not read its messages")
            return
        self._queued += len(frame)
        self._outbox.append(frame)
        self._ready.set()

    def close_soon(self, code: int, reason: str) -> None:
        """Close with ``code`` once what is queued has been sent."""
        if self.closing:
            return
        self.closing = True
        self.metrics.closed(int(code))
        self._outbox.append(_Close(int(code), reason[:120]))
        self._ready.set()

    async def write_loop(self) -> None:
        """Drain the outbox into the websocket until a close is queued or the connection ends."""
        while True:
            while not self._outbox:
                self._ready.clear()
                await self._ready.wait()
            item = self._outbox.popleft()
            if isinstance(item, _Close):
                await self._close(item.code, item.reason)
                return
            if isinstance(item, _Delivered):
                self.delivered.add(item.table_id)
                continue
            self._queued -= len(item)
            await self._send_frame(item)

    # ------------------------------------------------------------------ input

    def is_settled(self) -> bool:
        """No request in progress and no reply still to come (shutdown waits for this)."""
        return not self.in_flight and not self.hub.awaits_reply(self.cid)

    async def receive(self, frame: bytes | str) -> None:
        """Handle one frame from the client (see the module docstring)."""
        if self.closing or self.draining:
            return
        self._received = time.perf_counter()
        self.in_flight = True
        try:
            await self._receive(frame)
        finally:
            self.in_flight = False

    async def _receive(self, frame: bytes | str) -> None:
        if not self._within_rate():
            if not self.closing:
                # Backpressure: read nothing more from a client over its rate until a token is
                # back. websockets stops reading the socket once its frame queue is full, so a
                # flooder's own TCP window fills and it is slowed down at its end, instead of
                # costing this process a frame parse for every frame it can write.
                await asyncio.sleep(1 / self.settings.rate_per_s)
            return
        try:
            raw = codec.decode(frame, self._limits)
        except MalformedFrame as exc:
            self.close_soon(CloseCode.MALFORMED, exc.message)
            return
        re = messages.message_id(raw)
        try:
            message = messages.parse_client(raw)
            await self.dispatch(message)
        except (MejaError, RulesError) as exc:
            code, text = wire_error(exc)
            self._refused(raw, code)
            self.send(messages.error(code, text, re))
            close = getattr(exc, "close", None)
            if close is not None:
                self.close_soon(close, text)
        except Exception as exc:
            self.metrics.redis_error("server.session", exc)
            log.exception("internal error on %r (table %r) from %s", raw.get("type"), raw.get("table"), self.cid)
            code, text = wire_error(RuntimeError())
            self._refused(raw, code)
            self.send(messages.error(code, text, re))

    def _refused(self, raw: dict[str, Any], code: str) -> None:
        self.metrics.request_error(code)
        if raw.get("type") == "act":
            self.metrics.reject_action(code)

    def _within_rate(self) -> bool:
        """The rate limit. A flood is a streak of drops that began ``flood_close_s`` ago and in
        which the client never calmed down (its bucket never got back to half full)."""
        now = self.clock()
        bucket = self.bucket
        if bucket.take():
            if self.flooding_since is not None and bucket.tokens >= bucket.burst / 2:
                self.flooding_since = None
            if self.flooding_since is None or now - self.flooding_since < self.settings.flood_close_s:
                return True
        elif self.flooding_since is None:
            self.flooding_since = now
        self.metrics.request_error(RateLimited.code)  # every dropped frame (not decoded: of any type)
        if now - self.flooding_since >= self.settings.flood_close_s:
            self.close_soon(CloseCode.RATE_LIMITED, "rate limit exceeded for too long")
            return False
        if now - self.last_rate_reply >= 1.0:
            self.last_rate_reply = now
            code, text = wire_error(
                RateLimited(f"more than {self.settings.rate_per_s:g} messages a second: message dropped")
            )
            self.send(messages.error(code, text))
        return False

    async def dispatch(self, message: messages.ClientMessage) -> None:
        """Run the request's handler (:data:`HANDLERS`, one for each client message type)."""
        await HANDLERS[message.TYPE](self, message)

    # ------------------------------------------------------------------ the messages

    async def _on_hello(self, msg: messages.Hello) -> None:
        if msg.protocol != messages.PROTOCOL_VERSION:
            raise UnsupportedVersion(f"this server speaks protocol {messages.PROTOCOL_VERSION}, not {msg.protocol!r}")
        self.diffs = msg.diffs
        # The client's name for itself, for the operator (at debug level: one line a connection;
        # escaped, as a hostile client may send control characters in it).
        log.debug("connection %s says hello as %s (diffs: %s)", self.cid, ascii(msg.client), msg.diffs)
        catalog = _catalog(self.settings.default_game)
        self.send(messages.welcome(server=SERVER_NAME, limits=self.settings.limits(), catalog=catalog, re=msg.id))

    async def _on_ping(self, msg: messages.Ping) -> None:
        self.send(messages.pong(msg.id))

    async def _on_host(self, msg: messages.Host) -> None:
        self._room_for(None)
        seated = await self.service.host(msg, conn=self.conn, address=self.address)
        await self._seat_here(seated.table_id, seated, msg.id)

    async def _on_join(self, msg: messages.Join) -> None:
        clean_name(msg.name)  # a bad name is refused before the code is looked up (and counted)
        table_id = await self.service.resolve(code=msg.code, table=msg.table, address=self.address)
        self._room_for(table_id)
        existing = self.hub.member(table_id, self.cid)
        if existing is not None and existing.seat is not None:
            raise SeatTaken(f"this connection already holds seat {existing.seat} at that table")
        async with self._hold(table_id):
            seated = await self.service.join(
                table_id, name=msg.name, seat=msg.seat, conn=self.conn, address=self.address
            )
            await self._seat_here(table_id, seated, msg.id)

    async def _on_resume(self, msg: messages.Resume) -> None:
        self._room_for(msg.table)
        async with self._hold(msg.table):
            seated = await self.service.resume(msg.table, token=msg.token, host_token=msg.host_token, conn=self.conn)
            await self._seat_here(msg.table, seated, msg.id, since=msg.since)

    async def _on_watch(self, msg: messages.Watch) -> None:
        table_id = await self.service.resolve(code=msg.code, table=msg.table, address=self.address)
        existing = self.hub.member(table_id, self.cid)
        if existing is not None:
            state = self.hub.state_of(table_id, self.cid, msg.id)
            if state is not None:
                self.send(state)
                return
        self._room_for(table_id)
        async with self._hold(table_id):
            cached = self.hub.cached(table_id)
            if msg.host_token is not None and cached is not None:
                # A host without a seat comes back (a reload of the shared screen that hosts): the
                # host's place, as a screen's, with the host token (and its rights where they lie).
                hashed = token_hash(msg.host_token)
                if not cached.table.is_the_host(hashed) or cached.table.host_seat is not None:
                    raise BadToken("that host token is not valid at this table")
                host = Member(self, None, host_token=hashed, screen=True)
                await self._attach(table_id, host, msg.id, since=msg.since)
                return
            if msg.screen is not None and cached is not None:
                # The host's shared screen: a place of its own, whoever else watches from its address.
                if not hmac.compare_digest(msg.screen, screen_token(cached.table)):
                    raise BadToken("that screen token is not valid at this table")
                if self.hub.screens(table_id) >= self.settings.max_screens:
                    raise LimitExceeded(f"this table has {self.settings.max_screens} shared screens here already")
                await self._attach(table_id, Member(self, None, screen=True), msg.id, since=msg.since)
                return
            if self.hub.spectators(table_id) >= self.settings.max_spectators:
                raise LimitExceeded(f"this table has {self.settings.max_spectators} spectators here already")
            mine = self.settings.max_spectators_per_address
            if mine and self.hub.spectators(table_id, self.address) >= mine:
                raise LimitExceeded(f"{mine} connections from this address watch this table here already")
            with self.hub.admitting(table_id, self.address):  # counted from here, before any wait
                await self._attach(table_id, Member(self, None), msg.id, since=msg.since)

    async def _on_seat(self, msg: messages.Seat) -> None:
        member = self._host_of(msg.table)
        await self.service.set_seat(
            msg.table, host=self._asker(member), seat=msg.seat, to=msg.to, level=msg.level, reply=self._reply(msg)
        )

    async def _on_sit(self, msg: messages.Sit) -> None:
        member = self._seated_at(msg.table)
        assert member.seat is not None and member.token is not None
        await self.service.sit(
            msg.table, seat=member.seat, token=member.token, conn=self.conn, to=msg.seat, reply=self._reply(msg)
        )

    async def _on_start(self, msg: messages.Start) -> None:
        member = self._host_of(msg.table)
        await self.service.start(msg.table, host=self._asker(member), reply=self._reply(msg))

    async def _on_rematch(self, msg: messages.Rematch) -> None:
        member = self._host_of(msg.table)
        await self.service.rematch(msg.table, host=self._asker(member), reply=self._reply(msg))

    async def _on_act(self, msg: messages.Act) -> None:
        member = self._seated_at(msg.table)
        assert member.seat is not None and member.token is not None
        await self.service.act(
            msg.table,
            seat=member.seat,
            token=member.token,
            conn=self.conn,
            action=msg.action,
            version=msg.version,
            reply=self._reply(msg),
        )
        # Committed, and this process's connections (ours first) have the update queued.
        self.metrics.observe_move(time.perf_counter() - self._received)

    # ------------------------------------------------------------------ talk at the table (talk.py)

    async def _on_say(self, msg: messages.Say) -> None:
        member = self._seated_at(msg.table)
        line = await self.service.talk.say(member, msg.table, text=msg.text, reaction=None)
        self.send(messages.talk(table=msg.table, lines=[line], re=msg.id))

    async def _on_react(self, msg: messages.React) -> None:
        member = self._seated_at(msg.table)
        line = await self.service.talk.say(member, msg.table, text=None, reaction=msg.reaction)
        self.send(messages.talk(table=msg.table, lines=[line], re=msg.id))

    async def _on_talk_policy(self, msg: messages.TalkPolicy) -> None:
        member = self._host_of(msg.table)
        changes = {
            name: value
            for name in ("chat", "spectators", "table_talk", "relay", "hints")
            if (value := getattr(msg, name)) is not None
        }
        await self.service.talk_policy(msg.table, host=self._asker(member), changes=changes, reply=self._reply(msg))

    async def _on_mute(self, msg: messages.Mute) -> None:
        member = self._host_of(msg.table)
        await self.service.mute(
            msg.table, host=self._asker(member), seat=msg.seat, muted=msg.muted, reply=self._reply(msg)
        )

    async def _on_call(self, msg: messages.Call) -> None:
        member = self._seated_at(msg.table)
        await self.service.talk.call(
            member, msg.table, join=msg.join, mic=msg.mic, cam=msg.cam, speaking=msg.speaking, re=msg.id
        )

    async def _on_hint(self, msg: messages.Hint) -> None:
        member = self._seated_at(msg.table)
        assert member.seat is not None
        version, action, why = await self.service.hint(msg.table, seat=member.seat)
        self.send(messages.hint(table=msg.table, version=version, action=action, why=why, re=msg.id))

    async def _on_replay(self, msg: messages.Replay) -> None:
        rebuilt = await self.service.replay(msg.archive, address=self.address, counted=msg.archive not in self.archives)
        if len(self.archives) < 16:
            self.archives.add(msg.archive)
        seats = len(rebuilt.data["seats"])
        if msg.seat is not None and not 0 <= msg.seat < seats:
            # (was read as a spectator's view: a hostile player's finding, the asker not told)
            raise BadSeat(f"seat {msg.seat} is not a seat of that match: it had {seats}")
        seat = None if msg.open else msg.seat
        # Built and encoded off the event loop, within the address's budget (archive.Archiver.replay).
        frame = await self.service.archiver.replay(
            rebuilt,
            key=msg.archive,
            first=msg.first,
            count=msg.count,
            seat=seat,
            open_=msg.open,
            address=self.address,
            re=msg.id,
        )
        self.send_frame(frame)

    async def _on_deal_board(self, msg: messages.DealBoard) -> None:
        board = await self.service.deal_board(msg.code, address=self.address, counted=msg.code not in self.archives)
        if len(self.archives) < 16:
            self.archives.add(msg.code)
        self.send(messages.deal_board(**board, re=msg.id))

    async def _on_learn(self, msg: messages.Learn) -> None:
        self.send(learn_step(msg))  # the guide: stateless, no table (learn.py)

    async def _on_learn_try(self, msg: messages.LearnTry) -> None:
        self.send(learn_answer(msg))

    async def _on_host_to(self, msg: messages.HostTo) -> None:
        member = self._host_of(msg.table)
        await self.service.hand_host(msg.table, host=self._asker(member), seat=msg.seat, reply=self._reply(msg))

    async def _on_signal(self, msg: messages.Signal) -> None:
        member = self.hub.member(msg.table, self.cid)
        if member is None or member.seat is None:
            raise NotSeated("this connection holds no seat at that table")
        await self.service.talk.signal(member, msg)

    async def _on_leave(self, msg: messages.Leave) -> None:
        place = self.hub.member(msg.table, self.cid)
        if place is not None and place.seat is None:
            # A spectator, a shared screen or a host without a seat stops watching: nothing changes
            # at the table (a seatless host's lobby stays until it expires), so the answer is a pong.
            await self._drop(msg.table)
            self.send(messages.pong(msg.id))
            return
        member = self._seated_at(msg.table)
        assert member.seat is not None and member.token is not None
        await self.service.leave(
            msg.table, seat=member.seat, token=member.token, conn=self.conn, reply=self._reply(msg)
        )
        # The update of the leave went out (as a spectator's); then the connection leaves the table.
        await self._drop(msg.table)

    # ------------------------------------------------------------------ helpers

    def _reply(self, msg: messages.ClientMessage) -> Reply | None:
        """What the hub answers a request that commits a change with (none without an ``id``)."""
        return None if msg.id is None else Reply(self.cid, msg.id)

    def _room_for(self, table_id: str | None) -> None:
        if table_id in self.tables:
            return
        if len(self.tables) >= self.settings.max_tables_per_connection:
            raise LimitExceeded(
                f"a connection may be at {self.settings.max_tables_per_connection} tables at most; leave one first"
            )

    def _host_of(self, table_id: str) -> Member:
        """This connection's place at the table; whether it has the host's rights now is the
        table's to say (TableService: the seat they were handed to, else the host token)."""
        member = self.hub.member(table_id, self.cid)
        if member is None or (member.host_token is None and member.seat is None):
            raise NotHost("only the host may do this")
        return member

    def _asker(self, member: Member) -> Asker:
        return Asker(member.seat, member.host_token, self.conn)

    def _seated_at(self, table_id: str) -> Member:
        member = self.hub.member(table_id, self.cid)
        if member is None or member.seat is None or member.token is None:
            raise NotSeated("this connection holds no seat at that table")
        return member

    def _hold(self, table_id: str) -> _Holding:
        return _Holding(self, table_id)

    async def _seat_here(self, table_id: str, seated: Any, re: int | str | None, since: int | None = None) -> None:
        if await self.hub.ensure(table_id) is None:
            raise TableNotFound(f"no table {table_id!r}")
        self.tables.add(table_id)
        cached = self.hub.cached(table_id)
        code = cached.table.code if cached is not None else seated.code
        self.send(
            messages.joined(
                table=table_id,
                code=code,
                link=self.settings.invite_link(code),
                seat=seated.seat,
                token=seated.token,
                host_token=seated.host_token,
                screen_token=None if seated.host_token is None or cached is None else screen_token(cached.table),
                re=re,
            )
        )
        host_hash = seated.host_token_hash
        held = self.hub.member(table_id, self.cid)
        if host_hash is None and held is not None and held.seat == seated.seat and held.token == seated.token_hash:
            # The connection that holds the seat resumed it without its host token: that changes
            # nothing (PROTOCOL.md 5), the host's rights included (an outside client that resumed
            # to catch up lost them, and its rematch was refused).
            host_hash = held.host_token
        member = Member(self, seated.seat, token=seated.token_hash, host_token=host_hash, screen=seated.seat is None)
        self.delivered.discard(table_id)
        await self._attach(table_id, member, re, since=since)
        if not self.closing:
            self._outbox.append(_Delivered(table_id))
            self._ready.set()

    async def _attach(self, table_id: str, member: Member, re: int | str | None, since: int | None = None) -> None:
        """Send the missed versions (with ``since``), then attach with the ``state``; no await in between."""
        cached = await self.hub.ensure(table_id)
        if cached is None:
            raise TableNotFound(f"no table {table_id!r}")
        self.tables.add(table_id)
        missed: list[tuple[int, bytes]] = []
        # At most this many missed versions are replayed, and never more than half of what the
        # connection's queue holds: a client far behind gets the latest versions and the whole
        # current picture (the state), never a close for being too slow (PROTOCOL.md 9).
        replay = min(self.settings.max_resume_updates, self.settings.outbox_max // 2)
        first = 0
        # The address's replay budget (TableService.replay_allowance): none left, no log read.
        if since is not None and self.service.may_replay(self.address):
            for _ in range(5):
                first = max(since + 1, cached.version - replay + 1)
                missed = await self.hub.store.log_since(table_id, first - 1)
                if not missed or missed[-1][0] >= cached.version:
                    break  # the log covers everything the cache has (it moves on while we read)
        missed = [(v, raw) for v, raw in missed if first <= v <= cached.version]
        if missed:  # the latest of them, as many as the budget allows
            missed = missed[len(missed) - self.service.replay_allowance(self.address, len(missed)) :]
        self.hub.attach(table_id, member, re=re, missed=missed)
        # What was said before this connection came (after the state: a line said meanwhile comes
        # live too, and the client drops the second by its id; PROTOCOL.md 16.2).
        await self.service.talk.history(table_id, member)

    async def _drop(self, table_id: str) -> None:
        self.tables.discard(table_id)
        member = self.hub.member(table_id, self.cid)
        if member is not None and member.call_id is not None:
            try:  # out of the call (the roster drops a closed connection anyway: this says it at once)
                await self.service.talk.leave(member, table_id)
            except Exception as exc:
                self.metrics.redis_error("server.session", exc)
                log.warning("could not take %s out of the call at %s: %s", self.cid, table_id, exc)
        await self.hub.detach(table_id, self.cid)

    async def finish(self) -> None:
        """The connection closed: give up its seats (they go away, grace starts) and leave every table."""
        self.closing = True
        for table_id in list(self.tables):
            member = self.hub.member(table_id, self.cid)
            try:
                if member is not None and member.seat is not None:
                    await self.service.disconnect(
                        table_id, seat=member.seat, conn=self.conn, delivered=table_id in self.delivered
                    )
            except TableNotFound:
                pass
            except Exception as exc:
                self.metrics.redis_error("server.session", exc)
                log.exception("could not record the disconnect of %s at %s", self.cid, table_id)
            finally:
                await self._drop(table_id)


#: The handler of each client message type, beside the protocol's table of them
#: (:data:`meja.protocol.messages.CLIENT_MESSAGES`; tests/server/test_server_dispatch.py checks
#: that both list the same types).
HANDLERS: Final[Mapping[str, Callable[[Session, Any], Awaitable[None]]]] = {
    "hello": Session._on_hello,
    "host": Session._on_host,
    "join": Session._on_join,
    "watch": Session._on_watch,
    "resume": Session._on_resume,
    "seat": Session._on_seat,
    "sit": Session._on_sit,
    "start": Session._on_start,
    "act": Session._on_act,
    "rematch": Session._on_rematch,
    "leave": Session._on_leave,
    "ping": Session._on_ping,
    "say": Session._on_say,
    "react": Session._on_react,
    "talk_policy": Session._on_talk_policy,
    "mute": Session._on_mute,
    "call": Session._on_call,
    "signal": Session._on_signal,
    "hint": Session._on_hint,
    "host_to": Session._on_host_to,
    "replay": Session._on_replay,
    "deal_board": Session._on_deal_board,
    "learn": Session._on_learn,
    "learn_try": Session._on_learn_try,
}


class _Holding:
    """Keeps a table cached while a request about it runs (:meth:`Hub.hold`, even if every other
    connection there leaves meanwhile); drops it again if the request attached nothing."""

    def __init__(self, session: Session, table_id: str) -> None:
        self.session = session
        self.table_id = table_id

    async def __aenter__(self) -> None:
        if await self.session.hub.hold(self.table_id) is None:
            raise TableNotFound(f"no table {self.table_id!r} (it may have expired)")

    async def __aexit__(self, *exc: object) -> None:
        if self.session.hub.member(self.table_id, self.session.cid) is None:
            self.session.tables.discard(self.table_id)
            await self.session.hub.detach(self.table_id, self.session.cid)
        await self.session.hub.release(self.table_id)
