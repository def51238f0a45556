"""Talk at the table: reactions, chat, and the signalling of the table's call.

Talk is the table's, not a game's (docs/architecture.md 6): every game has it, the
server never names one, and a game only says through its state's ``talk()``
what its rules allow at the moment (:data:`meja.rules.TALK_FREE`, ``NEUTRAL`` or
``NONE``). Nothing said at a table is a change of the table: no version, no log
entry, no bot hears it. What is said is a *note* of the store
(:meth:`meja.store.base.Store.publish`): sent to every process subscribed to the
table, the last ``talk_keep`` lines kept for late comers, all of it expiring with
the table.

What the host decides (kept in the table record's ``talk``, changed by committed
``talk_policy`` and ``mute`` requests, so that every process and every reload
agrees): ``chat`` (``on``: chat and reactions; ``reactions``: those only;
``off``: no talk), ``spectators`` (spectators read the chat), ``table_talk``
(the game's own limits are lifted, for a friendly table), ``relay`` (the call
goes through the TURN relay only, so that no peer learns another's address),
and who is muted. A mute is kept by the seat token's hash, so it sticks across
reconnects and reloads (a resume presents the same token). Not by address, as a
kick is: friends in one living room share one address, and muting one of them
must not mute the others. Someone who leaves and takes a seat again in the
lobby holds a new token and may be muted again.

Who hears what (PROTOCOL.md 16.3): chat lines reach the seated, and spectators
only if the host allows it; reactions reach everyone at the table, shared
screens included (they show beside the seat); the call's roster reaches
everyone; a signal reaches one connection: the addressee's, while both are in
the call. Signals are never stored and never logged.

Decisions where the issue is silent
-----------------------------------
- A reaction is a gesture at the table, like a seat's status: spectators and the
  shared screen see it whatever ``spectators`` says; chat is what they may be
  kept from reading.
- The host's ``chat: "off"`` ends reactions too; it does not end the call (a
  call is joined by choice, and the host can mute a seat, which also keeps it
  out of the call).
- The game's limits (``talk.now``) hold only while the table plays; in the
  lobby and once the match is over everything may be said.
- Talk is best effort live: a note published while a process's connection to
  Redis is down is not replayed to it; the kept lines come back on a reload.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import msgpack  # type: ignore[import-untyped]

from meja.protocol import codec, messages
from meja.protocol.errors import (
    BadSeat,
    BadText,
    LimitExceeded,
    Muted,
    NotInCall,
    NotSeated,
    TalkOff,
    TalkRestricted,
)
from meja.rules import TALK_FREE, TALK_NEUTRAL, TALK_NONE, Event

from . import names
from .limits import Buckets
from .records import PLAYING, SeatRecord, Table

if TYPE_CHECKING:
    from .hub import Hub, Member

__all__ = ["DEFAULTS", "Talk", "allowed_now", "ice_servers", "mute", "set_policy", "summary", "turn_credentials"]

log = logging.getLogger("meja.server.talk")

#: The host's talk settings when it chose none.
DEFAULTS: Final[Mapping[str, Any]] = {
    "chat": "on", "spectators": False, "table_talk": False, "relay": False, "hints": True,
}  # fmt: skip
#: The people a table keeps muted (each a 64-character key): a bound on the record's size.
MAX_MUTED: Final = 32


# --------------------------------------------------------------------------- the host's settings (pure)


def policy(t: Table) -> dict[str, Any]:
    """The table's talk settings, defaults filled in (``muted`` left out)."""
    stored = t.talk or {}
    return {name: stored.get(name, default) for name, default in DEFAULTS.items()}


def person_key(record: SeatRecord) -> str | None:
    """What a mute is kept by: the seat token's hash (see the module docstring)."""
    return record.token


def is_muted(t: Table, seat: int) -> bool:
    if not 0 <= seat < len(t.seats) or not t.seats[seat].is_human:
        return False
    key = person_key(t.seats[seat])
    return key is not None and key in (t.talk or {}).get("muted", ())


def allowed_now(t: Table) -> str:
    """What may be said now, the host's ``off`` and ``table_talk`` and the game's rules taken together."""
    stored = t.talk or {}  # (two settings read, not policy()'s every one: a table map asks each version)
    if stored.get("chat", DEFAULTS["chat"]) == "off":
        return TALK_NONE
    if stored.get("table_talk", DEFAULTS["table_talk"]) or t.status != PLAYING or t.state is None:
        return TALK_FREE
    rule: str = t.state.talk()
    return rule


