"""The hub: this process's cache of the tables its connections sit at, and the fan-out of changes.

No process owns a table. Each keeps, for the tables that have a local
connection, the latest committed record (decoded once) and the connections
attached to it (:class:`Member`). Committed changes arrive from the store's
``changes()`` (Redis pub/sub with several processes), and from this process's
own commits right after they succeed (so the committer does not wait for the
round trip through pub/sub); whichever comes second is ignored by version.

For every new version, each attached connection gets one ``update``: the
events of that version it may see (``Event.is_seen_by``: its seat, or a
spectator), the table summary and its own view; unless nothing it can see
changed (no event for it, the same table map and view, its seat's decision not
made stale), as with another seat's private step in a phase where seats decide
in any order: then it gets nothing, and its next update covers both versions
(``since`` is the last version it was sent). A version that arrives after
a gap (the store's resync after a lost subscription, or a change that overtook
another) makes the hub read the missed log entries first, so every connection
still gets every version, in order.

Attaching a connection (after ``host``, ``join``, ``watch`` or ``resume``) and
delivering a version are synchronous with respect to the cache (no ``await``
between reading the cached version and queueing messages), so a connection gets
its ``state`` at some version and then every later version as an ``update``.
A request that attaches after an ``await`` (``watch`` and ``resume`` read the
missed log entries first) *holds* the table (:meth:`Hub.hold`) from before
that await, so the cache and its subscription stay even if every other local
connection leaves meanwhile; the last member out, or the last hold released,
drops them.

Each delivery also keeps the connection honest: if its person moved to another
seat in the lobby (``sit``: the token is there now) its next frames are that seat's;
if its seat was freed (the host moved it, or it left) it becomes a spectator; if another connection now holds
the seat (a ``resume`` elsewhere), it is closed with 4001; if the host token
changed hands, it loses the host's powers. If nobody holds the seat any more
while this live connection still has its token (a process that lost Redis for
longer than its heartbeat lives was taken for dead, and its players marked away),
the hub asks for the seat back for it (:attr:`Hub.on_orphan`), instead of
closing a connection that did nothing wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, Protocol

from meja.protocol import codec, messages, patch
from meja.protocol.errors import CloseCode
from meja.rules import Event
from meja.store.base import Change, Note, Store

from . import talk
from .limits import TokenBucket
from .records import Table, decode_entry
from .settings import Settings
from .tables import summary, view_for, view_parts

__all__ = ["Hub", "Member", "Reply", "Subscriber"]

log = logging.getLogger("meja.server.hub")

#: The log entry of a version with no events (an empty msgpack array).
_NO_EVENTS = b"\x90"


class Subscriber(Protocol):
    """A connection, as the hub sees it (implemented by :class:`meja.server.session.Session`)."""

    cid: str
    #: the client's address (IPv6: its /64), as the per-address limits count it
    address: str
    #: (process id, connection id): what a seat record holding this connection says
    conn: tuple[str, str]
    #: a close is queued: the connection is going
    closing: bool

    def send(self, message: dict[str, Any]) -> None: ...

    def send_frame(self, frame: bytes) -> None: ...

    def close_soon(self, code: int, reason: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Reply:
    """A request that commits a change, to be answered by the frame of the version its commit writes."""

    #: the connection that asked
    cid: str
    #: the request's ``id`` (the answer's ``re``)
    re: int | str


@dataclass(eq=False)
class Member:
    """One connection at one table: its seat (``None``: a spectator), token and host token hashes."""

    session: Subscriber
    seat: int | None
    token: str | None = None
    host_token: str | None = None
    version: int = -1
    #: this connection's id in the table's call (:mod:`meja.server.talk`), ``None``: not in it
    call_id: str | None = None
    #: the table map, view and host flag of the last ``state`` or ``update`` it was sent
    sent: tuple[Any, ...] | None = None
    #: the host's shared screen (watching with the table's screen token: a place of its own)
    screen: bool = False
    #: the size of the last whole ``update`` weighed for it (patch form: see Hub._patch_frame)
    whole_size: int = 0
    #: the bytes of call signals it may still be sent (Hub: ``signal_in_bytes_per_s``), made at the first
    signals_in: TokenBucket | None = None

    #: whether it holds the host's rights now (kept by Hub._check from the table)
    rights: bool = False
    #: the seat record, token, host and delegate its seat was last found in line with (Hub._check)
    checked: tuple[Any, ...] | None = None

    @property
    def is_host(self) -> bool:
        return self.rights


@dataclass(eq=False)
class Cached:
    table: Table
    version: int
    members: dict[str, Member] = field(default_factory=dict)  # by connection id
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: requests in progress that may attach here (:meth:`Hub.hold`): the cache stays while any does
    holds: int = 0
    #: the table's call: presence entries by field (the store's presence map, kept by notes)
    presence: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the call's roster as last sent (``talk.roster``: what the table record still vouches for)
    roster: list[dict[str, Any]] = field(default_factory=list)
    #: the memo of the next version's patches (patch.Memo.after: what it knows of the last one's)
    memo: patch.Memo = field(default_factory=patch.Memo)


class Hub:
    """See the module docstring."""

    def __init__(self, store: Store, settings: Settings, process_id: str) -> None:
        self.store = store
        self.settings = settings
        self.process_id = process_id
        self.tables: dict[str, Cached] = {}
        self._subscriptions = asyncio.Lock()
        #: told of every exception a change's delivery met (the metrics count the Redis ones)
        self.on_error: Callable[[BaseException], object] = lambda exc: None
        #: told of a live member whose seat nobody holds now (see the module docstring): the
        #: server commits the seat back to it (TableService.reclaim)
        self.on_orphan: Callable[[str, Member], object] = lambda table_id, member: None
        #: spectators admitted but not attached yet, by (table, address) and by (table, None):
        #: counted with the attached ones, so that watches sent at one moment cannot all pass
        #: the limits while each waits for the store (a hostile player's race)
        self._admitted: Counter[tuple[str, str | None]] = Counter()
        #: requests whose commit is in flight, by (table, version): (the commit id, the request)
        self._replies: dict[tuple[str, int], tuple[str, Reply]] = {}

    # ------------------------------------------------------------------ reading

    async def current(self, table_id: str, *, fresh: bool = False) -> tuple[int, Table] | None:
        """The table's latest ``(version, table)``: the cache, or the store when not cached or ``fresh``."""
        cached = self.tables.get(table_id)
        if cached is not None and not fresh:
            return cached.version, cached.table
        loaded = await self.store.load(table_id)
        if loaded is None:
            return None
        version, record = loaded
        if cached is not None and version <= cached.version:
            return cached.version, cached.table
        return version, Table.from_bytes(record)

    def cached(self, table_id: str) -> Cached | None:
        return self.tables.get(table_id)

    def has_connection(self, cid: str) -> bool:
        """Whether a local connection with id ``cid`` is attached anywhere (dead-process checks)."""
        return any(cid in c.members for c in self.tables.values())

    # ------------------------------------------------------------------ membership

    async def ensure(self, table_id: str) -> Cached | None:
        """Cache ``table_id`` (subscribing to its changes first, so that none is missed)."""
        cached = self.tables.get(table_id)
        if cached is not None:
            return cached
        async with self._subscriptions:
            cached = self.tables.get(table_id)
            if cached is not None:
                return cached
            await self.store.subscribe(table_id)
            loaded = await self.store.load(table_id)
            if loaded is None:
                await self.store.unsubscribe(table_id)
                return None
            version, record = loaded
            cached = Cached(Table.from_bytes(record), version)
            cached.presence = _presence(await self.store.presence(table_id))
            cached.roster = talk.roster(cached.table, cached.presence)
            self.tables[table_id] = cached
            # A change committed after our load but delivered before the cache existed was
            # dropped by apply(): read once more, and catch up through the log if so.
            again = await self.store.load(table_id)
            if again is not None and again[0] > cached.version:
                entries = await self.store.log_since(table_id, again[0] - 1)
                entry = entries[-1][1] if entries and entries[-1][0] == again[0] else _NO_EVENTS
                await self.apply(Change(table_id, again[0], again[1], entry))
            return cached

    async def hold(self, table_id: str) -> Cached | None:
        """Cache ``table_id`` and keep it cached until :meth:`release`, members or not.

        A request that will attach a connection (``watch`` and ``resume`` read the log first)
        holds the table meanwhile: otherwise the last member leaving while it reads would drop
        the cache and the subscription under it. ``None``: no such table (nothing held).
        """
        while True:
            cached = await self.ensure(table_id)
            if cached is None:
                return None
            if self.tables.get(table_id) is cached:  # not dropped while ensure() awaited
                cached.holds += 1
                return cached

    async def release(self, table_id: str) -> None:
        """End a :meth:`hold`; with no member and no other hold left, the cache is dropped."""
        cached = self.tables.get(table_id)
        if cached is not None:
            cached.holds -= 1
            await self._drop_if_unused(table_id)

    def attach(
        self,
        table_id: str,
        member: Member,
        *,
        re: int | str | None = None,
        missed: Sequence[tuple[int, bytes]] = (),
    ) -> int:
        """Attach a connection and send it the ``state`` at the cached version; that version.

        ``missed``: log entries of the versions it missed (a ``resume`` or ``watch`` with
        ``since``), sent first, each as an ``update`` with the current table map and view.
        """
        cached = self.tables[table_id]
        if missed:
            table, seat = cached.table, member.seat
            table_map, view = codec.encode(summary(table, self.settings)), view_for(table, seat)
            is_host = table.holds_rights(seat, member.host_token)
            for version, raw in missed:
                seen = [e.to_wire() for e in decode_entry(raw) if e.is_seen_by(seat)]
                member.session.send_frame(_update_frame(table_map, version, version - 1, seen, seat, is_host, view))
        cached.members[member.session.cid] = member
        member.version = cached.version
        if self._check(cached.table, member):
            member.session.send(self._state(cached, member, re))
            if cached.roster:
                member.session.send(messages.call(table=table_id, peers=cached.roster))
        return cached.version

    def member(self, table_id: str, cid: str) -> Member | None:
        cached = self.tables.get(table_id)
        return None if cached is None else cached.members.get(cid)

    def spectators(self, table_id: str, address: str | None = None) -> int:
        """Spectators of the table on this process (from ``address`` only, when given), those
        admitted and not yet attached included."""
        cached = self.tables.get(table_id)
        attached = (
            0
            if cached is None
            else sum(
                1
                for m in cached.members.values()
                if m.seat is None and not m.screen and (address is None or m.session.address == address)
            )
        )
        return attached + self._admitted[(table_id, address)]

    def screens(self, table_id: str) -> int:
        """Shared screens watching the table here with its screen token (not counted as spectators)."""
        cached = self.tables.get(table_id)
        return 0 if cached is None else sum(1 for m in cached.members.values() if m.screen)

    @contextlib.contextmanager
    def admitting(self, table_id: str, address: str) -> Iterator[None]:
        """Count a spectator being attached (checked and counted with no wait in between)."""
        keys = ((table_id, None), (table_id, address))
        for key in keys:
            self._admitted[key] += 1
        try:
            yield
        finally:
            for key in keys:
                self._admitted[key] -= 1
                if self._admitted[key] <= 0:
                    del self._admitted[key]

    async def detach(self, table_id: str, cid: str) -> None:
        """Detach a connection; the last one out drops the cache and the subscription."""
        cached = self.tables.get(table_id)
        if cached is None:
            return
        cached.members.pop(cid, None)
        await self._drop_if_unused(table_id)

    async def _drop_if_unused(self, table_id: str) -> None:
        cached = self.tables.get(table_id)
        if cached is None or cached.members or cached.holds:
            return
        async with self._subscriptions:
            cached = self.tables.get(table_id)
            if cached is not None and not cached.members and not cached.holds:
                del self.tables[table_id]
                with contextlib.suppress(Exception):
                    await self.store.unsubscribe(table_id)

    # ------------------------------------------------------------------ replies

    def answering(
        self, table_id: str, version: int, commit: str, reply: Reply | None
    ) -> contextlib.AbstractContextManager[None]:
        """While the commit ``commit`` of ``version`` is in flight: its version answers ``reply``.

        The frame that brings that version to the asking connection carries the request's ``re``
        (whichever copy of the change comes first, the committer's own or the store's), and no
        frame of a version another commit wrote does. If the version reached the connection
        before the committer's own :meth:`apply` without it (merged into a resynchronisation),
        that apply answers with a ``state`` instead: no request goes unanswered.
        """
        if reply is None:
            return _NO_REPLY
        key = (table_id, version)
        self._replies[key] = (commit, reply)
        return _Answering(self._replies, key, commit)

    def awaits_reply(self, cid: str) -> bool:
        """Whether a request of connection ``cid`` waits for its commit's frame (shutdown waits for it)."""
        return any(reply.cid == cid for _, reply in self._replies.values())

    def _reply_of(self, table_id: str, version: int, commit: str | None) -> Reply | None:
        """The request the ``version`` written by ``commit`` answers (taken: one frame carries it)."""
        key = (table_id, version)
        pending = self._replies.get(key)
        if pending is None or commit is None or pending[0] != commit:
            return None  # another commit wrote this version: that request is still pending
        del self._replies[key]
        return pending[1]

    def _settle(self, cached: Cached, version: int, commit: str) -> None:
        """Answer with a ``state`` the request of ``version`` that no ``update`` carried the reply of."""
        reply = self._reply_of(cached.table.id, version, commit)
        member = None if reply is None else cached.members.get(reply.cid)
        if reply is not None and member is not None:
            member.session.send(self._state(cached, member, reply.re))

    # ------------------------------------------------------------------ changes

    async def run(self) -> None:
        """Consume the store's changes until cancelled."""
        async for change in self.store.changes():
            try:
                if isinstance(change, Note):
                    self.note(change)
                else:
                    await self.apply(change)
            except Exception as exc:
                self.on_error(exc)
                if isinstance(change, Note):
                    log.exception("could not deliver a note of table %s", change.table_id)
                else:
                    log.exception("could not apply change %s v%d", change.table_id, change.version)

    def note(self, note: Note) -> None:
        """Deliver what was said at a table (:mod:`meja.server.talk`) to the connections here that
        may hear it. A note is not a change: no version, nothing cached but the call's presence."""
        cached = self.tables.get(note.table_id)
        if cached is None:
            return
        data = talk.decode_note(note.data)
        kind = data.get("k")
        members = list(cached.members.values())
        if kind == "line":
            line = data["line"]
            sender = tuple(data.get("conn") or ())
            frame = codec.encode(messages.talk(table=note.table_id, lines=[line]))
            for member in members:
                if sender == member.session.conn:
                    continue  # the sender got its line as the answer to its request
                if talk.hears_line(cached.table, member.seat, data):
                    member.session.send_frame(frame)
        elif kind == "call":
            self.note_presence(note.table_id, data["field"], data.get("entry"))
        elif kind == "signal":
            # One connection: the addressee's, while it is in the call under that id, and within
            # what it may receive: each sender's budget is its own, and people in the call who
            # sent each a budget's worth of the largest signals drowned a slow link until its
            # keepalive gave out (a hostile player's finding); past it, signals are dropped.
            for member in members:
                if member.seat == data["to"] and member.call_id is not None and member.call_id == data["peer"]:
                    frame = bytes(data["frame"])
                    if member.signals_in is None:
                        rate = self.settings.signal_in_bytes_per_s
                        member.signals_in = TokenBucket(rate, 4 * rate)
                    if member.signals_in.spend(len(frame)):
                        member.session.send_frame(frame)

    def note_presence(self, table_id: str, name: str, entry: dict[str, Any] | None) -> None:
        """One connection's place in the table's call changed: keep it, tell everyone if the roster did."""
        cached = self.tables.get(table_id)
        if cached is None:
            return
        if entry is None:
            cached.presence.pop(name, None)
        else:
            cached.presence[name] = entry
        self._roster(cached)

    def _roster(self, cached: Cached) -> None:
        """Send everyone at the table the call's roster if it changed (a note, or the table moved on)."""
        if not cached.presence and not cached.roster:
            return
        peers = talk.roster(cached.table, cached.presence)
        if peers == cached.roster:
            return
        cached.roster = peers
        frame = codec.encode(messages.call(table=cached.table.id, peers=peers))
        for member in list(cached.members.values()):
            if member.version >= 0 and not member.session.closing:
                member.session.send_frame(frame)

    async def apply(self, change: Change, table: Table | None = None, events: tuple[Event, ...] | None = None) -> None:
        """Take a committed change into the cache and send each attached connection its update.

        ``table`` and ``events``, when the caller has them (its own commit), are the decoded
        ``change.record`` and ``change.entry``: not decoded again; and a request that commit
        answers gets its ``state`` now if no update carried its reply (:meth:`answering`).
        """
        cached = self.tables.get(change.table_id)
        if cached is None:
            return
        async with cached.lock:
            if change.version <= cached.version:
                if table is not None and table.commit is not None:
                    self._settle(cached, change.version, table.commit)
                return
            versions: list[tuple[int, tuple[Event, ...]]] = []
            if change.version > cached.version + 1:
                missed = await self.store.log_since(change.table_id, cached.version)
                versions = [(v, decode_entry(e)) for v, e in missed if v < change.version]
            versions.append((change.version, events if events is not None else decode_entry(change.entry)))
            new = table if table is not None else Table.from_bytes(change.record)
            if self.tables.get(change.table_id) is not cached:
                return  # dropped while reading the log
            cached.table = new
            cached.version = change.version
            if change.resync:  # notes may have been missed while the store's connection was down
                cached.presence = _presence(await self.store.presence(change.table_id))
            for version, events in versions:
                # Only the last version's record is known (and with it, which commit wrote it).
                commit = new.commit if version == change.version else None
                # After a gap, whole views (a patch form connection too: PROTOCOL.md 7.5).
                self._deliver(cached, version, events, commit, whole=len(versions) > 1)
            self._roster(cached)
            if table is not None and new.commit is not None:
                self._settle(cached, change.version, new.commit)

    def _deliver(
        self, cached: Cached, version: int, events: Iterable[Event], commit: str | None, *, whole: bool = False
    ) -> None:
        table = cached.table
        wire = [(e, e.to_wire()) for e in events]  # once per version, not per connection
        table_map = summary(table, self.settings)
        # One frame per audience (a seat, or the spectators; host or not) and starting version,
        # encoded once: every spectator of a table, or a shared screen, gets the same bytes. Only
        # the reply to a request (its ``re``) makes a connection's frame its own.
        frames: dict[tuple[int | None, bool, int] | None, bytes] = {}
        # Patches likewise, by audience and what it was last sent (kept here so their ids stay theirs).
        patches: dict[tuple[int | None, bool, int, int, int], tuple[tuple[Any, ...], bytes]] = {}
        # The table map's operations, by the table map a connection was last sent (most share one),
        # and likewise the operations of the public part of the views (what every seat sees alike)
        table_ops: dict[int, tuple[Any, patch.Part]] = {}
        public_ops: dict[int, tuple[Any, patch.Part]] = {}
        # This version's patches: every view that changed alike (the seats' views share their
        # public values) gets one part, found in a few calls into C (patch.Memo); the memo knows
        # the last version's views' keys and changed values' encodings
        memo = cached.memo
        pack = patch.packer()  # the patches' encoder for this version (codec.encode's bytes)
        heads = _Heads(table.id, version, pack)
        seen_by: dict[int | None, list[dict[str, Any]]] = {}
        # a version whose events every seat and spectator sees (the usual case) gives them all one
        # list: built once, and known at once by the patches' heads
        public = all(e.only is None and not e.hidden_from for e, _ in wire)
        everyone = [w for _, w in wire] if public else None
        # each seat's view: whole, or in two parts for a patch (tables.view_parts), by (seat, parts)
        views: dict[tuple[int | None, bool], Any] = {}
        reply = self._replies.get((table.id, version))
        for member in list(cached.members.values()):
            if member.version >= version:
                continue
            if not self._check(table, member):
                continue
            session = member.session
            seat = member.seat
            re = None
            if reply is not None and reply[1].cid == session.cid:
                taken = self._reply_of(table.id, version, commit)
                re = None if taken is None else taken.re
            if seat not in seen_by:
                seen_by[seat] = everyone if everyone is not None else [w for e, w in wire if e.is_seen_by(seat)]
            sent = member.sent
            patching = not whole and sent is not None and getattr(session, "diffs", False)
            if (seat, patching) in views:
                view = views[seat, patching]
            else:
                parts = view_parts(table, seat) if patching else None
                view = views[seat, patching] = _Parts(*parts) if parts is not None else view_for(table, seat)
            seen = seen_by[seat]
            is_host = member.is_host
            if (
                re is None
                and not seen
                and sent is not None
                and sent[0] == table_map
                and sent[2] == is_host
                and _same_view(sent[1], view)
                and (seat is None or table.epoch_of(seat) <= member.version)
            ):
                # Nothing this connection can see changed (another seat's private step): no frame.
                # Its next update starts where its last one ended (``since``), so it misses nothing,
                # and a seat flooding private steps costs the others nothing (issue 25, finding 1).
                continue
            if not patching:
                frame = _whole_frame(frames, table_map, version, member, seen, view, re)
            else:
                assert sent is not None
                # (a seat has one connection: only spectators may share a patch)
                key = (
                    None
                    if re is not None or seat is not None
                    else (None, is_host, member.version, id(sent[0]), id(sent[1]))
                )
                shared = None if key is None else patches.get(key)
                if shared is None:
                    frame = self._patch_frame(
                        table, member, sent, table_map, view, version, seen, re, frames, memo, table_ops,
                        public_ops, heads,
                    )  # fmt: skip
                    if key is not None:
                        patches[key] = (sent, frame)
                else:
                    frame = shared[1]
            session.send_frame(frame)
            member.version = version
            member.sent = (table_map, view, is_host)
        if memo.keys or memo.alive:
            cached.memo = memo.after()

    @staticmethod
    def _patch_frame(
        table: Table,
        member: Member,
        sent: tuple[Any, ...],
        table_map: dict[str, Any],
        view: dict[str, Any] | _Parts | None,
        version: int,
        seen: list[dict[str, Any]],
        re: int | str | None,
        frames: dict[tuple[int | None, bool, int] | None, bytes],
        memo: patch.Memo,
        table_ops: dict[int, tuple[Any, patch.Part]],
        public_ops: dict[int, tuple[Any, patch.Part]],
        heads: _Heads,
    ) -> bytes:
        """The ``patch`` from what ``member`` was last sent (``sent``) to the new table map and view,
        or the whole ``update`` when the patch would not be smaller. The whole is weighed when the
        patch is more than half its last known size, so most moves encode only the patch.

        A view in two parts (:class:`_Parts`) sent a view in two parts is patched part by part: the
        public part's operations are found once for every connection that was sent the same public
        part (all of them, as a rule), so each seat's own work is its own part's few values."""
        pack = heads.pack
        shared = table_ops.get(id(sent[0]))
        if shared is None or shared[0] is not sent[0]:
            shared = table_ops[id(sent[0])] = (sent[0], memo.part(sent[0], table_map, _TABLE, pack))
        old = sent[1]
        found: tuple[patch.Part, ...]
        if type(view) is _Parts and type(old) is _Parts:
            public = public_ops.get(id(old.public))
            if public is None or public[0] is not old.public:
                public = public_ops[id(old.public)] = (old.public, memo.part(old.public, view.public, _VIEW, pack))
            found = (shared[1], public[1], patch.small_part(old.own, view.own, _VIEW, pack))
        else:
            found = (shared[1], memo.part(_whole(old), _whole(view), _VIEW, pack))
        if re is None:
            # the operations' encodings spliced in (each part encoded once for every seat whose
            # view changed alike), after a head from pieces encoded once a version
            frame = heads.frame(member.version, seen, member.seat, member.is_host, *found)
        else:
            frame = pack(
                messages.patch(
                    table=table_map["id"], version=version, since=member.version, events=seen, seat=member.seat,
                    is_host=member.is_host, ops=[op for part in found for op in part[0]], re=re,
                )
            )  # fmt: skip
        if 2 * len(frame) > member.whole_size:
            whole_view = view_for(table, member.seat) if isinstance(view, _Parts) else view
            whole = _whole_frame(frames, table_map, version, member, seen, whole_view, re)
            member.whole_size = len(whole)
            if len(whole) <= len(frame):
                return whole
        return frame

    def _check(self, table: Table, member: Member) -> bool:
        """Bring a member in line with the table; ``False`` if its connection is being closed."""
        if member.seat is not None:
            record = table.seats[member.seat] if member.seat < len(table.seats) else None
            checked = member.checked
            if (
                checked is not None
                and checked[0] is record
                and checked[1] is member.token
                and checked[2] is table.host
                and checked[3] == table.delegate
            ):
                return True  # the very seat record and host this connection was found in line with
            if member.token is not None and (record is None or not _same(record.token, member.token)):
                moved = table.seat_of_token(member.token)  # its person moved to another seat (``sit``)
                if moved is not None:
                    member.seat, record = moved, table.seats[moved]
            if record is None or record.token is None or not _same(record.token, member.token):
                member.seat = None  # the seat was freed or given away: watch from now on
                member.token = None
            elif record.conn is None and not member.session.closing:
                # Marked away while this connection lives (its process was taken for dead): the
                # seat is this connection's to take back, not another's to keep.
                self.on_orphan(table.id, member)
            elif record.conn != (self.process_id, member.session.cid):
                member.session.close_soon(CloseCode.REPLACED, "replaced: the seat was opened by another connection")
                return False
            else:
                # In line: while the table keeps this very record and host (a move changes neither),
                # the next version's check has nothing to find (the seat records are immutable).
                member.checked = (record, member.token, table.host, table.delegate)
        if member.host_token is not None and not _same(table.host, member.host_token):
            member.host_token = None
        member.rights = table.holds_rights(member.seat, member.host_token)
        return True

    def _state(self, cached: Cached, member: Member, re: int | str | None) -> dict[str, Any]:
        table = cached.table
        table_map, view = summary(table, self.settings), view_for(table, member.seat)
        member.sent = (table_map, view, member.is_host)
        return messages.state(
            table=table_map,
            version=cached.version,
            seat=member.seat,
            is_host=member.is_host,
            view=view,
            re=re,
        )

    def state_of(self, table_id: str, cid: str, re: int | str | None = None) -> dict[str, Any] | None:
        """The current ``state`` message for an attached connection."""
        cached = self.tables.get(table_id)
        member = None if cached is None else cached.members.get(cid)
        if cached is None or member is None:
            return None
        return self._state(cached, member, re)


