"""A signal to a seat not in the call (or under a call id it no longer has) is refused in plain words (a reviewer's
finding: the message held the Python repr of the id, quotes and all)."""

from __future__ import annotations

from typing import Any

from server_helpers import host, join
from test_server_call_mute import roster_is


async def test_a_signal_to_a_seat_not_in_the_call_is_refused_in_plain_words(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    table = (await host(ann, seats=2))["table"]
    await join(bob, table=table, name="Bob")
    # Only Bob is in the call: his signal to Ann (seat 0), under any id, reaches nobody.
    bobs = await bob.ok({"type": "call", "table": table, "join": True, "mic": True})
    await roster_is(bob, [1])
    refused = await bob.error(
        {"type": "signal", "table": table, "kind": "offer", "sdp": ["v=0"], "to": 0, "peer": bobs["id"]},
        "call/not_in_call",
    )
    message = refused["message"]
    assert message.startswith("seat 0 is not in the call"), refused
    assert str(bobs["id"]) not in message and "'" not in message and '"' not in message, refused
