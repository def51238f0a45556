"""The hub answers a request that commits a change (PROTOCOL.md 8): the frame of the version that
request's commit wrote carries its ``re``; if that version reached the connection before the
committer's own delivery without it (merged into a resynchronisation), a ``state`` with ``re``
answers instead, so no request goes unanswered (meja.server.hub.Hub.answering)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import host


async def test_the_update_of_its_own_commit_answers_a_request(serve: Any, connect: Any) -> None:
    server = await serve()
    ann = await connect(server)
    table = (await host(ann, seats=3))["table"]
    reply = await ann.ok({"type": "start", "table": table})  # (the first frame with its id as re)
    assert reply["type"] == "update", reply
    assert not server.hub._replies, "an answered request is still owed"


async def test_a_version_that_came_first_is_answered_with_a_state(
    serve: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await serve()
    ann = await connect(server)
    table = (await host(ann, seats=3))["table"]
    hub = server.hub
    original = hub.apply

    async def apply(change: Any, record: Any = None, events: Any = None) -> None:
        if record is not None:
            # The committer's own copy comes second: the version is in the cache already, as
            # after a resynchronisation that read it from the log (no commit id: no reply).
            cached = hub.tables[change.table_id]
            cached.table, cached.version = record, change.version
        await original(change, record, events)

    monkeypatch.setattr(hub, "apply", apply)
    reply = await ann.ok({"type": "start", "table": table})  # (the first frame with its id as re)
    assert reply["type"] == "state", reply
    assert reply["table"]["status"] == "playing"


async def test_an_action_past_a_cache_a_moment_behind_is_checked_on_the_store(serve: Any, connect: Any) -> None:
    """A version this process's cache has not heard yet (a change still on its way) is read from
    the store before the action is judged: the action applies. Past the store too, it is a bad
    message, as before."""
    server = await serve()
    ann = await connect(server)
    table = (await host(ann, seats=2, bots="random-any"))["table"]
    await ann.ok({"type": "start", "table": table})
    async with asyncio.timeout(60):
        while not (ann.view is not None and ann.view["legal"]):  # Ann's turn: the bot waits for her
            await ann.recv(30)
    version, action = ann.version, dict(ann.view["legal"][0])
    cached = server.hub.tables[table]
    cached.version -= 1  # as if the last change had not reached this process yet
    reply = await ann.ok({"type": "act", "table": table, "version": version, "action": action})
    assert reply["version"] == version + 1, reply
    await ann.error({"type": "act", "table": table, "version": version + 50, "action": action}, "protocol/bad_message")