class _Heads:
    """A version's ``patch`` messages up to their operations, from pieces encoded once: the fields
    every one has alike, the starting version with each distinct list of events (most seats see
    the same events, from the same version), and the seat with the host flag. The bytes of
    :func:`meja.protocol.codec.encode` of :func:`messages.patch`'s fields, in its order (a map is
    its header, then its keys and values encoded end to end)."""

    __slots__ = ("fronts", "last", "pack", "prefix")

    def __init__(self, table_id: str, version: int, pack: Callable[[Any], bytes]) -> None:
        self.pack = pack
        self.prefix = b"".join(
            [b"\x88", pack("type"), pack("patch"), pack("table"), pack(table_id), pack("version"), pack(version)]
        )
        #: the message from its start to its ``seat``, by the starting version and the ids of the
        #: events (alive while the version is delivered: they are its own)
        self.fronts: dict[tuple[int, tuple[int, ...]], bytes] = {}
        #: the last front given, with its starting version and its list of events (the very list:
        #: the seats of a version whose events all see share one)
        self.last: tuple[int, list[dict[str, Any]], bytes] | None = None

    def frame(
        self, since: int, events: list[dict[str, Any]], seat: int | None, is_host: bool, *found: patch.Part
    ) -> bytes:
        """The message with the operations of every part of ``found`` in turn: :func:`patch.spliced`
        of its :meth:`head`, in one join."""
        last = self.last
        front = last[2] if last is not None and last[1] is events and last[0] == since else self._front(since, events)
        n = 0
        for ops, _ in found:
            n += len(ops)
        tail = _TAILS.get((seat, is_host)) or _tail(seat, is_host)
        return b"".join((front, tail, patch.array_header(n), *[encoded for _, encoded in found]))

    def head(self, since: int, events: list[dict[str, Any]], seat: int | None, is_host: bool) -> bytes:
        """The message's encoding up to its ``patch`` field's value (for :func:`patch.spliced`)."""
        last = self.last
        front = last[2] if last is not None and last[1] is events and last[0] == since else self._front(since, events)
        tail = _TAILS.get((seat, is_host))
        if tail is None:
            tail = _tail(seat, is_host)
        return front + tail

    def _front(self, since: int, events: list[dict[str, Any]]) -> bytes:
        """The message from its start to its ``seat``, kept as the last front given."""
        key = (since, tuple(map(id, events)))
        front = self.fronts.get(key)
        if front is None:
            pack = self.pack
            front = self.fronts[key] = b"".join([self.prefix, _SINCE, pack(since), _EVENTS, pack(events)])
        self.last = (since, events, front)
        return front


