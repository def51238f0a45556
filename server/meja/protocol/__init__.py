"""The wire protocol, sans I/O: messages, the strict msgpack codec, and the error codes.

Nothing here touches a socket or an event loop (after python-websockets'
``protocol.py`` and h11): the server feeds bytes in and gets messages out, and
the tests exercise every rule without a network. PROTOCOL.md is the normative
text; :mod:`.messages` lists every message with its fields and limits,
:mod:`.errors` every error code and close code, :mod:`.codec` what a frame may be.
"""

from .codec import DEFAULT_LIMITS, CodecLimits, decode, encode
from .errors import (
    ERROR_CODES,
    BadMessage,
    CloseCode,
    MalformedFrame,
    MejaError,
    ProtocolError,
    UnknownType,
    wire_error,
)
from .messages import (
    CLIENT_FIELDS,
    PROTOCOL_VERSION,
    SERVER_FIELDS,
    ClientMessage,
    parse_client,
)

__all__ = [
    "CLIENT_FIELDS",
    "DEFAULT_LIMITS",
    "ERROR_CODES",
    "PROTOCOL_VERSION",
    "SERVER_FIELDS",
    "BadMessage",
    "ClientMessage",
    "CloseCode",
    "CodecLimits",
    "MalformedFrame",
    "MejaError",
    "ProtocolError",
    "UnknownType",
    "decode",
    "encode",
    "parse_client",
    "wire_error",
]
