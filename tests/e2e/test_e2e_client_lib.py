"""The client library's own mechanics, against a tiny scripted websocket server in the test process.

No Meja server here: the scripted server answers each request the way
PROTOCOL.md says (``re`` on replies, ``update`` with ``since``), so these tests pin
what meja_client does with replies, errors, close codes and timeouts. Cost: < 1 s.
"""

from __future__ import annotations

from typing import Any

import pytest
from meja_client import ConnectionClosed, Player, ServerError, connect, decode, encode, first_legal
from websockets.asyncio.server import serve

TABLE = {"id": "t1", "code": "ABCDEF", "status": "playing", "seats": []}


def view(version: int, turn: int = 0, phase: str = "play") -> dict[str, Any]:
    legal = [{"kind": "draw"}] if turn == 0 and phase == "play" else []
    return {"version": version, "turn": turn, "phase": phase, "legal": legal, "hand": ["7H"]}


async def scripted(ws: Any) -> None:
    version = 0
    async for frame in ws:
        msg = decode(frame)
        rid = msg.get("id")
        kind = msg["type"]
        if kind == "hello":
            await ws.send(encode({"type": "welcome", "protocol": 1, "server": "fake", "limits": {}, "games": [],
                                  "re": rid}))
        elif kind == "join":
            await ws.send(encode({"type": "joined", "table": "t1", "code": "ABCDEF", "link": "x", "seat": 0,
                                  "token": "tok", "re": rid}))
            await ws.send(encode({"type": "state", "table": TABLE, "version": version, "seat": 0,
                                  "is_host": False, "view": view(version), "re": rid}))
        elif kind == "act":
            if msg["version"] != version:
                await ws.send(encode({"type": "error", "code": "action/stale_version", "message": "stale",
                                      "re": rid}))
                continue
            # An unrelated update first (no re), then the answer.
            version += 1
            await ws.send(encode({"type": "update", "table": TABLE, "version": version, "since": version - 1,
                                  "events": [{"kind": "connected", "seat": 1}], "seat": 0, "is_host": False,
                                  "view": view(version)}))
            version += 1
            done = version >= 6
            await ws.send(encode({"type": "update", "table": TABLE, "version": version, "since": version - 1,
                                  "events": [{"kind": "draw", "seat": 0, "card": "2C"}], "seat": 0,
                                  "is_host": False,
                                  "view": view(version, phase="match_over" if done else "play"), "re": rid}))
        elif kind == "ping":
            await ws.send(encode({"type": "pong", "re": rid}))
        elif kind == "leave":
            await ws.close(4001, "replaced")
            return


@pytest.fixture
async def url():
    async with serve(scripted, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws"


async def test_requests_are_answered_by_re_and_state_is_kept(url):
    async with connect(url) as client:
        assert client.welcome["server"] == "fake"
        joined = await client.join(code="abcdef", name="Ann")
        assert joined["token"] == "tok" and client.token == "tok" and client.version == 0
        answer = await client.act({"kind": "draw"})
        assert answer["re"] and answer["version"] == 2  # not the unrelated update at version 1
        assert client.version == 2 and [e["kind"] for e in client.events] == ["connected", "draw"]
        assert client.event_versions == [1, 2]
        with pytest.raises(ServerError) as refused:
            await client.act({"kind": "draw"}, version=0)
        assert refused.value.code == "action/stale_version" and client.errors[-1]["re"]
        assert (await client.ping())["type"] == "pong"


async def test_player_plays_until_the_match_is_over(url):
    async with connect(url) as client:
        await client.join(code="ABCDEF", name="Ann")
        player = Player(client, first_legal, turn_timeout=5)
        last = await player.run()
        assert last["phase"] == "match_over"
        assert len(player.accepted) == 3 and not player.refused and not player.in_flight


async def test_close_code_and_timeouts(url):
    client = await connect(url)
    await client.join(code="ABCDEF", name="Ann")
    with pytest.raises(TimeoutError):
        await client.wait_for(lambda c: c.version == 99, timeout=0.2)
    with pytest.raises(ConnectionClosed) as closed:
        await client.leave(timeout=5)
    assert closed.value.code == 4001 and client.close_code == 4001 and client.closed
    with pytest.raises(ConnectionClosed):
        await client.ping()
    await client.close()


def test_the_client_library_imports_only_msgpack_websockets_and_the_standard_library():
    """meja_client is for remote bots and load tests: it must never need the server's code."""
    import ast
    import sys
    from pathlib import Path

    import meja_client

    allowed = set(sys.stdlib_module_names) | {"__future__", "msgpack", "websockets"}
    package = Path(meja_client.__file__).parent
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
