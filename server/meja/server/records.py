"""The table record: what the store keeps of a table, and its log entries.

The store sees opaque bytes (:mod:`meja.store.base`); this module is the only
place that knows their layout. A record is a msgpack map with ``schema: 2``
(2: the match seed has 128 bits, kept in hex):

===============  ==================================================================
field            meaning
===============  ==================================================================
id, code         table id (128-bit hex) and room code
game, options    the game's name and the host's options request (``{"preset": ...}``)
seats            one map per seat: ``kind`` (human|bot|empty), ``name``, ``level``
                 (bots), ``token`` (SHA-256 of the seat token), ``conn``
                 (``[process id, connection id]`` of the connection holding the seat,
                 or nil), ``away`` (epoch ms the player left, or nil), ``auto`` (a bot
                 plays for the absent player), ``was_away``/``was_auto`` (the away clock a
                 reconnection ended, until that connection got its state), ``origin``
                 (:func:`origin_tag` of the address the seat was taken from, or nil)
host, host_seat  SHA-256 of the host token (nil once the host left), the host's seat (nil: a
                 host without a seat, such as a shared screen that hosts)
delegate         the seat the host handed its rights to (nil: the host holds them): the
                 rights go with that seat until the host (its token) takes them back
status           lobby | playing | finished
bots             bot level for empty seats and absent players
grace_s          seconds an absent player keeps the seat before a bot plays for them
turn_limit_s     seconds per turn, or nil (no limit)
seed             the match seed (128 bits from :mod:`secrets`, in hex; secret)
deal_code        the deal the first round must use, or nil
carry            what the last match handed this one at a rematch (``State.carry()``:
                 public, e.g. the next dealer), or nil (absent in records written before)
state            the game state (``State.to_data()``), nil in the lobby
gv               table version of the last change to the game state: timers and bots
                 act only if it has not moved; an ``act`` is stale if the client's
                 version is older
round_v          table version at which the current round was dealt (bot history)
epochs           per seat, the table version of the last change that makes that seat's
                 pending decision stale (``State.epoch``): an ``act`` on an older version
                 is refused as stale; empty before the start
turn_v, strikes  the current decision period (a turn, or the wait for ``ready``)
                 began at table version ``turn_v``; ``strikes`` counts the turn
                 limit running out in it
deadline         epoch ms when the turn limit runs out, or nil
commitment       ``{round, hash, salt, code}`` of the round in progress (salt and
                 code stay server-side until the round ends)
created          epoch ms
commit           random id of the commit that wrote this version (whose request it answers)
kicked           the ``origin`` tags of the people whose seat the host took away in the
                 lobby (at most :data:`MAX_KICKED`, the oldest dropped): they may not
                 ``join`` again (absent in records written before: none)
talk             the host's talk settings (:mod:`meja.server.talk`): ``chat``, ``spectators``,
                 ``table_talk``, ``relay``, and ``muted``: the seat token hashes of the
                 muted people; nil: the defaults
archived         what became of the finished match's archive (:mod:`meja.server.archive`):
                 ``yes`` (written: the table map names it), or why not: ``full`` (the store
                 was past ``archive_full_pct``), ``log`` (the log no longer reached the deal),
                 ``off`` (``archive_ttl_s`` is 0); absent until then, and in a match not over
screen           the host's shared screen's token (:func:`screen_token`; secret), made from the
                 first match's seed and kept through rematches; absent in records written
                 before (the token is then the current seed's)
===============  ==================================================================

A log entry (one per version) is a msgpack list of events, each
``[kind, data, only, hidden_from]`` exactly as :class:`meja.rules.Event`
carries them, so the same audience rules decide who sees a table event and a
game event.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

from meja.games import get_game
from meja.rules import Event

__all__ = [
    "BOT",
    "EMPTY",
    "FINISHED",
    "HUMAN",
    "LOBBY",
    "MAX_KICKED",
    "PLAYING",
    "SCHEMA",
    "Commitment",
    "SeatRecord",
    "Table",
    "archive_id",
    "decode_entry",
    "encode_entry",
    "origin_tag",
    "screen_token",
]

SCHEMA: Final = 2
#: kicked people a table remembers (each a 64-character tag): a bound on the record's size
MAX_KICKED: Final = 32
HUMAN: Final = "human"
BOT: Final = "bot"
EMPTY: Final = "empty"
LOBBY: Final = "lobby"
PLAYING: Final = "playing"
FINISHED: Final = "finished"


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a table."""

    kind: str = EMPTY
    name: str = ""
    level: str | None = None
    token: str | None = None  #: SHA-256 hex of the seat token (humans only)
    conn: tuple[str, str] | None = None  #: (process id, connection id) holding the seat
    away: int | None = None  #: epoch ms the player went away
    auto: bool = False  #: a bot plays for the absent player
    #: the away clock a reconnection ended, kept until its connection got the state (tables.connect)
    was_away: int | None = None
    was_auto: bool = False
    origin: str | None = None  #: :func:`origin_tag` of the address the seat was taken from
    #: the person left the finished match: the seat keeps their name for its result, no token, and
    #: a rematch seats a bot there (:func:`meja.server.tables.leave`)
    left: bool = False

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    @property
    def is_bot(self) -> bool:
        return self.kind == BOT

    @property
    def is_empty(self) -> bool:
        return self.kind == EMPTY

    @property
    def is_present(self) -> bool:
        """A human whose connection is (believed) open."""
        return self.kind == HUMAN and self.conn is not None

    @property
    def is_played_by_bot(self) -> bool:
        """A bot seat, or an absent player's seat in the bot's hands."""
        return self.kind == BOT or (self.kind == HUMAN and self.auto)

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "token": self.token,
            "conn": None if self.conn is None else list(self.conn),
            "away": self.away,
            "auto": self.auto,
            "was_away": self.was_away,
            "was_auto": self.was_auto,
            "origin": self.origin,
            "left": self.left,
        }

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> SeatRecord:
        conn = d.get("conn")
        return cls(
            kind=d["kind"],
            name=d.get("name", ""),
            level=d.get("level"),
            token=d.get("token"),
            conn=None if conn is None else (str(conn[0]), str(conn[1])),
            away=d.get("away"),
            auto=bool(d.get("auto", False)),
            was_away=d.get("was_away"),
            was_auto=bool(d.get("was_auto", False)),
            origin=d.get("origin"),
            left=bool(d.get("left", False)),
        )


