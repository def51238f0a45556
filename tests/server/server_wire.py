"""A tiny websocket client for the server's own tests: msgpack frames in, msgpack frames out.

Deliberately small (the full client library is client-protocol/python): it
sends maps, reads maps, and keeps everything it read so tests can look back.
With ``diffs=True`` it asks for updates in the patch form and keeps each
``patch`` as the whole ``update`` it stands for (``patches`` counts them), so a
test reads the same messages in either form.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import msgpack
import websockets
from meja.protocol.codec import check_encodable
from meja.protocol.patch import apply
from websockets.asyncio.client import ClientConnection

TIMEOUT = 10.0


class Wire:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self.version: int | None = None
        self.state: dict[str, Any] | None = None
        self.patches = 0
        #: by table id: the table map and view last received (what a patch applies to)
        self.documents: dict[str, dict[str, Any]] = {}

    @classmethod
    async def open(cls, url: str, *, hello: bool = True, diffs: bool = False, **options: Any) -> Wire:
        ws = await websockets.connect(url, open_timeout=TIMEOUT, **options)
        wire = cls(ws)
        if hello:
            await wire.request({"type": "hello", "protocol": 1, **({"diffs": True} if diffs else {})})
        return wire

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(msgpack.packb(message, use_bin_type=True))

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(frame, bytes), f"text frame from the server: {frame!r}"
        message: dict[str, Any] = msgpack.unpackb(frame, raw=False)
        check_encodable(message)  # plain protocol data only (no bytes, string keys)
        assert msgpack.packb(message, use_bin_type=True) == frame, "not the smallest msgpack encoding"
        if message["type"] == "patch":
            document = apply(self.documents[message["table"]], message["patch"])
            message = {**{k: v for k, v in message.items() if k != "patch"}, "type": "update", **document}
            self.patches += 1
        self.seen.append(message)
        if message["type"] in ("state", "update"):
            self.version = message["version"]
            self.state = message
            self.documents[message["table"]["id"]] = {"table": message["table"], "view": message["view"]}
        return message

    async def until(self, predicate: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read until a message satisfies ``predicate``; that message."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv(timeout)
                if predicate(message):
                    return message

    async def request(self, message: dict[str, Any], timeout: float = TIMEOUT) -> dict[str, Any]:
        """Send with a fresh id; the first reply carrying it (an ``error`` included)."""
        rid = next(self._ids)
        await self.send({**message, "id": rid})
        return await self.until(lambda m: m.get("re") == rid, timeout)

    async def ok(self, message: dict[str, Any], timeout: float = TIMEOUT) -> dict[str, Any]:
        reply = await self.request(message, timeout)
        assert reply["type"] != "error", reply
        return reply

    async def error(self, message: dict[str, Any], code: str) -> dict[str, Any]:
        reply = await self.request(message)
        assert reply["type"] == "error" and reply["code"] == code, reply
        return reply

    async def state_after_joined(self) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] == "state")

    async def closed(self, timeout: float = TIMEOUT) -> int | None:
        """Read until the server closes the connection; its close code."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    await self.recv(timeout)
        except websockets.ConnectionClosed:
            pass
        return self.ws.close_code

    @property
    def view(self) -> dict[str, Any] | None:
        return None if self.state is None else self.state["view"]

    @property
    def table(self) -> dict[str, Any] | None:
        return None if self.state is None else self.state["table"]

    async def close(self) -> None:
        await self.ws.close()
