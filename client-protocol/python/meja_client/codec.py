"""The client side of the wire format: one msgpack map per binary frame (PROTOCOL.md section 1).

Encoding is plain ``msgpack.packb(value, use_bin_type=True)``: the smallest
encoding of each value, map keys in insertion order. The server's encoder does
the same, so a decoded frame re-encodes to the same bytes (the golden fixtures
check it).

Decoding is strict in the same ways the server is (PROTOCOL.md section 6): map
keys must be strings, no extension types, no raw bytes-as-strings, bounded
lengths. A client uses it on what the server sends; a test uses it to read the
golden frames. It imports nothing from the server.
"""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]

__all__ = ["MAX_FRAME", "DecodeError", "decode", "encode"]

#: The default frame size limit (PROTOCOL.md section 6), bytes.
MAX_FRAME = 32 * 1024


class DecodeError(ValueError):
    """A frame that is not one msgpack map with a string ``type``."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as a frame's bytes."""
    data: bytes = msgpack.packb(message, use_bin_type=True)
    return data


def _no_ext(code: int, data: bytes) -> Any:
    raise DecodeError(f"msgpack extension type {code!r} is not allowed")


def decode(frame: bytes, *, max_len: int = MAX_FRAME) -> dict[str, Any]:
    """A frame's message; :class:`DecodeError` unless it is one map with a string ``type``.

    ``max_len`` bounds every string, bin, array and map length (a frame can
    never hold more elements than bytes), so a tiny frame cannot announce a
    huge container.
    """
    if not isinstance(frame, (bytes, bytearray, memoryview)):
        raise DecodeError(f"a frame is binary, not {type(frame).__name__}")
    try:
        value = msgpack.unpackb(
            bytes(frame),
            raw=False,
            strict_map_key=True,
            use_list=True,
            ext_hook=_no_ext,
            max_str_len=max_len,
            max_bin_len=max_len,
            max_array_len=max_len,
            max_map_len=max_len,
            max_ext_len=0,
        )
    except DecodeError:
        raise
    except Exception as exc:  # msgpack raises several unrelated types
        raise DecodeError(f"not one msgpack value: {exc}") from None
    if not isinstance(value, dict):
        raise DecodeError(f"a message is a map, not {type(value).__name__}")
    if not isinstance(value.get("type"), str):
        raise DecodeError(f"a message needs a string 'type', not {value.get('type')!r}")
    return value
