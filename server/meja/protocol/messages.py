"""Every message of protocol version 1, in one place: client requests and server replies.

Client messages are frozen dataclasses, each field declared once with its wire
types and limits (:func:`wire`); :data:`CLIENT_FIELDS` lists them, read from the
dataclasses, and :func:`parse_client` is the only
way from a decoded map to a message. It is strict: a missing required field, a
value of the wrong type or out of range, or any field not listed is
``protocol/bad_message``; an unknown ``type`` is ``protocol/unknown_type``. The
game-specific parts (``options`` of ``host``, ``action`` of ``act``) are only
checked for shape here (a map of bounded size); the game decodes them.

Server messages are built by the functions at the bottom; :data:`SERVER_FIELDS`
documents their fields (the tests check every message the server sends
against it, so this table cannot drift from the code).

Field types: ``int`` (never a bool), ``str``, ``bool``, ``map`` (string keys),
``list``, ``nil``. A field may allow several (``int|nil``).

Where the implementation differs from, or adds to, the draft PROTOCOL.md
----------------------------------------------------------------------
- ``host.seats`` is optional: the deal code's seat count when ``deal_code`` is
  given, else the preset's smallest table. ``host.options.preset`` likewise
  defaults to the deal code's preset.
- ``host.turn_limit_s``: absent or nil means the server's default
  (``Settings.turn_limit_s``, which is off unless the operator sets it); 0 means
  no limit.
- ``watch`` takes ``since`` (like ``resume``) so a spectator can also catch up.
- ``update`` carries ``table`` as the same map as ``state`` (the draft listed
  ``table`` as a string *and* "the same fields as state"; the map holds the id),
  plus ``since``. An update covers the versions ``since+1 .. version``: usually
  one (``since == version - 1``); more when the versions between changed nothing
  that connection can see (another seat's private step), which it is not sent.
  After a gap (a resync) and on ``resume``/``watch`` with ``since``, the server
  sends one update per missed version, each with the current table map and view.
- ``update`` and ``state`` carry ``re`` when they answer a request with an ``id``
  (``seat``, ``start``, ``act``, ``rematch``, ``leave``: the update of the change
  *that request* committed, never a competing one of the same version; ``host``,
  ``join``, ``resume``, ``watch``: the state).
- Table events whose data would collide with the event's own ``kind`` use other
  names: ``seat_changed`` has ``to`` (the seat's new kind), ``timeout`` has
  ``limit`` (``"turn"`` or ``"ready"``).
- The table map's ``seats[].level`` is also given for a human seat in ``auto``
  (the level of the bot standing in); ``deal_code_given`` (lobby) is added.
- ``hello.diffs`` (an addition): ``true`` asks for updates as ``patch`` messages, the
  changes to the ``table`` and ``view`` this connection was last sent
  (:mod:`meja.protocol.patch`); without it, updates carry them whole.
- Error code ``limit/exceeded`` and close code 4004 (too slow) are additions.
- The server never negotiates permessage-deflate (no decompression bombs).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from .errors import BadMessage, UnknownType

__all__ = [
    "CALL_MAX",
    "CHAT_MODES",
    "CLIENT_FIELDS",
    "CLIENT_MESSAGES",
    "MAX_CHAT_CHARS",
    "MAX_CODE_CHARS",
    "MAX_ID_CHARS",
    "MAX_LESSON_STEP",
    "MAX_LEVEL_CHARS",
    "MAX_NAME_CHARS",
    "MAX_NAME_MARKS",
    "MAX_REPLAY_STEPS",
    "MAX_SEAT",
    "MAX_TOKEN_CHARS",
    "NEUTRAL_REACTIONS",
    "PROTOCOL_VERSION",
    "REACTIONS",
    "SERVER_FIELDS",
    "SIGNAL_KINDS",
    "TABLE_ID_CHARS",
    "TABLE_ID_PATTERN",
    "Act",
    "Call",
    "ClientMessage",
    "DealBoard",
    "Field",
    "Hello",
    "Hint",
    "Host",
    "HostTo",
    "Join",
    "Learn",
    "LearnTry",
    "Leave",
    "Mute",
    "Ping",
    "React",
    "Rematch",
    "Replay",
    "Resume",
    "Say",
    "Seat",
    "Signal",
    "Sit",
    "Start",
    "TalkPolicy",
    "Watch",
    "call",
    "deal_board",
    "error",
    "hint",
    "ice",
    "joined",
    "learn",
    "learn_try",
    "message_id",
    "parse_client",
    "patch",
    "pong",
    "replay",
    "signal",
    "state",
    "talk",
    "update",
    "welcome",
]

#: The protocol version this module speaks.
PROTOCOL_VERSION: Final = 1

# Limits fixed by the protocol (the same on every server, so clients can check them too).
#: a message ``id`` string, characters
MAX_ID_CHARS: Final = 64
#: a player's display name, characters (after NFKC and trimming spaces)
MAX_NAME_CHARS: Final = 24
#: combining marks stacked on one character of a name (enough for any script's ordinary writing:
#: a Thai tone mark over a vowel, an Arabic shadda with its vowel; not for "zalgo" text)
MAX_NAME_MARKS: Final = 3
#: a room code or deal code as typed (spaces and hyphens allowed), characters
MAX_CODE_CHARS: Final = 48
#: a table id: exactly this many lowercase hex characters (128 random bits)
TABLE_ID_CHARS: Final = 32
#: what a table id looks like; anything else is refused at the edge (``protocol/bad_message``), so no
#: other layer ever sees one (a brace would read as a Redis Cluster hash tag in the store's keys)
TABLE_ID_PATTERN: Final = f"[0-9a-f]{{{TABLE_ID_CHARS}}}"
#: a seat or host token, characters
MAX_TOKEN_CHARS: Final = 64
#: a bot level or game name, characters
MAX_LEVEL_CHARS: Final = 32
#: the highest seat number any game may have
MAX_SEAT: Final = 15
#: entries of ``host.options`` and of ``act.action``
MAX_OPTIONS: Final = 16
#: seconds: bounds of ``grace_s`` and ``turn_limit_s`` beyond any int msgpack carries (-2^63 .. 2^64-1),
#: so that the server's own range (``grace_min_s..grace_max_s``, ``turn_limit_min_s..turn_limit_max_s``)
#: answers ``table/bad_options`` for any value outside it, however far: one code for one mistake
#: (issue 25; a hostile player's finding L1: 2^31 and above were ``protocol/bad_message``)
MAX_SECONDS: Final = 2**64
#: the highest step number of a game's guide (``learn``)
MAX_LESSON_STEP: Final = 63
#: largest int an ``id`` or a version may be (fits a JavaScript number exactly)
MAX_SAFE_INT: Final = 2**53 - 1

# Talk at the table (PROTOCOL.md section 16): the shell's, the same for every game.
#: The reactions, in the order a page offers them: a fixed set that every page translates
#: (a fixed set says nothing a host must moderate).
REACTIONS: Final = (
    "hello", "nice", "oops", "your_turn", "one_moment", "thanks",
    "good_game", "rematch", "laugh", "wow", "clap", "heart",
)  # fmt: skip
#: The reactions that say nothing about anyone's cards: the only ones a game's rules may
#: allow during a hand (``State.talk() == "neutral"``; a partner must not be signalled).
NEUTRAL_REACTIONS: Final = ("hello", "one_moment", "thanks", "your_turn")
#: What the host allows at a table: chat and reactions, reactions only, or no talk at all.
CHAT_MODES: Final = ("on", "reactions", "off")
#: The most steps of an archived match one ``replay`` answer carries.
MAX_REPLAY_STEPS: Final = 50
#: The longest chat line any server accepts (a server's ``chat_max_chars`` narrows it), characters.
MAX_CHAT_CHARS: Final = 500
#: What a call signal carries: a session description, its answer, or ICE candidates.
SIGNAL_KINDS: Final = ("offer", "answer", "candidates")
#: The most people in a call who send video (a mesh sends each video to every other person).
CALL_MAX: Final = 4


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message: its wire types and limits."""

    name: str
    types: str  #: "int", "str", "map", "bool", "list", "nil", joined with "|"
    required: bool = False
    min: int | None = None  #: int: smallest value; str: fewest characters
    max: int | None = None  #: int: largest value; str: most characters; map: most entries
    choices: tuple[str, ...] | None = None
    #: str: a regular expression the whole value must match, and what it means (for the error)
    pattern: tuple[str, str] | None = None
    doc: str = ""

    def check(self, value: Any) -> Any:
        """``value`` if it fits this field, else :class:`BadMessage` naming the field."""
        kinds = self.types.split("|")
        if value is None:
            if "nil" in kinds:
                return None
            raise BadMessage(f"field {self.name!r} may not be nil")
        if isinstance(value, bool):
            if "bool" in kinds:
                return value
        elif isinstance(value, int):
            if "int" in kinds:
                if self.min is not None and value < self.min:
                    raise BadMessage(f"field {self.name!r} must be at least {self.min}, not {value!r}")
                if self.max is not None and value > self.max:
                    raise BadMessage(f"field {self.name!r} must be at most {self.max}, not {value!r}")
                return value
        elif isinstance(value, str):
            if "str" in kinds:
                if self.min is not None and len(value) < self.min:
                    raise BadMessage(f"field {self.name!r} needs at least {self.min} characters")
                if self.max is not None and len(value) > self.max:
                    raise BadMessage(f"field {self.name!r} is longer than {self.max} characters")
                if self.choices is not None and value not in self.choices:
                    raise BadMessage(f"field {self.name!r} must be one of {list(self.choices)}, not {value!r}")
                if self.pattern is not None and not re.fullmatch(self.pattern[0], value):
                    raise BadMessage(f"field {self.name!r} must be {self.pattern[1]}, not {value!r}")
                return value
        elif isinstance(value, dict):
            if "map" in kinds:
                if self.max is not None and len(value) > self.max:
                    raise BadMessage(f"field {self.name!r} has more than {self.max} entries")
                return value
        elif isinstance(value, list) and "list" in kinds:
            return value
        raise BadMessage(f"field {self.name!r} must be {self.types}, not {value!r}")


