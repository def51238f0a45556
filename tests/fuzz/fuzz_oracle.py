"""What PROTOCOL.md says must happen to a client frame: an oracle written from the document alone.

It imports nothing of the server, so the fuzzers compare the server with the
document, not with itself:

- :func:`read_frame` is a reference reader of section 2 (encoding): one msgpack
  value, a map, nothing after it; nil, bool, int, float, str (UTF-8), array and
  map only (no ``bin``, no extension types); string keys, no repeated key;
  strings at most 1024 bytes, arrays 256 items, maps 64 entries, nesting 8
  levels with the top map at level 1; the whole frame at most 32 KiB. Lengths
  are checked as they are read, before anything is built. A frame over the size
  limit is closed with 1009, any other break of these rules with 4000.
- :func:`expect_message` reads section 5 (client messages) and section 11 (the
  protocol's fixed limits) for a well-formed map: ``protocol/unknown_type``,
  ``protocol/bad_message``, or a message that must be *served*: answered with
  its reply or an error of the request's own (never a ``protocol/`` code,
  never ``internal``, never a close, except ``hello`` with another protocol
  version: ``protocol/version`` and close 4003). Where the document leaves a
  bound open (how many seats ``host`` may ask for, whether a negative
  ``since`` is a bad message or a request error, how long an unbounded string
  may be) the oracle says *either*: refused with
  ``protocol/bad_message`` or served, but still never ``internal`` and never
  a close.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Any, Final

MAX_FRAME: Final = 32 * 1024
MAX_STR: Final = 1024
MAX_ARRAY: Final = 256
MAX_MAP: Final = 64
MAX_DEPTH: Final = 8
SAFE_INT: Final = 2**53
TABLE_ID: Final = re.compile(r"[0-9a-f]{32}")


class Malformed(Exception):
    """The frame breaks section 2."""


@dataclass(frozen=True)
class Frame:
    """What section 2 says of a frame: ``close`` 1009 or 4000, or the map it holds."""

    close: int | None
    value: dict[str, Any] | None = None
    reason: str = ""


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n > len(self.data) - self.pos:
            raise Malformed(f"{n} bytes announced, {len(self.data) - self.pos} left")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def uint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def value(self, depth: int) -> Any:
        b = self.take(1)[0]
        if b <= 0x7F:
            return b
        if b >= 0xE0:
            return b - 0x100
        if 0x80 <= b <= 0x8F:
            return self.map(b & 0x0F, depth)
        if 0x90 <= b <= 0x9F:
            return self.array(b & 0x0F, depth)
        if 0xA0 <= b <= 0xBF:
            return self.str(b & 0x1F)
        if b == 0xC0:
            return None
        if b == 0xC2:
            return False
        if b == 0xC3:
            return True
        if b in (0xC4, 0xC5, 0xC6):
            raise Malformed("bin is not allowed")
        if b in (0xC7, 0xC8, 0xC9) or 0xD4 <= b <= 0xD8:
            raise Malformed("extension types are not allowed")
        if b == 0xCA:
            return struct.unpack(">f", self.take(4))[0]
        if b == 0xCB:
            return struct.unpack(">d", self.take(8))[0]
        if 0xCC <= b <= 0xCF:
            return self.uint(1 << (b - 0xCC))
        if 0xD0 <= b <= 0xD3:
            n = 1 << (b - 0xD0)
            return int.from_bytes(self.take(n), "big", signed=True)
        if b == 0xD9:
            return self.str(self.uint(1))
        if b == 0xDA:
            return self.str(self.uint(2))
        if b == 0xDB:
            return self.str(self.uint(4))
        if b == 0xDC:
            return self.array(self.uint(2), depth)
        if b == 0xDD:
            return self.array(self.uint(4), depth)
        if b == 0xDE:
            return self.map(self.uint(2), depth)
        if b == 0xDF:
            return self.map(self.uint(4), depth)
        raise Malformed(f"0x{b:02x} is never used")

    def str(self, n: int) -> str:
        if n > MAX_STR:
            raise Malformed(f"a string of {n} bytes")
        try:
            return self.take(n).decode("utf-8")
        except UnicodeDecodeError:
            raise Malformed("a string that is not UTF-8") from None

    def array(self, n: int, depth: int) -> list[Any]:
        if n > MAX_ARRAY:
            raise Malformed(f"an array of {n} items")
        if depth + 1 > MAX_DEPTH:
            raise Malformed("nested too deep")
        return [self.value(depth + 1) for _ in range(n)]

    def map(self, n: int, depth: int) -> dict[str, Any]:
        if n > MAX_MAP:
            raise Malformed(f"a map of {n} entries")
        if depth + 1 > MAX_DEPTH:
            raise Malformed("nested too deep")
        out: dict[str, Any] = {}
        for _ in range(n):
            key = self.value(depth + 1)
            if not isinstance(key, str):
                raise Malformed("a map key that is not a string")
            if key in out:
                raise Malformed(f"repeated key {key!r}")
            out[key] = self.value(depth + 1)
        return out


def read_frame(frame: bytes | str) -> Frame:
    """Section 2 applied to one frame (a ``str`` is a text frame)."""
    if isinstance(frame, str):
        return Frame(4000, reason="a text frame")
    if len(frame) > MAX_FRAME:
        return Frame(1009, reason=f"{len(frame)} bytes")
    reader = _Reader(frame)
    try:
        if not frame:
            raise Malformed("empty")
        value = reader.value(0)
        if reader.pos != len(frame):
            raise Malformed("bytes after the value")
        if not isinstance(value, dict):
            raise Malformed(f"a {type(value).__name__}, not a map")
    except Malformed as exc:
        return Frame(4000, reason=str(exc))
    return Frame(None, value)


# --------------------------------------------------------------------------- messages

#: The outcomes a frame may have; :func:`expect_message` says which are allowed.
BAD: Final = "bad"  # an error protocol/bad_message; the connection stays open
UNKNOWN: Final = "unknown"  # an error protocol/unknown_type; open
SERVED: Final = "served"  # a reply or a request's own error (never protocol/*, never internal); open
REFUSED: Final = "refused"  # some error other than internal; open
VERSION: Final = "version"  # hello with another protocol: protocol/version, then close 4003


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _str_len(v: str, limit: int) -> str:
    """``"ok"`` or ``"over"``: section 11 counts names, ids and tokens in characters; so do we for all."""
    return "ok" if len(v) <= limit else "over"


@dataclass(frozen=True)
class F:
    """A field of section 5: its kind and the bounds the document states."""

    kind: str  # "int", "str", "map", "intnil", "mapnil", "to", "table" (a table id)
    required: bool = False
    max_len: int | None = None  # str: the stated maximum; map: entries
    min_len: int | None = None  # str: the stated minimum
    stated_range: tuple[int, int] | None = None  # int: bounds the protocol fixes
    server_bound: bool = False  # int: the server chooses the bounds (its settings): any value may be refused
    sane_max: int | None = None  # int: past this a server may refuse the value as a bad message


SEAT_RANGE: Final = (0, 15)  # section 11: seats 0-15
SCHEMA: Final[dict[str, dict[str, F]]] = {
    # A server may bound the version numbers it reads (meja: 0..2^31-1): past that, bad_message or version.
    "hello": {"protocol": F("int", required=True, sane_max=2**31 - 1), "client": F("str", max_len=64)},
    "host": {
        "name": F("str", required=True, min_len=1, max_len=24),
        "game": F("str"),
        "options": F("mapnil", max_len=16),
        "seats": F("int", server_bound=True),
        "bots": F("str"),
        "deal_code": F("str", max_len=48),
        "grace_s": F("int", server_bound=True),
        "turn_limit_s": F("intnil", server_bound=True),
    },
    "join": {"code": F("str", max_len=48), "table": F("table"),
             "name": F("str", required=True, min_len=1, max_len=24), "seat": F("int", stated_range=SEAT_RANGE)},
    "watch": {"code": F("str", max_len=48), "table": F("table"), "since": F("int")},
    "resume": {"table": F("table", required=True), "token": F("str", required=True, max_len=64),
               "since": F("int"), "host_token": F("str", max_len=64)},
    "seat": {"table": F("table", required=True), "seat": F("int", required=True, stated_range=SEAT_RANGE),
             "to": F("to", required=True), "level": F("str")},
    "sit": {"table": F("table", required=True), "seat": F("int", required=True, stated_range=SEAT_RANGE)},
    "start": {"table": F("table", required=True)},
    "act": {"table": F("table", required=True), "version": F("int", required=True),
            "action": F("map", required=True, max_len=16)},
    "rematch": {"table": F("table", required=True)},
    "leave": {"table": F("table", required=True)},
    "ping": {},
}


def _check(field: F, value: Any) -> str:
    """``"ok"``, ``"bad"`` or ``"unclear"`` for one field value."""
    kind = field.kind
    if value is None:
        return "ok" if kind in ("intnil", "mapnil") else "bad"
    if kind in ("int", "intnil"):
        if not _is_int(value):
            return "bad"
        if field.stated_range is not None:
            low, high = field.stated_range
            return "ok" if low <= value <= high else "bad"
        if field.sane_max is not None and value > field.sane_max:
            return "unclear"
        if abs(value) >= SAFE_INT or value < 0 or field.server_bound:
            return "unclear"  # section 2: ints fit 53 bits; negative counts are not discussed
        return "ok"
    if kind in ("map", "mapnil"):
        if not isinstance(value, dict):
            return "bad"
        return "bad" if field.max_len is not None and len(value) > field.max_len else "ok"
    if kind == "to":
        return "ok" if value in ("bot", "empty") else "bad"
    if kind == "table":  # section 4: exactly 32 lowercase hex characters
        return "ok" if isinstance(value, str) and TABLE_ID.fullmatch(value) else "bad"
    if not isinstance(value, str):
        return "bad"
    verdict = "ok"
    if field.max_len is not None:
        length = _str_len(value, field.max_len)
        if length == "over":
            return "bad"
        if length == "unclear":
            verdict = "unclear"
    elif len(value.encode("utf-8", "surrogatepass")) > 32:
        verdict = "unclear"  # no stated bound: a server may set one
    if not value:
        verdict = "bad" if field.min_len else "unclear"  # an empty id or token: the document is silent
    return verdict


def expect_message(message: dict[str, Any]) -> frozenset[str]:
    """The outcomes section 5 allows for a well-formed map (see the module docstring)."""
    kind = message.get("type")
    if not isinstance(kind, str):
        return frozenset({BAD})
    schema = SCHEMA.get(kind)
    if schema is None:
        return frozenset({UNKNOWN})
    verdicts: list[str] = []
    for name, value in message.items():
        if name == "type":
            continue
        if name == "id":
            if _is_int(value):
                verdicts.append("ok" if abs(value) < SAFE_INT else "bad")
            elif isinstance(value, str):
                length = _str_len(value, 64)
                verdicts.append("bad" if length == "over" else "unclear" if length == "unclear" else "ok")
            else:
                verdicts.append("bad")
            continue
        field = schema.get(name)
        if field is None:
            return frozenset({BAD})  # an unknown field
        verdicts.append(_check(field, value))
    for name, field in schema.items():
        if field.required and name not in message:
            return frozenset({BAD})
    if kind in ("join", "watch") and (("code" in message) == ("table" in message)):
        return frozenset({BAD})  # exactly one of code and table
    if "bad" in verdicts:
        return frozenset({BAD})
    allowed = {SERVED}
    if kind == "hello" and message.get("protocol") != 1:
        allowed = {VERSION}
    if "unclear" in verdicts:
        allowed.add(BAD)
    name = message.get("name")
    if kind in ("host", "join") and isinstance(name, str):
        if not name.strip():
            return frozenset({BAD, REFUSED})  # a name may not be empty after trimming (code not stated)
        if _odd_text(name) or not name.isascii():
            # control or unassigned characters (the code is not stated); and section 5's rules for
            # names beyond ASCII (NFKC, invisible characters, combining marks): not modelled here
            allowed |= {BAD, REFUSED}
    return frozenset(allowed)


def _odd_text(text: str) -> bool:
    import unicodedata

    return any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in text)


def message_id(message: dict[str, Any]) -> int | str | None:
    """The request's ``id`` if it is valid (then every reply carries it as ``re``)."""
    value = message.get("id")
    if _is_int(value) and abs(value) < SAFE_INT:
        return value
    if isinstance(value, str) and _str_len(value, 64) == "ok":
        return value
    return None

