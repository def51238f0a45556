"""The strict msgpack codec: one binary frame holds one msgpack map.

Decoding is the first door for untrusted bytes, so it refuses anything outside
a small, plain subset of msgpack before a single field is looked at:

- **binary frames only**: a text frame is malformed;
- **limits before allocation**: ``msgpack.unpackb`` is given ``max_str_len``,
  ``max_array_len`` and ``max_map_len``, so a header that announces four billion
  elements in a ten-byte frame is refused when it is read, not after memory is
  reserved for it; ``max_bin_len`` and ``max_ext_len`` are 0;
- **no extension types** at all (the timestamp extension included): the
  ``ext_hook`` refuses even zero-length ones;
- **plain data only**: nil, bool, int, float, str, array, map. Binary strings are
  refused (the protocol has none), map keys must be ``str`` (``strict_map_key``
  plus a check, since msgpack would also allow bytes keys), and a map may not
  repeat a key (msgpack would silently keep the last one);
- **depth**: nesting deeper than ``max_depth`` is refused. msgpack's own parser
  stops at a fixed stack depth (so a nesting bomb cannot exhaust the C stack); the
  check here keeps the messages themselves shallow;
- exactly one object per frame (trailing bytes are malformed), and the object
  must be a map.

Every refusal raises :class:`~meja.protocol.errors.MalformedFrame`; the server
closes the connection with 4000. Whether the map is a *valid message* is the
next door: :func:`meja.protocol.messages.parse_client`.

Encoding uses ``use_bin_type=True`` (str stays str) and no ``default`` hook, so
msgpack itself refuses any Python object that is not plain data (a set, a
dataclass) with ``TypeError``: a server bug cannot put an object on the wire.
:func:`check_encodable` is the stricter, slower walk (no bytes, string keys only)
that the tests run over what the server sends; it is not on the hot path (it costs
about ten times the encoding itself).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

from .errors import MalformedFrame

__all__ = ["DEFAULT_LIMITS", "CodecLimits", "check_encodable", "decode", "encode"]


@dataclass(frozen=True, slots=True)
class CodecLimits:
    """Limits on what a client frame may contain. Server settings can tighten them."""

    #: largest frame, bytes (the websockets layer enforces it first and closes with 1009)
    max_frame_bytes: int = 32 * 1024
    #: longest string (a map key or a value), bytes of UTF-8
    max_str_len: int = 1024
    #: most elements of one array
    max_array_len: int = 256
    #: most entries of one map
    max_map_len: int = 64
    #: deepest nesting of arrays and maps; the top-level map is depth 1
    max_depth: int = 8


DEFAULT_LIMITS: Final = CodecLimits()


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"extension type {code} is not allowed")


def _map_without_duplicates(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a map repeats a key")
    return out


def _check_plain(obj: Any, max_depth: int) -> None:
    """Refuse non-plain values, non-str keys and nesting deeper than ``max_depth`` (iteratively)."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth > max_depth:
                raise MalformedFrame(f"nesting deeper than {max_depth}")
            for key, item in value.items():
                if not isinstance(key, str):
                    raise MalformedFrame(f"map keys must be strings, not {type(key).__name__}")
                if isinstance(item, dict | list):
                    stack.append((item, depth + 1))
                elif not _is_scalar(item):
                    raise MalformedFrame(f"value of type {type(item).__name__} is not allowed")
        elif isinstance(value, list):
            if depth > max_depth:
                raise MalformedFrame(f"nesting deeper than {max_depth}")
            for item in value:
                if isinstance(item, dict | list):
                    stack.append((item, depth + 1))
                elif not _is_scalar(item):
                    raise MalformedFrame(f"value of type {type(item).__name__} is not allowed")
        elif not _is_scalar(value):
            raise MalformedFrame(f"value of type {type(value).__name__} is not allowed")


def _is_scalar(value: Any) -> bool:
    return value is None or type(value) in (bool, int, float, str)


def decode(frame: bytes | bytearray | memoryview | str, limits: CodecLimits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The map in one client frame, or :class:`MalformedFrame` saying why not."""
    if isinstance(frame, str):
        raise MalformedFrame("text frames are not allowed: send one binary msgpack frame")
    data = bytes(frame)
    if len(data) > limits.max_frame_bytes:
        raise MalformedFrame(f"frame of {len(data)} bytes is over the {limits.max_frame_bytes}-byte limit")
    if not data:
        raise MalformedFrame("empty frame")
    try:
        obj = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            object_pairs_hook=_map_without_duplicates,
            ext_hook=_refuse_ext,
            max_str_len=limits.max_str_len,
            max_bin_len=0,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
            max_ext_len=0,
        )
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        # msgpack's StackError, FormatError, ExtraData and UnicodeDecodeError are ValueErrors.
        reason = str(exc) or type(exc).__name__
        raise MalformedFrame(f"not a valid msgpack frame: {reason}") from None
    if not isinstance(obj, dict):
        raise MalformedFrame(f"a frame must hold a map, not {type(obj).__name__}")
    _check_plain(obj, limits.max_depth)
    return obj


def check_encodable(obj: Any) -> None:
    """Raise ``TypeError`` unless ``obj`` is plain protocol data: maps with string keys, lists,
    nil, bool, int, float, str (no bytes)."""
    stack: list[Any] = [obj]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise TypeError(f"map key {key!r} is not a string")
                stack.append(item)
        elif isinstance(value, list | tuple):
            stack.extend(value)
        elif not _is_scalar(value):
            raise TypeError(f"cannot send a {type(value).__name__} on the wire: {value!r}")


def encode(message: Mapping[str, Any]) -> bytes:
    """One server message as the bytes of one binary frame (``TypeError`` for a non-plain value)."""
    packed: bytes = msgpack.packb(message, use_bin_type=True)
    return packed