_TABLE_ID = (TABLE_ID_PATTERN, f"a table id: {TABLE_ID_CHARS} lowercase hex characters")


def wire(types: str, *, required: bool = False, default: Any = None, **limits: Any) -> Any:
    """A client message's field, declared once: its wire types and limits (the :class:`Field` that
    :data:`CLIENT_FIELDS` lists under the attribute's name) and, unless ``required``, its default.
    (Ruff's RUF009 does not take it for the field specifier it is: fields typed as a map or a
    list say ``noqa: RUF009``.)"""
    spec = {"types": types, "required": required, **limits}
    if required:
        return dataclasses.field(metadata={"wire": spec})
    return dataclasses.field(default=default, metadata={"wire": spec})


def _table() -> Any:
    return wire("str", required=True, pattern=_TABLE_ID, doc="table id (32 lowercase hex characters)")


def _code_or_table() -> Any:
    return wire("str", min=1, max=MAX_CODE_CHARS, doc="room code, any case; or give `table`")


def _table_or_code() -> Any:
    return wire("str", pattern=_TABLE_ID, doc="table id (32 lowercase hex characters); or give `code`")


def _since() -> Any:
    return wire("int", min=0, max=MAX_SAFE_INT, doc="last version seen: missed events first")


class ClientMessage:
    """Base of the client messages; ``TYPE`` is the wire ``type``. Each field is declared with
    :func:`wire`; ``id`` (allowed on every message, checked apart) is the only one without."""

    TYPE: ClassVar[str] = ""
    id: int | str | None