_KEY: Final = patch.packer()
_TABLE: Final = ("table",)
_VIEW: Final = ("view",)
_SINCE: Final = _KEY("since")
_EVENTS: Final = _KEY("events")


def _tail(seat: int | None, is_host: bool) -> bytes:
    """A ``patch`` message's ``seat`` and ``is_host`` fields and its ``patch`` key, encoded."""
    return b"".join([_KEY("seat"), _KEY(seat), _KEY("is_host"), _KEY(is_host), _KEY("patch")])


#: :func:`_tail` of the seats a table may have, host or not, and of a spectator
_TAILS: Final = {(seat, host): _tail(seat, host) for seat in (None, *range(64)) for host in (False, True)}


def _whole_frame(
    frames: dict[tuple[int | None, bool, int] | None, bytes],
    table_map: dict[str, Any],
    version: int,
    member: Member,
    seen: list[dict[str, Any]],
    view: dict[str, Any] | None,
    re: int | str | None,
) -> bytes:
    """The whole ``update`` for ``member`` (one encoding per audience and starting version; the
    table map's, the same for every audience, once a version: kept in ``frames`` under ``None``)."""
    audience = (member.seat, member.is_host, member.version)
    frame = None if re is not None else frames.get(audience)
    if frame is None:
        encoded = frames.get(None)
        if encoded is None:
            encoded = frames[None] = codec.encode(table_map)
        frame = _update_frame(encoded, version, member.version, seen, member.seat, member.is_host, view, re)
        if re is None:
            frames[audience] = frame
    return frame


