"""Moves the server tests share: host a table, play a seat, check what came over the wire."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from typing import Any

from server_wire import Wire


async def host(wire: Wire, **fields: Any) -> dict[str, Any]:
    """``host`` with ``fields``; the ``joined`` reply (the ``state`` after it is read too)."""
    joined = await wire.ok({"type": "host", "name": "Ann", **fields})
    assert joined["type"] == "joined", joined
    await wire.until(lambda m: m["type"] == "state")
    return joined


async def join(wire: Wire, **fields: Any) -> dict[str, Any]:
    joined = await wire.ok({"type": "join", **fields})
    assert joined["type"] == "joined", joined
    await wire.until(lambda m: m["type"] == "state")
    return joined


def first_legal(view: dict[str, Any]) -> dict[str, Any]:
    action: dict[str, Any] = view["legal"][0]
    return action


def match_over(wire: Wire) -> bool:
    view = wire.view
    return view is not None and view["phase"] == "match_over"


async def play(
    wire: Wire,
    table: str,
    until: Callable[[Wire], bool] = match_over,
    policy: Callable[[dict[str, Any]], dict[str, Any]] = first_legal,
    timeout: float = 60.0,
) -> int:
    """Play ``wire``'s seat until ``until(wire)``; the number of actions sent.

    Acts on the latest view, once per table version, and never while its last
    action is unanswered (PROTOCOL.md 8: the reply carries the request's ``id``
    as ``re``); a stale answer just means "look again"; any other error fails
    the test.
    """
    acted_at: int | None = None
    pending: int | None = None
    actions = 0
    async with asyncio.timeout(timeout):
        while not until(wire):
            state = wire.state
            view = None if state is None else state["view"]
            playing = state is not None and state["table"]["status"] == "playing"
            if pending is None and playing and view is not None and view["legal"] and wire.version != acted_at:
                acted_at = wire.version
                actions += 1
                pending = -actions  # negative: out of the way of the ids a test numbers itself
                act = {"type": "act", "id": pending, "table": table, "version": wire.version, "action": policy(view)}
                await wire.send(act)
            message = await wire.recv(timeout)
            if pending is not None and message.get("re") == pending:
                pending = None
            if message["type"] == "error":
                assert message["code"] == "action/stale_version", message
    return actions


def assert_contiguous(wire: Wire) -> None:
    """Every ``update`` is one version after the ``state``/``update`` before it (after resume: after ``since``)."""
    base: int | None = None
    for message in wire.seen:
        if message["type"] == "state":
            assert base is None or message["version"] >= base, (base, message["version"])
            base = message["version"]
        elif message["type"] == "update":
            assert message["since"] == message["version"] - 1
            if base is not None:
                assert message["version"] == base + 1, (base, message["version"])
            base = message["version"]


def events(wire: Wire) -> list[dict[str, Any]]:
    return [e for m in wire.seen if m["type"] == "update" for e in m["events"]]


def assert_fair_deals(seen: list[dict[str, Any]]) -> int:
    """Every ``reveal`` opens its round's ``commitment``; how many rounds were checked."""
    commitments = {e["round"]: e["hash"] for e in seen if e["kind"] == "commitment"}
    results = {e["round"]: e["deal_code"] for e in seen if e["kind"] == "round_over"}
    reveals = [e for e in seen if e["kind"] == "reveal"]
    for reveal in reveals:
        digest = hashlib.sha256(f"{reveal['deal_code']}:{reveal['salt']}".encode()).hexdigest()
        assert digest == commitments[reveal["round"]]
        assert results[reveal["round"]] == reveal["deal_code"]
        assert len(reveal["salt"]) == 32
    return len(reveals)