@dataclass(frozen=True, slots=True)
class Hello(ClientMessage):
    TYPE: ClassVar[str] = "hello"
    protocol: int = wire("int", required=True, min=0, max=2**31 - 1, doc="1")
    client: str | None = wire("str", max=64, doc="client name and version, for logs")
    diffs: bool = wire("bool", default=False, doc="true: send updates as patches of what this connection was last sent")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Host(ClientMessage):
    TYPE: ClassVar[str] = "host"
    name: str = wire("str", required=True, min=1, max=MAX_NAME_CHARS, doc="the host's display name")
    game: str | None = wire("str", min=1, max=MAX_LEVEL_CHARS, doc="a game of welcome.games; default: the first")
    options: dict[str, Any] | None = wire(  # noqa: RUF009
        "map|nil", max=MAX_OPTIONS, doc='{"preset": "<a preset>", ...adjustable options}'
    )
    seats: int | None = wire(
        "int", min=1, max=MAX_SEAT + 1, doc="seat count; default: the deal code's, or the preset's least"
    )
    bots: str | None = wire("str", min=1, max=MAX_LEVEL_CHARS, doc='bot level for empty seats, default "normal"')
    deal_code: str | None = wire("str", min=1, max=MAX_CODE_CHARS, doc="round 1 uses this deal")
    grace_s: int | None = wire(
        "int", min=-MAX_SECONDS, max=MAX_SECONDS, doc="seconds before a bot plays for an absent player"
    )
    turn_limit_s: int | None = wire("int|nil", min=-MAX_SECONDS, max=MAX_SECONDS, doc="nil or absent: no turn limit")
    talk: dict[str, Any] | None = wire("map|nil", max=5, doc="talk at the table: the fields of `talk_policy`")  # noqa: RUF009
    seated: bool | None = wire("bool", doc="false: the host holds no seat (a shared screen that hosts)")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Join(ClientMessage):
    TYPE: ClassVar[str] = "join"
    name: str = wire("str", required=True, min=1, max=MAX_NAME_CHARS)
    code: str | None = _code_or_table()
    table: str | None = _table_or_code()
    seat: int | None = wire("int", min=0, max=MAX_SEAT, doc="default: the first free seat")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Watch(ClientMessage):
    TYPE: ClassVar[str] = "watch"
    code: str | None = _code_or_table()
    table: str | None = _table_or_code()
    since: int | None = _since()
    screen: str | None = wire("str", min=1, max=MAX_TOKEN_CHARS, doc="the table's screen token: a reserved place")
    host_token: str | None = wire("str", min=1, max=MAX_TOKEN_CHARS, doc="a host without a seat comes back")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Resume(ClientMessage):
    TYPE: ClassVar[str] = "resume"
    table: str = _table()
    token: str = wire("str", required=True, min=1, max=MAX_TOKEN_CHARS, doc="the seat token")
    since: int | None = _since()
    host_token: str | None = wire("str", min=1, max=MAX_TOKEN_CHARS, doc="regain the host's powers")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Seat(ClientMessage):
    TYPE: ClassVar[str] = "seat"
    table: str = _table()
    seat: int = wire("int", required=True, min=0, max=MAX_SEAT)
    to: str = wire("str", required=True, choices=("bot", "empty"))
    level: str | None = wire("str", min=1, max=MAX_LEVEL_CHARS, doc="bot level; default: the table's")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Sit(ClientMessage):
    TYPE: ClassVar[str] = "sit"
    table: str = _table()
    seat: int = wire("int", required=True, min=0, max=MAX_SEAT, doc="the empty seat to move to")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Start(ClientMessage):
    TYPE: ClassVar[str] = "start"
    table: str = _table()
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Act(ClientMessage):
    TYPE: ClassVar[str] = "act"
    table: str = _table()
    version: int = wire("int", required=True, min=0, max=MAX_SAFE_INT, doc="the table version the client saw")
    action: dict[str, Any] = wire(  # noqa: RUF009
        "map", required=True, max=MAX_OPTIONS, doc='the game\'s action, e.g. {"kind": "draw"}'
    )
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Rematch(ClientMessage):
    TYPE: ClassVar[str] = "rematch"
    table: str = _table()
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Leave(ClientMessage):
    TYPE: ClassVar[str] = "leave"
    table: str = _table()
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Say(ClientMessage):
    TYPE: ClassVar[str] = "say"
    table: str = _table()
    text: str = wire("str", required=True, min=1, max=MAX_CHAT_CHARS, doc="one chat line")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class React(ClientMessage):
    TYPE: ClassVar[str] = "react"
    table: str = _table()
    reaction: str = wire("str", required=True, choices=REACTIONS)
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class TalkPolicy(ClientMessage):
    TYPE: ClassVar[str] = "talk_policy"
    table: str = _table()
    chat: str | None = wire("str", choices=CHAT_MODES, doc="on: chat and reactions; reactions: those only; off: none")
    spectators: bool | None = wire("bool", doc="spectators read the chat")
    table_talk: bool | None = wire("bool", doc="lift the game's own limits on talk (a friendly table)")
    relay: bool | None = wire("bool", doc="the call goes through the TURN relay only: no peer learns an address")
    hints: bool | None = wire("bool", doc="players may ask for a suggested move (`hint`)")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Mute(ClientMessage):
    TYPE: ClassVar[str] = "mute"
    table: str = _table()
    seat: int = wire("int", required=True, min=0, max=MAX_SEAT)
    muted: bool = wire("bool", required=True)
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Call(ClientMessage):
    TYPE: ClassVar[str] = "call"
    table: str = _table()
    join: bool = wire("bool", required=True, doc="true: in the call (join, or say what changed); false: leave")
    mic: bool = wire("bool", default=False, doc="the microphone is on")
    cam: bool = wire("bool", default=False, doc="the camera is on")
    speaking: bool = wire("bool", default=False, doc="the microphone hears this person now")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Signal(ClientMessage):
    TYPE: ClassVar[str] = "signal"
    table: str = _table()
    to: int = wire("int", required=True, min=0, max=MAX_SEAT, doc="the addressee's seat")
    peer: str = wire("str", required=True, min=1, max=16, doc="the addressee's call id (`call.peers[].id`)")
    kind: str = wire("str", required=True, choices=SIGNAL_KINDS)
    sdp: list[str] | None = wire("list", doc="offer, answer: the session description, cut in strings of at most 1,000")  # noqa: RUF009
    candidates: list[Any] | None = wire("list", doc="candidates: up to 32 maps {candidate, mid, mline}")  # noqa: RUF009
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class HostTo(ClientMessage):
    TYPE: ClassVar[str] = "host_to"
    table: str = _table()
    seat: int | None = wire("int|nil", required=True, min=0, max=MAX_SEAT, doc="nil: back to the host")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Hint(ClientMessage):
    TYPE: ClassVar[str] = "hint"
    table: str = _table()
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Replay(ClientMessage):
    TYPE: ClassVar[str] = "replay"
    archive: str = wire("str", required=True, min=1, max=MAX_ID_CHARS, doc="the archive id (its replay link's)")
    seat: int | None = wire("int|nil", min=0, max=MAX_SEAT, doc="whose view (nil or absent: a spectator's)")
    open: bool = wire("bool", default=False, doc="true: every hand open (each seat's view); `seat` is then ignored")
    first: int = wire("int", default=0, min=0, max=MAX_SAFE_INT, doc="the first step wanted (0: the deal)")
    count: int = wire(
        "int",
        default=MAX_REPLAY_STEPS,
        min=1,
        max=MAX_REPLAY_STEPS,
        doc=f"steps wanted, default and most {MAX_REPLAY_STEPS}",
    )
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class DealBoard(ClientMessage):
    TYPE: ClassVar[str] = "deal_board"
    code: str = wire("str", required=True, min=1, max=MAX_CODE_CHARS, doc="a deal's short code or its deal code")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Learn(ClientMessage):
    TYPE: ClassVar[str] = "learn"
    game: str = wire("str", required=True, min=1, max=MAX_LEVEL_CHARS, doc="a game whose catalog entry has `lessons`")
    step: int = wire("int", required=True, min=0, max=MAX_LESSON_STEP, doc="the step, from 0")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class LearnTry(ClientMessage):
    TYPE: ClassVar[str] = "learn_try"
    game: str = wire("str", required=True, min=1, max=MAX_LEVEL_CHARS)
    step: int = wire("int", required=True, min=0, max=MAX_LESSON_STEP)
    action: dict[str, Any] | None = wire(  # noqa: RUF009
        "map", max=MAX_OPTIONS, doc="the learner's move, as `act` sends it; or give `card`"
    )
    card: str | None = wire("str", min=1, max=8, doc="a card of the step's hand that no legal action plays")
    id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Ping(ClientMessage):
    TYPE: ClassVar[str] = "ping"
    id: int | str | None = None


