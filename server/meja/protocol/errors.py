"""Every error the wire protocol reports, with its stable code, and the close codes.

Two ways to refuse a client, after ``src/websockets/exceptions.py`` and h11's
``LocalProtocolError``/``RemoteProtocolError`` split:

- an **error reply** (``{"type": "error", "code": ..., "message": ..., "re": ...}``):
  the request is refused, nothing changed, and the connection stays open;
- a **close code**: the connection itself is unusable (a frame that does not
  decode, a flood, a replaced seat) and the server closes it.

The tree (``code`` is what goes on the wire; it never changes within protocol 1)::

    MejaError (Exception)
    ├── ProtocolError                          what arrived is not a valid message
    │   ├── MalformedFrame                     close 4000 (not msgpack, not a map, text, a bomb)
    │   ├── BadMessage                         protocol/bad_message
    │   ├── UnknownType                        protocol/unknown_type
    │   ├── RateLimited                        protocol/rate_limited
    │   └── UnsupportedVersion                 protocol/version, then close 4003
    ├── AuthError
    │   ├── BadToken                           auth/bad_token
    │   ├── NotHost                            auth/not_host
    │   └── NotSeated                          auth/not_seated
    ├── TableError
    │   ├── TableNotFound                      table/not_found
    │   ├── CodeRateLimited                    table/code_rate_limited
    │   ├── TableFull                          table/full
    │   ├── BadTableOptions                    table/bad_options
    │   ├── NotLobby                           table/not_lobby
    │   ├── NotPlaying                         table/not_playing
    │   ├── NotFinished                        table/not_finished (a rematch before the match ends)
    │   └── LimitExceeded                      limit/exceeded   (addition to the draft)
    ├── SeatError
    │   ├── SeatTaken                          seat/taken
    │   ├── BadSeat                            seat/bad_seat
    │   ├── NameTaken                          name/taken       (addition)
    │   │   └── NameReserved                   name/reserved    (addition)
    │   └── Kicked                             seat/kicked      (addition)
    ├── TalkError                              talk at the table (section 16 of PROTOCOL.md)
    │   ├── TalkOff                            talk/off         (the host turned it off)
    │   ├── TalkRestricted                     talk/restricted  (the game's rules, now)
    │   ├── Muted                              talk/muted       (the host muted this seat)
    │   ├── BadText                            talk/bad_text    (too long, blank, invisible)
    │   └── NotInCall                          call/not_in_call (sender or addressee)
    ├── HintsOff                               hint/off         (the host turned hints off)
    ├── ArchiveNotFound                        archive/not_found (no such finished match, or malformed id)
    ├── DealNotFound                           deal/not_found (no finished round of that deal here)
    ├── StaleVersion                           action/stale_version
    ├── ServerFull                             server/full   (the store is nearly full: no new tables)
    └── InternalError                          internal

The rules' own errors (:mod:`meja.rules.errors`: ``action/illegal``,
``action/not_your_turn``, ``action/round_over``, ``action/bad_action``,
``table/bad_options``, ``seat/bad_seat``, ``deal/bad_code``) are not wrapped:
:func:`wire_error` passes their ``.code`` through unchanged, so one code means
the same thing whichever layer noticed the problem.

Messages are lower case and show the bad value with ``!r``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar, Final

from meja.rules.errors import RulesError

__all__ = [
    "ERROR_CODES",
    "ArchiveNotFound",
    "AuthError",
    "BadMessage",
    "BadSeat",
    "BadTableOptions",
    "BadText",
    "BadToken",
    "CloseCode",
    "CodeRateLimited",
    "DealNotFound",
    "HintsOff",
    "InternalError",
    "Kicked",
    "LimitExceeded",
    "MalformedFrame",
    "MejaError",
    "Muted",
    "NameReserved",
    "NameTaken",
    "NotFinished",
    "NotHost",
    "NotInCall",
    "NotLobby",
    "NotPlaying",
    "NotSeated",
    "ProtocolError",
    "RateLimited",
    "SeatError",
    "SeatTaken",
    "ServerFull",
    "StaleVersion",
    "TableError",
    "TableFull",
    "TableNotFound",
    "TalkError",
    "TalkOff",
    "TalkRestricted",
    "UnknownType",
    "UnsupportedVersion",
    "wire_error",
]


class CloseCode(IntEnum):
    """WebSocket close codes the server uses (RFC 6455 codes and the 4000 range of this protocol)."""

    #: the server is shutting down: reconnect, possibly to another process, and resume
    GOING_AWAY = 1001
    #: a frame over the size limit (sent by the websockets library itself)
    MESSAGE_TOO_BIG = 1009
    #: a bug in the server while handling this connection
    INTERNAL_ERROR = 1011
    #: a malformed frame: a text frame, not msgpack, not a map, over a nesting or length limit
    MALFORMED = 4000
    #: the seat was opened by another connection (a newer ``resume`` with the same token)
    REPLACED = 4001
    #: the message rate limit was exceeded for too long
    RATE_LIMITED = 4002
    #: the client asked for a protocol version this server does not speak
    UNSUPPORTED_VERSION = 4003
    #: the client does not read its messages fast enough (addition to the draft)
    TOO_SLOW = 4004


class MejaError(Exception):
    """Base class of every refusal the server reports on the wire.

    ``code`` is the stable wire code; ``close`` is the close code that follows
    the error reply, or ``None`` when the connection stays open.
    """

    code: ClassVar[str] = "internal"
    close: ClassVar[CloseCode | None] = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ProtocolError(MejaError):
    """What arrived is not a valid message of this protocol."""

    code = "protocol/bad_message"


class MalformedFrame(ProtocolError):
    """The frame cannot be read at all. No error reply: the connection is closed with 4000."""

    code = "protocol/malformed"
    close = CloseCode.MALFORMED


class BadMessage(ProtocolError):
    """A field is missing, of the wrong type, out of range, or unknown."""

    code = "protocol/bad_message"


class UnknownType(ProtocolError):
    """``type`` names no message of this protocol."""

    code = "protocol/unknown_type"


class RateLimited(ProtocolError):
    """Too many messages: this one was dropped."""

    code = "protocol/rate_limited"


class UnsupportedVersion(ProtocolError):
    """The client's ``hello`` asks for a protocol version this server does not speak."""

    code = "protocol/version"
    close = CloseCode.UNSUPPORTED_VERSION