@dataclass(frozen=True, slots=True)
class Commitment:
    """The fair-deal commitment of one round: ``hash = sha256(f"{code}:{salt}")``."""

    round: int
    hash: str
    salt: str
    code: str
    #: the deal was chosen by someone (the host gave its code), not drawn by the server
    chosen: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"round": self.round, "hash": self.hash, "salt": self.salt, "code": self.code, "chosen": self.chosen}

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> Commitment:
        return cls(d["round"], d["hash"], d["salt"], d["code"], bool(d.get("chosen", False)))


@dataclass(frozen=True)
class Table:
    """A decoded table record (see the module docstring). Immutable: change it with :meth:`evolve`."""

    id: str
    code: str
    game: str
    options: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    host: str | None
    host_seat: int | None
    status: str
    bots: str
    grace_s: int
    turn_limit_s: int | None
    seed: int
    deal_code: str | None
    state: Any | None
    created: int
    gv: int = 0
    round_v: int = 0
    epochs: tuple[int, ...] = ()
    turn_v: int = 0
    strikes: int = 0
    deadline: int | None = None
    commitment: Commitment | None = None
    #: a random id of the commit that wrote this record: a request's reply (``re``) goes only
    #: on the update of the commit that request made, never on another one of the same version
    commit: str = ""
    #: origin tags of the people the host took a seat from (see the module docstring)
    kicked: tuple[str, ...] = ()
    #: what the last match handed this one (``State.carry()``), given back to ``new_match``
    carry: Any = None
    #: the host's talk settings (meja.server.talk), nil: the defaults
    talk: Any = None
    #: the seat the host handed its rights to (None: the host holds them)
    delegate: int | None = None
    #: what became of the finished match's archive (see the module docstring), None: not done yet
    archived: str | None = None
    #: the host's shared screen's token (:func:`screen_token`), kept from the first match on, so
    #: that a screen that reloads after a rematch (a new seed) still watches; "" in a record
    #: written before it was kept: derived from the seed then
    screen: str = ""
    #: per-object memo (summaries, options); not part of the record
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def evolve(self, **changes: Any) -> Table:
        # dataclasses.replace() re-runs __init__ over every field (about 15 us); a commit
        # evolves a table several times, so copy the field dict instead (about 2 us).
        unknown = changes.keys() - _TABLE_FIELDS
        if unknown:
            raise TypeError(f"Table has no fields {sorted(unknown)}")
        new = object.__new__(Table)
        fields_ = new.__dict__
        fields_.update(self.__dict__)
        fields_.update(changes)
        # The memo holds what was derived from this value; only the parsed options survive
        # a change that leaves the options alone, and the timer keys (tables.due_keys) one of
        # the commit's id or the turn deadline alone (the keys read neither: a commit sets both
        # after planning its timers, and the next commit's plan reads this table's keys again).
        memo = self.memo
        kept = fields_["memo"] = {"options": memo["options"]} if "options" in memo and "options" not in changes else {}
        if "due" in memo and changes.keys() <= _UNTIMED:
            kept["due"] = memo["due"]
        return new

    def with_seat(self, seat: int, **changes: Any) -> Table:
        seats = list(self.seats)
        seats[seat] = replace(seats[seat], **changes)
        return self.evolve(seats=tuple(seats))

    # ------------------------------------------------------------------ queries

    @property
    def game_options(self) -> Any:
        if "options" not in self.memo:
            self.memo["options"] = get_game(self.game).options_from_wire(self.options)
        return self.memo["options"]

    def awaiting(self) -> tuple[int, ...]:
        """The seats whose decision holds the game up (none unless playing)."""
        if self.status != PLAYING or self.state is None:
            return ()
        result: tuple[int, ...] = self.state.awaiting()
        return result

    def actors(self) -> tuple[int, ...]:
        """Every seat that may act now, out of turn included (none unless playing)."""
        if self.status != PLAYING or self.state is None:
            return ()
        result: tuple[int, ...] = self.state.actors()
        return result

    def epoch_of(self, seat: int) -> int:
        """The table version before which ``seat``'s pending decision is stale."""
        return self.epochs[seat] if seat < len(self.epochs) else self.gv

    def holds_rights(self, seat: int | None, host_token_hash: str | None) -> bool:
        """Whether a connection at ``seat`` holding a host token with that hash (or none) may do what
        the host does now: the seat the rights were handed to, else the host token's holder."""
        if self.delegate is not None:
            return seat is not None and seat == self.delegate
        return self.is_the_host(host_token_hash)

    def is_the_host(self, host_token_hash: str | None) -> bool:
        """Whether that is the host token's hash (whoever holds the rights now)."""
        return host_token_hash is not None and self.host is not None and hmac.compare_digest(self.host, host_token_hash)

    def any_present_human(self) -> bool:
        return any(s.is_present for s in self.seats)

    def seat_of_token(self, token_hash_: str) -> int | None:
        """The seat whose token hash is ``token_hash_`` (exact compare of hashes)."""
        import hmac

        found = None
        for i, s in enumerate(self.seats):
            if s.token is not None and hmac.compare_digest(s.token, token_hash_):
                found = i
        return found

    # ------------------------------------------------------------------ bytes

    def to_bytes(self) -> bytes:
        data = {
            "schema": SCHEMA,
            "id": self.id,
            "code": self.code,
            "game": self.game,
            "options": self.options,
            "seats": [s.to_data() for s in self.seats],
            "host": self.host,
            "host_seat": self.host_seat,
            "status": self.status,
            "bots": self.bots,
            "grace_s": self.grace_s,
            "turn_limit_s": self.turn_limit_s,
            "seed": f"{self.seed:032x}",
            "deal_code": self.deal_code,
            "state": None if self.state is None else self.state.to_data(),
            "gv": self.gv,
            "round_v": self.round_v,
            "epochs": list(self.epochs),
            "turn_v": self.turn_v,
            "strikes": self.strikes,
            "deadline": self.deadline,
            "commitment": None if self.commitment is None else self.commitment.to_data(),
            "created": self.created,
            "commit": self.commit,
            "kicked": list(self.kicked),
            "carry": self.carry,
            "talk": self.talk,
            "delegate": self.delegate,
        }
        if self.screen:
            data["screen"] = self.screen
        if self.archived is not None:
            data["archived"] = self.archived  # (only at a finished table: no byte before)
        packed: bytes = msgpack.packb(data, use_bin_type=True)
        return packed

    @classmethod
    def from_bytes(cls, raw: bytes) -> Table:
        d = msgpack.unpackb(raw, raw=False)
        if not isinstance(d, dict) or d.get("schema") != SCHEMA:
            raise ValueError(f"not a table record of schema {SCHEMA}")
        state_data = d.get("state")
        state = None if state_data is None else get_game(d["game"]).state_from_data(state_data)
        commitment = d.get("commitment")
        return cls(
            id=d["id"],
            code=d["code"],
            game=d["game"],
            options=d.get("options") or {},
            seats=tuple(SeatRecord.from_data(s) for s in d["seats"]),
            host=d.get("host"),
            host_seat=d.get("host_seat", 0),
            status=d["status"],
            bots=d["bots"],
            grace_s=d["grace_s"],
            turn_limit_s=d.get("turn_limit_s"),
            seed=int(d["seed"], 16),
            deal_code=d.get("deal_code"),
            state=state,
            created=d.get("created", 0),
            gv=d.get("gv", 0),
            round_v=d.get("round_v", 0),
            epochs=tuple(d.get("epochs") or ()),
            turn_v=d.get("turn_v", 0),
            strikes=d.get("strikes", 0),
            deadline=d.get("deadline"),
            commitment=None if commitment is None else Commitment.from_data(commitment),
            commit=d.get("commit", ""),
            kicked=tuple(d.get("kicked") or ()),
            carry=d.get("carry"),
            talk=d.get("talk"),
            delegate=d.get("delegate"),
            archived=d.get("archived"),
            screen=d.get("screen") or "",
        )