#: The dataclass of each client message type.
CLIENT_MESSAGES: Final[Mapping[str, type[ClientMessage]]] = {
    cls.TYPE: cls
    for cls in (
        Hello, Host, Join, Watch, Resume, Seat, Sit, Start, Act, Rematch, Leave, Ping,
        Say, React, TalkPolicy, Mute, Call, Signal, Hint, HostTo, Replay, DealBoard, Learn, LearnTry,
    )
}  # fmt: skip


def _fields_of(cls: type[ClientMessage]) -> tuple[Field, ...]:
    """The wire fields of a client message, from its dataclass (``id`` aside)."""
    return tuple(
        Field(f.name, **f.metadata["wire"])
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if "wire" in f.metadata
    )


#: Every client message's fields (``type`` and ``id`` are allowed on all), read from its dataclass.
CLIENT_FIELDS: Final[Mapping[str, tuple[Field, ...]]] = {kind: _fields_of(cls) for kind, cls in CLIENT_MESSAGES.items()}


def _check_id(value: Any) -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadMessage(f"field 'id' must be int or str, not {value!r}")
    if isinstance(value, str) and len(value) > MAX_ID_CHARS:
        raise BadMessage(f"field 'id' is longer than {MAX_ID_CHARS} characters")
    if isinstance(value, int) and not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
        raise BadMessage(f"field 'id' is out of range: {value!r}")
    return value