def summary(t: Table) -> dict[str, Any]:
    """The table map's ``talk`` (PROTOCOL.md 7.1)."""
    out = policy(t)
    out["muted"] = [i for i in range(len(t.seats)) if is_muted(t, i)]
    out["now"] = allowed_now(t)
    return out


def from_request(changes: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The record's ``talk`` for a new table (a ``host`` message's ``talk``, already checked)."""
    if not changes:
        return None
    return {**DEFAULTS, **changes, "muted": []}


def set_policy(t: Table, changes: Mapping[str, Any]) -> tuple[Table, tuple[Event, ...]]:
    """The host changes the talk settings (any of ``DEFAULTS``' names, checked by the protocol layer)."""
    muted = list((t.talk or {}).get("muted", ()))
    new = {**policy(t), **changes}
    table = t.evolve(talk={**new, "muted": muted})
    return table, (Event("talk_changed", dict(new)),)


def mute(t: Table, *, seat: int, muted: bool) -> tuple[Table, tuple[Event, ...]]:
    """The host mutes (or unmutes) the person at ``seat`` for the whole table."""
    if not 0 <= seat < len(t.seats):
        raise BadSeat(f"no seat {seat!r} at a table of {len(t.seats)}")
    if seat == t.host_seat:
        raise BadSeat("the host's seat cannot be muted")
    record = t.seats[seat]
    key = person_key(record) if record.is_human else None
    if key is None:
        raise BadSeat(f"seat {seat} holds no person to mute")
    keys = [k for k in (t.talk or {}).get("muted", ()) if k != key]
    if muted:
        keys = (keys + [key])[-MAX_MUTED:]
    table = t.evolve(talk={**policy(t), "muted": keys})
    return table, (Event("muted", {"seat": seat, "muted": muted}),)


def check(t: Table, seat: int, *, reaction: str | None) -> None:
    """Refuse what ``seat`` may not say now, in the order of PROTOCOL.md 16.4 (after the seat check)."""
    if is_muted(t, seat):
        raise Muted("the host muted you at this table")
    settings = policy(t)
    if settings["chat"] == "off":
        raise TalkOff("the host turned talk off at this table")
    if reaction is None and settings["chat"] == "reactions":
        raise TalkOff("the host allows reactions only at this table")
    now = allowed_now(t)
    if now == TALK_NONE:
        raise TalkRestricted("the game's rules allow no talk now")
    if now == TALK_NEUTRAL and (reaction is None or reaction not in messages.NEUTRAL_REACTIONS):
        allowed = ", ".join(messages.NEUTRAL_REACTIONS)
        raise TalkRestricted(f"the game's rules allow only these reactions now: {allowed}")


# --------------------------------------------------------------------------- the call's servers


def turn_credentials(secret: str, user: str, ttl_s: int, now_s: int) -> tuple[str, str]:
    """The TURN REST API's time-limited credentials (coturn's ``use-auth-secret``): the username
    ``<expiry>:<user>`` and its base64 HMAC-SHA1 under the shared secret."""
    username = f"{now_s + ttl_s}:{user}"
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return username, base64.b64encode(digest).decode()


def ice_servers(urls: Sequence[str], secret: str | None, user: str, ttl_s: int, now_s: int) -> list[dict[str, Any]]:
    """The RTCIceServer maps for one connection: STUN as they are, TURN with its own credentials."""
    stun = [u for u in urls if u.startswith("stun:")]
    turn = [u for u in urls if not u.startswith("stun:")]
    out: list[dict[str, Any]] = []
    if stun:
        out.append({"urls": stun})
    if turn:
        server: dict[str, Any] = {"urls": turn}
        if secret:
            server["username"], server["credential"] = turn_credentials(secret, user, ttl_s, now_s)
        out.append(server)
    return out


# --------------------------------------------------------------------------- notes


def encode_note(note: Mapping[str, Any]) -> bytes:
    packed: bytes = msgpack.packb(dict(note), use_bin_type=True)
    return packed


def decode_note(raw: bytes) -> dict[str, Any]:
    note = msgpack.unpackb(raw, raw=False)
    if not isinstance(note, dict):
        raise ValueError("a note is a map")
    return note


def roster(t: Table, entries: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The call's peers, in seat order: each presence entry whose connection still holds a seat,
    at the seat it holds now (a reload, a lost connection or a dead process drops it) and whose person is not muted."""
    peers: dict[int, dict[str, Any]] = {}
    # (by the connection: a person who moved seats in the lobby is in the call at the new one)
    held = {record.conn: i for i, record in enumerate(t.seats) if record.is_human and record.conn is not None}
    for entry in entries.values():
        conn = entry.get("conn")
        seat = None if not isinstance(conn, list | tuple) else held.get(tuple(conn))
        if seat is None:
            continue
        if is_muted(t, seat):
            continue
        peers[seat] = {
            "seat": seat,
            "id": entry["id"],
            "mic": bool(entry.get("mic")),
            "cam": bool(entry.get("cam")),
            "speaking": bool(entry.get("speaking")) and bool(entry.get("mic")),
        }
    return [peers[s] for s in sorted(peers)]


def hears_line(t: Table, seat: int | None, note: Mapping[str, Any]) -> bool:
    """Whether a connection at ``seat`` (``None``: a spectator) may read the line of ``note``:
    spectators read chat while the host allows it now and allowed it when the line was said
    (``open``; a line said while they could not read it reached those who came after the host
    allowed it: a hostile player's finding). A note from before ``open`` was kept counts as open."""
    if seat is not None or "reaction" in note["line"]:
        return True
    return bool(note.get("open", True)) and bool(policy(t)["spectators"])


# --------------------------------------------------------------------------- the desk (I/O)


class Talk:
    """What the session asks of talk: say, react, the call and its signals, the history.

    One per process (held by :class:`meja.server.service.TableService`). Budgets are this
    process's: talk per seat (``talk_per_s``), call messages per connection (``signal_per_s``).
    """

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.settings = hub.settings
        settings = hub.settings
        self._talk = Buckets(settings.talk_per_s, settings.talk_burst)
        self._signals = Buckets(settings.signal_per_s, settings.signal_burst)
        self._calls = Buckets(settings.call_per_s, settings.call_burst)

    # -- lines ----------------------------------------------------------------------------

    async def say(self, member: Member, table_id: str, *, text: str | None, reaction: str | None) -> dict[str, Any]:
        """Say a chat line (``text``) or a reaction; the line as sent. Raises what refuses it."""
        seat = _seat_of(member)
        cached = await self.hub.ensure(table_id)
        if cached is None:
            raise NotSeated("this connection holds no seat at that table")
        table = cached.table
        check(table, seat, reaction=reaction)
        if text is not None:
            text = names.clean_text(text, self.settings.chat_max_chars, "chat line", BadText)
        self.spend(table_id, seat)
        line: dict[str, Any] = {
            "id": secrets.token_hex(6),
            "seat": seat,
            "name": table.seats[seat].name,
            "at": time.time_ns() // 1_000_000,
        }
        if text is not None:
            line["text"] = text
        else:
            line["reaction"] = reaction
        note = {"k": "line", "line": line, "conn": list(member.session.conn), "open": bool(policy(table)["spectators"])}
        if not await self.hub.store.publish(table_id, encode_note(note), keep=self.settings.talk_keep):
            raise NotSeated("this connection holds no seat at that table")
        return line

    def spend(self, table_id: str, seat: int) -> None:
        """One of the seat's talk budget (``talk_per_s``), or ``limit/exceeded``."""
        if not self._talk.bucket(f"{table_id}/{seat}").take():
            raise LimitExceeded(f"more than {self.settings.talk_per_s:g} messages a second: wait a moment")

    def carry(self, table_id: str, old: int, new: int) -> None:
        """A person moved from seat ``old`` to ``new`` (``sit``): their talk budget goes with them."""
        self._talk.carry(f"{table_id}/{old}", f"{table_id}/{new}")

    async def history(self, table_id: str, member: Member) -> None:
        """Send a connection that has just attached the lines it may read (``talk`` with ``history``)."""
        cached = self.hub.cached(table_id)
        if cached is None:
            return
        lines = []
        for raw in await self.hub.store.notes(table_id):
            try:
                note = decode_note(raw)
            except ValueError:
                continue
            line = note.get("line")
            if isinstance(line, dict) and hears_line(cached.table, member.seat, note):
                lines.append(line)
        if lines and not member.session.closing:
            member.session.send(messages.talk(table=table_id, lines=lines, history=True))

    # -- the call -------------------------------------------------------------------------

    def _spend_signal(self, member: Member) -> None:
        if not self._signals.bucket(member.session.cid).take():
            raise LimitExceeded(f"more than {self.settings.signal_per_s:g} call messages a second: slow down")

    async def call(
        self,
        member: Member,
        table_id: str,
        *,
        join: bool,
        mic: bool,
        cam: bool,
        speaking: bool,
        re: int | str | None = None,
    ) -> None:
        """Join the call, say what changed, or leave it, and answer (``re``): ``ice`` when this
        joins, else the roster (``call``) with the change in it.

        The ``ice`` is queued before anyone hears of the join (PROTOCOL.md 16.5: ``ice``, then the
        roster): the roster that names the new call id, and so any signal a peer sends to it, comes
        after it, from this process or another. (Answering after the join's note went out sent this
        connection the roster first, and a peer's offer could overtake the ``ice`` on a loaded
        machine: the page, not yet in the call, dropped it, and that pair never connected.)"""
        seat = _seat_of(member)
        cached = self.hub.cached(table_id)
        if cached is None:
            raise NotSeated("this connection holds no seat at that table")
        if join and is_muted(cached.table, seat):
            raise Muted("the host muted you at this table")
        # Each call message goes to everyone at the table (the roster): a budget of its own.
        if not self._calls.bucket(member.session.cid).take():
            raise LimitExceeded(f"more than {self.settings.call_per_s:g} call messages a second: slow down")
        if not join:
            await self.leave(member, table_id)
            member.session.send(messages.call(table=table_id, peers=cached.roster, re=re))
            return
        joins = member.call_id is None
        if joins:
            member.call_id = secrets.token_hex(4)
            settings = self.settings
            servers = ice_servers(
                settings.ice_urls(), settings.turn_secret, member.call_id, settings.turn_ttl_s, int(time.time())
            )
            relay = bool(policy(cached.table)["relay"])
            member.session.send(messages.ice(table=table_id, id=member.call_id, servers=servers, relay=relay, re=re))
        entry = {"seat": seat, "conn": list(member.session.conn), "id": member.call_id, "mic": mic, "cam": cam}
        entry["speaking"] = speaking
        await self._presence(table_id, member, entry)
        if not joins:
            member.session.send(messages.call(table=table_id, peers=cached.roster, re=re))

    async def leave(self, member: Member, table_id: str) -> None:
        """Take this connection out of the call (its entry only: a newer connection of the seat stays)."""
        if member.call_id is None:
            return
        member.call_id = None
        await self._presence(table_id, member, None)

    async def _presence(self, table_id: str, member: Member, entry: dict[str, Any] | None) -> None:
        field = ":".join(member.session.conn)
        note = {"k": "call", "field": field, "entry": entry}
        value = None if entry is None else encode_note(entry)
        await self.hub.store.publish(table_id, encode_note(note), presence=(field, value))
        # Here at once (the note comes back through the store too, and changes nothing then).
        self.hub.note_presence(table_id, field, entry)

    async def signal(self, member: Member, msg: messages.Signal) -> None:
        """Relay one signal to the addressee's connection (never stored, never logged)."""
        seat = _seat_of(member)
        cached = self.hub.cached(msg.table)
        if cached is None or member.call_id is None:
            raise NotInCall("join the call before you signal")
        peers = {p["seat"]: p for p in roster(cached.table, cached.presence)}
        mine = peers.get(seat)
        if mine is None or mine["id"] != member.call_id:
            # A seat the host muted keeps its call id but leaves the roster: it may not reach
            # anyone in the call (the mute holds for the call as for the chat).
            raise NotInCall("this seat is not in the call (muted, or not joined): it may not signal")
        if msg.to == seat:
            raise NotInCall("a signal goes to another seat of the call, not to one's own")
        target = peers.get(msg.to)
        if target is None or target["id"] != msg.peer:
            raise NotInCall(f"seat {msg.to} is not in the call under the id this signal names (it left, or rejoined)")
        size = sum(len(p) for p in msg.sdp or ()) + sum(len(c["candidate"]) + 40 for c in msg.candidates or ())
        if size > self.settings.max_signal_chars:
            raise LimitExceeded(f"a signal holds at most {self.settings.max_signal_chars} characters")
        self._spend_signal(member)
        out = messages.signal(
            table=msg.table, sender=seat, peer=member.call_id, kind=msg.kind, sdp=msg.sdp, candidates=msg.candidates
        )
        note = {"k": "signal", "to": msg.to, "peer": msg.peer, "frame": codec.encode(out)}
        await self.hub.store.publish(msg.table, encode_note(note))


def _seat_of(member: Member) -> int:
    if member.seat is None or member.token is None:
        raise NotSeated("only a seated person may talk here: spectators and shared screens read")
    return member.seat