def _update_frame(
    table_map: bytes,
    version: int,
    since: int,
    events: list[dict[str, Any]],
    seat: int | None,
    is_host: bool,
    view: dict[str, Any] | None,
    re: int | str | None = None,
) -> bytes:
    """One encoded ``update``: the one builder of live delivery and of the replay on attach.
    ``table_map``: the table map's encoding, spliced in (a version's audiences share it)."""
    frame = codec.encode(
        messages.update(
            table=_NIL, version=version, since=since, events=events, seat=seat, is_host=is_host, view=view, re=re
        )
    )
    return frame[:_TABLE_AT] + table_map + frame[_TABLE_AT + 1 :]


#: What stands in an ``update`` for its table map until the map's encoding is spliced over it (a nil)
_NIL: Final[Any] = None


#: Where an ``update``'s table map starts: after the map's head, ``type`` and its value, and the key
#: ``table`` (messages.update's first two fields); a nil stands there until spliced (a test keeps it so).
_TABLE_AT: Final = len(codec.encode({"type": "update", "table": None})) - 1


#: :meth:`Hub.answering` for a commit that answers no request (a bot's, a timer's)
_NO_REPLY: Final = contextlib.nullcontext()


class _Answering:
    """:meth:`Hub.answering` for a request (a plain class: a commit's path is hot, and a generator's
    context manager costs several microseconds more)."""

    __slots__ = ("commit", "key", "replies")

    def __init__(self, replies: dict[tuple[str, int], tuple[str, Reply]], key: tuple[str, int], commit: str) -> None:
        self.replies, self.key, self.commit = replies, key, commit

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        if self.replies.get(self.key, (None,))[0] == self.commit:
            del self.replies[self.key]  # the commit lost, or failed: nothing answered it


class _Parts(NamedTuple):
    """A seat's view in two parts (:func:`tables.view_parts`): what every seat sees alike, its own."""

    public: dict[str, Any]
    own: dict[str, Any]


def _whole(view: dict[str, Any] | _Parts | None) -> dict[str, Any] | None:
    """A view as one map (a view in two parts, its parts together)."""
    return {**view.public, **view.own} if type(view) is _Parts else view  # type: ignore[return-value]


def _same_view(a: dict[str, Any] | _Parts | None, b: dict[str, Any] | _Parts | None) -> bool:
    """Whether two views show the same, but for the rules state's ``version`` (which counts every
    action, a private one included: PROTOCOL.md 7.2)."""
    a, b = _whole(a), _whole(b)
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(a[k] == b[k] for k in a if k != "version")


def _presence(raw: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    """The store's presence map, decoded (an entry that does not decode is left out)."""
    out = {}
    for name, value in raw.items():
        try:
            out[name] = talk.decode_note(value)
        except ValueError:
            continue
    return out


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and hmac.compare_digest(a, b)