def message_id(raw: Mapping[str, Any]) -> int | str | None:
    """The request's ``id`` if it is a valid one (to echo on an error about the rest), else ``None``."""
    try:
        value = raw.get("id")
        return None if value is None else _check_id(value)
    except BadMessage:
        return None


def parse_client(raw: Mapping[str, Any]) -> ClientMessage:
    """The client message in a decoded frame; :class:`BadMessage` or :class:`UnknownType` if it is not one."""
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise BadMessage(f"a message needs a string 'type', not {kind!r}")
    fields = CLIENT_FIELDS.get(kind)
    if fields is None:
        raise UnknownType(f"unknown message type {kind!r}; known: {sorted(CLIENT_FIELDS)}")
    known = {f.name for f in fields}
    extra = set(raw) - known - {"type", "id"}
    if extra:
        raise BadMessage(f"unknown field(s) {sorted(extra)} in a {kind!r} message")
    values: dict[str, Any] = {}
    if "id" in raw:
        values["id"] = _check_id(raw["id"])
    for field in fields:
        if field.name in raw:
            values[field.name] = field.check(raw[field.name])
        elif field.required:
            raise BadMessage(f"a {kind!r} message needs field {field.name!r}")
    if kind == "learn_try" and (values.get("action") is None) == (values.get("card") is None):
        raise BadMessage("a 'learn_try' message needs exactly one of 'action' and 'card'")
    if kind in ("join", "watch") and (values.get("code") is None) == (values.get("table") is None):
        raise BadMessage(f"a {kind!r} message needs exactly one of 'code' and 'table'")
    if kind == "signal":
        _check_signal(values)
    if kind == "host" and values.get("talk") is not None:
        values["talk"] = talk_policy_from_wire(values["talk"])
    return CLIENT_MESSAGES[kind](**values)


#: the longest piece of a session description (the codec's strings hold 1,024 bytes)
SDP_PIECE_CHARS: Final = 1000
#: the most candidates one ``signal`` carries
MAX_CANDIDATES: Final = 32