_TABLE_FIELDS = frozenset(f.name for f in fields(Table)) - {"memo"}
#: The fields no timer key is derived from (:func:`meja.server.tables.due_keys`; a test keeps it so).
_UNTIMED: Final = frozenset({"commit", "deadline"})


def screen_token(t: Table) -> str:
    """The table's screen token: what the host's shared screen watches with, to a place the
    per-address spectator limits do not take (issue 25, finding 4). Derived from the first match's
    secret seed when the table is made (unguessable without it; 128 bits, base64url) and kept in
    the record (``screen``): a rematch deals from a new seed, and a token derived from the seed
    of the day refused the host's screen that reloaded after one (a hostile player's finding)."""
    return t.screen or seed_screen_token(t.seed)


def seed_screen_token(seed: int) -> str:
    """The screen token a table dealt first from ``seed`` keeps (:func:`screen_token`)."""
    digest = hmac.new(seed.to_bytes(16, "big"), b"meja shared screen", hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def archive_id(seed: int) -> str:
    """The id of the archive of the match dealt from ``seed`` (:mod:`meja.server.archive`): derived from
    the secret seed like :func:`screen_token` (nobody can name it before the match ends, every
    process names it alike), 128 bits, base64url (22 characters)."""
    digest = hmac.new(seed.to_bytes(16, "big"), b"meja archive", hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def origin_tag(seed: int, address: str) -> str:
    """What a table keeps of a client address (an address key: IPv4, or an IPv6 /64): an
    HMAC-SHA-256 keyed with the table's secret seed, so that a copy of the store names no
    address and the tags of two tables cannot be matched."""
    return hmac.new(seed.to_bytes(16, "big"), address.encode(), hashlib.sha256).hexdigest()


def encode_entry(events: Iterable[Event]) -> bytes:
    """A log entry: the events of one version."""
    packed: bytes = msgpack.packb(
        [[e.kind, dict(e.data), None if e.only is None else list(e.only), list(e.hidden_from)] for e in events],
        use_bin_type=True,
    )
    return packed


def decode_entry(raw: bytes) -> tuple[Event, ...]:
    items: Sequence[Any] = msgpack.unpackb(raw, raw=False)
    return tuple(
        Event(kind, data, None if only is None else tuple(only), tuple(hidden)) for kind, data, only, hidden in items
    )
