"""Issue 25, finding 1: a seat's private steps cost the other connections nothing.

In Eighty-Three's discard phase a seat's steps (``discard``, ``undo``) are private: each is a
table version (a closed tab comes back to a half-built decision), but it changes nothing
another seat or a spectator can see. A hostile player looped ``discard``/``undo`` and every
other connection got an update for each step (16 versions a second, 31.5 KiB/s to each, and a
spectator on a slow link was dropped). Now the others are sent nothing for such a version;
their next update covers it (``since`` is their last version), and acting on their last
version is never stale for it.
"""

from __future__ import annotations

from typing import Any

from server_helpers import host, join
from server_wire import Wire


def _updates(wire: Wire) -> int:
    return sum(1 for m in wire.seen if m["type"] == "update")


async def _play_to_the_discard_phase(wires: list[Wire], table: str) -> None:
    """Everyone takes their first legal action until the discard phase begins."""
    while True:
        for wire in wires:
            view = wire.view
            if view is not None and view["phase"] == "discard":
                return
            if view is not None and view.get("legal") and view["phase"] in ("auction", "trump"):
                action = view["legal"][0]
                if action["kind"] == "bid":  # pass where one may: the auction ends sooner
                    action = next((a for a in view["legal"] if a["kind"] == "pass"), action)
                await wire.ok({"type": "act", "table": table, "version": wire.version, "action": action})
        await wires[0].ok({"type": "ping"})
        for wire in wires:
            await wire.ok({"type": "ping"})


async def _discard_phase(serve: Any, connect: Any, **settings: Any) -> tuple[str, list[Wire], Wire]:
    """A table of four people and a shared screen, in the discard phase."""
    server = await serve(**settings)
    ann, bob, cat, dan, tv = [await connect(server) for _ in range(5)]
    table = (await host(ann, game="eighty_three", seats=4))["table"]
    for wire, name in ((bob, "Bob"), (cat, "Cat"), (dan, "Dan")):
        await join(wire, table=table, name=name)
    await tv.ok({"type": "watch", "table": table})
    await ann.ok({"type": "start", "table": table})
    players = [ann, bob, cat, dan]
    await _play_to_the_discard_phase(players, table)
    for wire in (*players, tv):
        await wire.ok({"type": "ping"})
    return table, players, tv


async def test_private_steps_send_the_others_nothing(serve: Any, connect: Any) -> None:
    table, players, tv = await _discard_phase(serve, connect)

    flooder = next(w for w in players if w.view is not None and w.view["phase"] == "discard")
    others = [w for w in (*players, tv) if w is not flooder]
    before = {id(w): _updates(w) for w in others}
    last = {id(w): w.version for w in others}
    start = flooder.version
    assert start is not None
    card = next(a for a in flooder.view["legal"] if a["kind"] == "discard")
    for _ in range(20):
        await flooder.ok({"type": "act", "table": table, "version": flooder.version, "action": card})
        await flooder.ok({"type": "act", "table": table, "version": flooder.version, "action": {"kind": "undo"}})
    assert flooder.version == start + 40, "each step is a version of its own"
    for wire in others:
        await wire.ok({"type": "ping"})  # whatever was queued for it has arrived
        assert _updates(wire) == before[id(wire)], "another seat's private step reached this connection"

    # Acting on the last version it was sent is not stale; the next update covers the steps.
    other = next(w for w in players if w is not flooder)
    reply = await other.ok(
        {"type": "act", "table": table, "version": last[id(other)], "action": {"kind": "auto_arrange"}}
    )
    assert reply["type"] == "update" and reply["since"] == last[id(other)] and reply["version"] == start + 41
    update = await tv.until(lambda m: m["type"] == "update")
    assert update["since"] == last[id(tv)] and update["version"] == start + 41
    assert [e["kind"] for e in update["events"]] == ["decided"]  # the public part of the decision
    assert update["view"]["version"] == reply["view"]["version"]


async def test_a_seats_private_steps_are_bounded(serve: Any, connect: Any) -> None:
    table, players, _tv = await _discard_phase(serve, connect, private_steps_per_s=1.0, private_steps_burst=6)
    flooder = next(w for w in players if w.view is not None and w.view["phase"] == "discard")
    card = next(a for a in flooder.view["legal"] if a["kind"] == "discard")
    for _ in range(3):
        await flooder.ok({"type": "act", "table": table, "version": flooder.version, "action": card})
        await flooder.ok({"type": "act", "table": table, "version": flooder.version, "action": {"kind": "undo"}})
    version = flooder.version
    await flooder.error({"type": "act", "table": table, "version": version, "action": card}, "limit/exceeded")
    await flooder.ok({"type": "ping"})
    assert flooder.version == version, "a refused step changed the table"
    # A decision everyone sees (its seat has decided) is not a private step; nor are others' steps.
    other = next(w for w in players if w is not flooder)
    await other.ok({"type": "act", "table": table, "version": other.version, "action": {"kind": "auto_arrange"}})
    await flooder.ok({"type": "act", "table": table, "version": flooder.version, "action": {"kind": "auto_arrange"}})