def _check_signal(values: dict[str, Any]) -> None:
    """A signal's payload: exactly what its kind carries, plain strings and small ints."""
    kind = values["kind"]
    sdp, candidates = values.get("sdp"), values.get("candidates")
    if kind in ("offer", "answer"):
        if sdp is None or candidates is not None:
            raise BadMessage(f"a {kind!r} signal carries 'sdp' and no 'candidates'")
        if not sdp or not all(isinstance(p, str) and 0 < len(p) <= SDP_PIECE_CHARS for p in sdp):
            raise BadMessage(f"'sdp' must be strings of 1-{SDP_PIECE_CHARS} characters")
        return
    if candidates is None or sdp is not None:
        raise BadMessage("a 'candidates' signal carries 'candidates' and no 'sdp'")
    if not 1 <= len(candidates) <= MAX_CANDIDATES:
        raise BadMessage(f"'candidates' holds 1-{MAX_CANDIDATES} candidates")
    clean = []
    for item in candidates:
        if not isinstance(item, dict) or set(item) - {"candidate", "mid", "mline"} or "candidate" not in item:
            raise BadMessage("a candidate is a map {candidate, mid?, mline?}")
        text, mid, mline = item["candidate"], item.get("mid"), item.get("mline")
        if not isinstance(text, str) or len(text) > SDP_PIECE_CHARS:
            raise BadMessage(f"a candidate is a string of at most {SDP_PIECE_CHARS} characters")
        if mid is not None and not (isinstance(mid, str) and len(mid) <= 32):
            raise BadMessage("a candidate's 'mid' is a string of at most 32 characters, or nil")
        if mline is not None and not (isinstance(mline, int) and not isinstance(mline, bool) and 0 <= mline < 64):
            raise BadMessage("a candidate's 'mline' is an int 0-63, or nil")
        clean.append({"candidate": text, "mid": mid, "mline": mline})
    values["candidates"] = clean


def talk_policy_from_wire(data: Any) -> dict[str, Any]:
    """The talk settings of a ``host`` message's ``talk`` map, checked like ``talk_policy``'s fields."""
    if not isinstance(data, dict):
        raise BadMessage(f"field 'talk' must be a map, not {data!r}")
    fields = {f.name: f for f in CLIENT_FIELDS["talk_policy"] if f.name != "table"}
    unknown = set(data) - set(fields)
    if unknown:
        raise BadMessage(f"unknown field(s) {sorted(unknown)} in 'talk'")
    return {name: fields[name].check(value) for name, value in data.items()}


# --------------------------------------------------------------------------- server messages

