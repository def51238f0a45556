"""What a client call can raise: the server said no, or the connection is gone."""

from __future__ import annotations

from typing import Any

__all__ = ["ClientError", "ConnectionClosed", "ServerError"]


class ClientError(Exception):
    """Base class of this library's errors."""


class ServerError(ClientError):
    """The server answered a request with an ``error`` message (PROTOCOL.md section 5).

    ``code`` is the stable wire code (``action/illegal``...), ``message`` the
    human-readable text, ``reply`` the whole error message as received.
    """

    def __init__(self, reply: dict[str, Any]) -> None:
        self.reply = reply
        self.code: str = str(reply.get("code"))
        self.message: str = str(reply.get("message", ""))
        super().__init__(f"{self.code}: {self.message}")


class ConnectionClosed(ClientError):
    """The websocket closed while a call was waiting. ``code``: the close code (4001...)."""

    def __init__(self, code: int | None, reason: str | None) -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"connection closed: {code} {reason or ''}".rstrip())