class AuthError(MejaError):
    """The connection may not do this."""

    code = "auth/bad_token"


class BadToken(AuthError):
    """The seat or host token is wrong, or no longer valid (the seat was freed)."""

    code = "auth/bad_token"


class NotHost(AuthError):
    """Only the host may do this."""

    code = "auth/not_host"


class NotSeated(AuthError):
    """This connection holds no seat at that table."""

    code = "auth/not_seated"


class TableError(MejaError):
    """The table cannot do this now."""

    code = "table/not_found"


class TableNotFound(TableError):
    """No such table or room code (or it expired)."""

    code = "table/not_found"


class ArchiveNotFound(MejaError):
    """No finished match in the archive under that id (never written, expired, or not an id)."""

    code = "archive/not_found"


class DealNotFound(MejaError):
    """No finished round of that deal on this server (a short code never given, expired, or mistyped)."""

    code = "deal/not_found"


class CodeRateLimited(TableError):
    """Too many attempts with room codes from this address; wait for the window to pass."""

    code = "table/code_rate_limited"


class TableFull(TableError):
    """No free seat."""

    code = "table/full"


class BadTableOptions(TableError):
    """Game options, seats, bot level, grace or turn limit not acceptable."""

    code = "table/bad_options"


class NotLobby(TableError):
    """Only before the start."""

    code = "table/not_lobby"


class NotPlaying(TableError):
    """The table has not started, or it is finished."""

    code = "table/not_playing"


class NotFinished(TableError):
    """A rematch asked for while the match is still to be played to its end."""

    code = "table/not_finished"


class LimitExceeded(TableError):
    """A documented server limit was reached (the message names it): tables hosted from this
    address, tables open on one connection, spectators of a table, connections of a process."""

    code = "limit/exceeded"


class SeatError(MejaError):
    """Something about a seat."""

    code = "seat/bad_seat"


class SeatTaken(SeatError):
    """That seat is not free."""

    code = "seat/taken"


class BadSeat(SeatError):
    """No such seat, or a seat that may not be changed this way (the host's own)."""

    code = "seat/bad_seat"


class NameTaken(SeatError):
    """The name looks like another seat's name at the table (compared confusable-insensitively)."""

    code = "name/taken"


class NameReserved(NameTaken):
    """The name could pass for a bot's, at any table: a case of :class:`NameTaken` with its own code,
    so that a client can say which (choosing another name does not help if it still says "bot")."""

    code = "name/reserved"


class Kicked(SeatError):
    """The host took this player's seat away at this table: they may not sit there again."""

    code = "seat/kicked"


class TalkError(MejaError):
    """Talk at the table refused (nothing was said or sent)."""

    code = "talk/off"


class TalkOff(TalkError):
    """The host turned this kind of talk off at this table (chat, or all talk)."""

    code = "talk/off"


class TalkRestricted(TalkError):
    """The game's rules allow less talk now (during a hand: neutral reactions only, or none)."""

    code = "talk/restricted"


class Muted(TalkError):
    """The host muted this seat for the whole table."""

    code = "talk/muted"


class BadText(TalkError):
    """A chat line that is too long, blank, or holds characters that draw nothing or control text."""

    code = "talk/bad_text"


class HintsOff(MejaError):
    """The host turned suggested moves off at this table."""

    code = "hint/off"


class NotInCall(TalkError):
    """A call signal from a connection that has not joined the call, or to someone not in it."""

    code = "call/not_in_call"


class StaleVersion(MejaError):
    """The game moved on since the ``version`` the client acted on."""

    code = "action/stale_version"


class ServerFull(MejaError):
    """The store is nearly full: new tables are refused so that the live ones keep room to finish."""

    code = "server/full"


class InternalError(MejaError):
    """A bug, or a table too busy to commit; the table is unchanged."""

    code = "internal"


def _codes() -> tuple[str, ...]:
    from meja.rules import errors as rules_errors

    found: set[str] = set()
    stack: list[type] = [MejaError, rules_errors.RulesError]
    while stack:
        cls = stack.pop()
        code = getattr(cls, "code", None)
        if isinstance(code, str) and cls is not MalformedFrame and code != "rules/error":
            found.add(code)
        stack.extend(cls.__subclasses__())
    return tuple(sorted(found))


#: Every code an ``error`` reply may carry (rules codes included), sorted.
ERROR_CODES: Final[tuple[str, ...]] = _codes()


def wire_error(exc: BaseException) -> tuple[str, str]:
    """The ``(code, message)`` of an error reply for ``exc``.

    Our own errors and the rules' errors keep their code and message; anything
    else is a bug and becomes ``internal`` with a message that reveals nothing.
    """
    if isinstance(exc, MejaError):
        return exc.code, exc.message
    if isinstance(exc, RulesError):
        return exc.code, str(exc)
    return InternalError.code, "internal error: the table is unchanged"