#: Every server message and its fields (documentation, checked by the tests).
SERVER_FIELDS: Final[Mapping[str, tuple[Field, ...]]] = {
    "welcome": (
        Field("protocol", "int", required=True, doc="1"),
        Field("server", "str", required=True, doc='"meja/<version>"'),
        Field("limits", "map", required=True, doc="the limits a client should respect (see Settings)"),
        Field("games", "list", required=True, doc="names of the games this server hosts, the default first"),
        Field("catalog", "list", required=True, doc="each game's description, in the order of games"),
        Field("re", "int|str"),
    ),
    "joined": (
        Field("table", "str", required=True, doc="table id"),
        Field("code", "str", required=True, doc="room code"),
        Field("link", "str", required=True, doc="invite link: {public_origin}/?join=CODE"),
        Field("seat", "int|nil", required=True, doc="nil: a host without a seat"),
        Field("token", "str", doc="the seat token (only ever sent to its holder); none without a seat"),
        Field("host_token", "str", doc="only to the host, on host and resume"),
        Field("screen_token", "str", doc="only to the host: what its shared screen watches with"),
        Field("re", "int|str"),
    ),
    "state": (
        Field("table", "map", required=True, doc="the table summary (see tables.summary)"),
        Field("version", "int", required=True, doc="the table version"),
        Field("seat", "int|nil", required=True, doc="this connection's seat, nil for a spectator"),
        Field("is_host", "bool", required=True),
        Field("view", "map|nil", required=True, doc="the game's view for this seat; nil in the lobby"),
        Field("re", "int|str"),
    ),
    "update": (
        Field("table", "map", required=True),
        Field("version", "int", required=True),
        Field("since", "int", required=True, doc="the events are those of versions since+1..version"),
        Field("events", "list", required=True, doc="the events this connection may see, oldest first"),
        Field("seat", "int|nil", required=True),
        Field("is_host", "bool", required=True),
        Field("view", "map|nil", required=True),
        Field("re", "int|str"),
    ),
    "error": (
        Field("code", "str", required=True, doc="a stable code: see meja.protocol.errors"),
        Field("message", "str", required=True, doc="for people, lower case"),
        Field("re", "int|str"),
    ),
    "patch": (
        Field("table", "str", required=True, doc="table id: the table whose last table map and view it patches"),
        Field("version", "int", required=True),
        Field("since", "int", required=True, doc="as in update"),
        Field("events", "list", required=True, doc="as in update"),
        Field("seat", "int|nil", required=True),
        Field("is_host", "bool", required=True),
        Field("patch", "list", required=True, doc="operations on {table, view} as last sent (PROTOCOL.md 7.5)"),
        Field("re", "int|str"),
    ),
    "pong": (Field("re", "int|str"),),
    "talk": (
        Field("table", "str", required=True),
        Field("lines", "list", required=True, doc="chat lines and reactions, oldest first (section 16)"),
        Field("history", "bool", doc="true: lines said before this connection came (some may come again live)"),
        Field("re", "int|str"),
    ),
    "call": (
        Field("table", "str", required=True),
        Field("peers", "list", required=True, doc="who is in the call: {seat, id, mic, cam, speaking}"),
        Field("video_max", "int", required=True, doc="the most people in a call who send video"),
        Field("re", "int|str"),
    ),
    "ice": (
        Field("table", "str", required=True),
        Field("id", "str", required=True, doc="this connection's call id"),
        Field("servers", "list", required=True, doc="RTCIceServer maps: urls, and username and credential"),
        Field("relay", "bool", required=True, doc="use relayed candidates only"),
        Field("re", "int|str"),
    ),
    "hint": (
        Field("table", "str", required=True),
        Field("version", "int", required=True, doc="the table version the suggestion is for"),
        Field("action", "map", required=True, doc="one of the seat's legal actions (its view's `legal`)"),
        Field("why", "map", doc="the bot's reason, as data the client words (section 16.1); absent: none"),
        Field("re", "int|str"),
    ),
    "replay": (
        Field("archive", "str", required=True, doc="the archive id asked for"),
        Field(
            "match",
            "map",
            required=True,
            doc="game, preset, options, teams, seats, rounds, outcome, ended, steps, moves, check",
        ),
        Field("seat", "int|nil", required=True, doc="whose view the steps show (nil: a spectator's)"),
        Field("open", "bool", required=True, doc="true: every hand open (`views`, one per seat)"),
        Field("steps", "list", required=True, doc="{n, events, view | views; seat, action, timeout from step 1}"),
        Field("re", "int|str"),
    ),
    "deal_board": (
        Field("code", "str", required=True, doc="the deal's short code on this server"),
        Field("deal_code", "str", required=True, doc="the deal's portable deal code"),
        Field("game", "str", required=True),
        Field("plays", "list", required=True, doc="newest first: {at, preset, lower_wins, seats}"),
        Field("re", "int|str"),
    ),
    "learn": (
        Field("game", "str", required=True),
        Field("step", "int", required=True, doc="this step, from 0"),
        Field("steps", "int", required=True, doc="how many steps the game's guide has"),
        Field("seat", "int", required=True, doc="the learner's seat in the position"),
        Field("table", "map", required=True, doc="a table map for the position: game, preset, options, seats, teams"),
        Field("view", "map", required=True, doc="the learner's seat view, as a table frame carries it"),
        Field("ask", "str", required=True, doc="the key of the question in the game's page strings"),
        Field("re", "int|str"),
    ),
    "learn_try": (
        Field("game", "str", required=True),
        Field("step", "int", required=True),
        Field("right", "bool", required=True, doc="the move is what the step asks for"),
        Field("why", "str", required=True, doc="the key of the reason in the game's (or the shell's) page strings"),
        Field("view", "map|nil", required=True, doc="the learner's view after the move; nil: the rules refuse it"),
        Field("events", "list", required=True, doc="the events of the move the learner's seat may see (as `update`)"),
        Field("re", "int|str"),
    ),
    "signal": (
        Field("table", "str", required=True),
        Field("from", "int", required=True, doc="the sender's seat"),
        Field("peer", "str", required=True, doc="the sender's call id"),
        Field("kind", "str", required=True),
        Field("sdp", "list"),
        Field("candidates", "list"),
    ),
}


def _with_re(message: dict[str, Any], re: int | str | None) -> dict[str, Any]:
    if re is not None:
        message["re"] = re
    return message


def welcome(
    *,
    server: str,
    limits: Mapping[str, Any],
    catalog: Sequence[Mapping[str, Any]],
    re: int | str | None = None,
) -> dict[str, Any]:
    """``games`` lists the names of ``catalog`` (the games' descriptions), in order."""
    return _with_re(
        {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "server": server,
            "limits": dict(limits),
            "games": [g["name"] for g in catalog],
            "catalog": [dict(g) for g in catalog],
        },
        re,
    )


def joined(
    *,
    table: str,
    code: str,
    link: str,
    seat: int | None,
    token: str | None,
    host_token: str | None = None,
    screen_token: str | None = None,
    re: int | str | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "joined", "table": table, "code": code, "link": link, "seat": seat}
    if token is not None:
        out["token"] = token
    if host_token is not None:
        out["host_token"] = host_token
    if screen_token is not None:
        out["screen_token"] = screen_token
    return _with_re(out, re)


def state(
    *,
    table: Mapping[str, Any],
    version: int,
    seat: int | None,
    is_host: bool,
    view: Mapping[str, Any] | None,
    re: int | str | None = None,
) -> dict[str, Any]:
    return _with_re(
        {"type": "state", "table": table, "version": version, "seat": seat, "is_host": is_host, "view": view},
        re,
    )


