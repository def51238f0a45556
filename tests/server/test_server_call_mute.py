"""A hostile player's finding (M2): the host's mute holds for the call's signals, not only for
``call {join}``: a muted seat keeps its call id but may reach nobody with it (PROTOCOL.md 16.3-16.4)."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import host, join
from server_wire import Wire
from test_server_talk import STORES, settle, two_servers


async def roster_is(wire: Wire, seats: list[int]) -> None:
    """Wait until the last call roster ``wire`` got lists ``seats`` (it may have come already)."""

    def last() -> list[int] | None:
        rosters = [m for m in wire.seen if m["type"] == "call"]
        return [p["seat"] for p in rosters[-1]["peers"]] if rosters else None

    if last() != seats:
        await wire.until(lambda m: m["type"] == "call" and last() == seats)


@pytest.mark.parametrize("store", STORES)
async def test_a_muted_seat_may_not_signal_anyone_in_the_call(store: str, serve: Any, connect: Any) -> None:
    a, b = await two_servers(serve, store)
    ann, bob = await connect(a), await connect(b)
    table = (await host(ann, seats=2))["table"]
    await join(bob, table=table, name="Bob")
    anns = await ann.ok({"type": "call", "table": table, "join": True, "mic": True})
    bobs = await bob.ok({"type": "call", "table": table, "join": True, "mic": True})
    for wire in (ann, bob):
        await roster_is(wire, [0, 1])
    offer = {"type": "signal", "table": table, "kind": "offer", "sdp": ["v=0"]}
    # In the call, Bob's offer reaches Ann.
    await bob.send({**offer, "to": 0, "peer": anns["id"]})
    got = await ann.until(lambda m: m["type"] == "signal")
    assert got["from"] == 1 and got["peer"] == bobs["id"]
    # A signal to oneself is refused, and the message says why.
    refused = await ann.error({**offer, "to": 0, "peer": anns["id"]}, "call/not_in_call")
    assert "own" in refused["message"], refused

    await ann.ok({"type": "mute", "table": table, "seat": 1, "muted": True})
    for wire in (ann, bob):
        await roster_is(wire, [0])
    before = sum(m["type"] == "signal" for m in ann.seen)
    refused = await bob.error({**offer, "to": 0, "peer": anns["id"]}, "call/not_in_call")
    assert "muted" in refused["message"], refused
    refused = await bob.error(
        {
            "type": "signal",
            "table": table,
            "to": 0,
            "peer": anns["id"],
            "kind": "candidates",
            "candidates": [{"candidate": "candidate:1 1 udp 1 127.0.0.1 5 typ host", "mid": "0", "mline": 0}],
        },
        "call/not_in_call",
    )
    await ann.ok({"type": "ping"})
    await settle(ann, quiet=0.3)
    assert sum(m["type"] == "signal" for m in ann.seen) == before, "a muted seat's signal reached the call"
    # Unmuted and joined again, Bob may signal again.
    await ann.ok({"type": "mute", "table": table, "seat": 1, "muted": False})

    def unmuted() -> bool:  # as Bob's server knows it (on Redis, another process hears of it after)
        return bob.state is not None and 1 not in bob.state["table"]["talk"]["muted"]

    if not unmuted():
        await bob.until(lambda m: unmuted())
    await bob.ok({"type": "call", "table": table, "join": True, "mic": True})
    await roster_is(ann, [0, 1])
    await roster_is(bob, [0, 1])
    await bob.ok({"type": "ping"})
    await bob.send({**offer, "to": 0, "peer": anns["id"]})
    got = await ann.until(lambda m: m["type"] == "signal")
    assert got["from"] == 1