def update(
    *,
    table: Mapping[str, Any],
    version: int,
    since: int,
    events: Sequence[Mapping[str, Any]],
    seat: int | None,
    is_host: bool,
    view: Mapping[str, Any] | None,
    re: int | str | None = None,
) -> dict[str, Any]:
    return _with_re(
        {
            "type": "update",
            "table": table,
            "version": version,
            "since": since,
            "events": list(events),
            "seat": seat,
            "is_host": is_host,
            "view": view,
        },
        re,
    )


def patch(
    *,
    table: str,
    version: int,
    since: int,
    events: Sequence[Mapping[str, Any]],
    seat: int | None,
    is_host: bool,
    ops: Sequence[Any],
    re: int | str | None = None,
) -> dict[str, Any]:
    """An ``update`` in the patch form (asked for with ``hello.diffs``): ``ops`` turn the
    ``{"table": ..., "view": ...}`` this connection was last sent into the new one."""
    message = update(table={}, version=version, since=since, events=events, seat=seat, is_host=is_host, view=None)
    del message["view"]
    message.update(type="patch", table=table, patch=list(ops))
    return _with_re(message, re)


#: the longest ``message`` of an ``error``: one that quotes a bad value cuts it short, so that an
#: answer is never larger than the question (a hostile player got 128 KB back for 32 KB: a list of
#: control characters quoted four characters each)
ERROR_MESSAGE_MAX = 400


def error(code: str, message: str, re: int | str | None = None) -> dict[str, Any]:
    if len(message) > ERROR_MESSAGE_MAX:
        message = message[: ERROR_MESSAGE_MAX - 1] + "\u2026"
    return _with_re({"type": "error", "code": code, "message": message}, re)


def pong(re: int | str | None = None) -> dict[str, Any]:
    return _with_re({"type": "pong"}, re)


def talk(
    *, table: str, lines: Sequence[Mapping[str, Any]], history: bool = False, re: int | str | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "talk", "table": table, "lines": [dict(line) for line in lines]}
    if history:
        out["history"] = True
    return _with_re(out, re)


def call(*, table: str, peers: Sequence[Mapping[str, Any]], re: int | str | None = None) -> dict[str, Any]:
    return _with_re({"type": "call", "table": table, "peers": [dict(p) for p in peers], "video_max": CALL_MAX}, re)


def ice(
    *, table: str, id: str, servers: Sequence[Mapping[str, Any]], relay: bool, re: int | str | None = None
) -> dict[str, Any]:
    return _with_re(
        {"type": "ice", "table": table, "id": id, "servers": [dict(s) for s in servers], "relay": relay}, re
    )


def hint(
    *,
    table: str,
    version: int,
    action: Mapping[str, Any],
    why: Mapping[str, Any] | None = None,
    re: int | str | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "hint", "table": table, "version": version, "action": dict(action)}
    if why is not None:
        out["why"] = dict(why)
    return _with_re(out, re)


def replay(
    *,
    archive: str,
    match: Mapping[str, Any],
    seat: int | None,
    open: bool,
    steps: Sequence[Mapping[str, Any]],
    re: int | str | None = None,
) -> dict[str, Any]:
    """An archived match (PROTOCOL.md 18): its public record, and a range of its steps."""
    return _with_re(
        {"type": "replay", "archive": archive, "match": dict(match), "seat": seat, "open": open, "steps": list(steps)},
        re,
    )


def deal_board(
    *, code: str, deal_code: str, game: str, plays: Sequence[Mapping[str, Any]], re: int | str | None = None
) -> dict[str, Any]:
    """A deal's board (PROTOCOL.md 19): the finished rounds played from it on this server, newest first."""
    return _with_re(
        {"type": "deal_board", "code": code, "deal_code": deal_code, "game": game, "plays": [dict(p) for p in plays]},
        re,
    )


def learn(
    *,
    game: str,
    step: int,
    steps: int,
    seat: int,
    table: Mapping[str, Any],
    view: Mapping[str, Any],
    ask: str,
    re: int | str | None = None,
) -> dict[str, Any]:
    out = {"type": "learn", "game": game, "step": step, "steps": steps, "seat": seat}
    out.update(table=dict(table), view=dict(view), ask=ask)
    return _with_re(out, re)


def learn_try(
    *,
    game: str,
    step: int,
    right: bool,
    why: str,
    view: Mapping[str, Any] | None,
    events: Sequence[Mapping[str, Any]] = (),
    re: int | str | None = None,
) -> dict[str, Any]:
    out = {"type": "learn_try", "game": game, "step": step, "right": right, "why": why}
    out.update(view=None if view is None else dict(view), events=[dict(e) for e in events])
    return _with_re(out, re)


def signal(
    *,
    table: str,
    sender: int,
    peer: str,
    kind: str,
    sdp: Sequence[str] | None = None,
    candidates: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "signal", "table": table, "from": sender, "peer": peer, "kind": kind}
    if sdp is not None:
        out["sdp"] = list(sdp)
    if candidates is not None:
        out["candidates"] = [dict(c) for c in candidates]
    return out
