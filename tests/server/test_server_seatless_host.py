"""Issue 26: a host without a seat (the shared screen hosts the room), and the host's rights handed
to a seated player and back.

The shared screen hosts with ``seated: false``: it gets the host token (and the screen token) but
no seat and no seat token, watches like a spectator with the host's rights, and never sees a hand.
``host_to {seat}`` hands the rights to a seated person (that seat does what the host does) and
``host_to {seat: nil}`` takes them back; the host token alone may always take them back. On Redis
the people sit on two servers sharing one store.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import events, join
from server_wire import Wire

STORES = ["memory", "redis"]


def hosts(wire: Wire) -> bool:
    return bool(wire.state is not None and wire.state["is_host"])


async def settle(wire: Wire) -> None:
    await wire.ok({"type": "ping"})


@pytest.mark.parametrize("store", STORES)
async def test_the_shared_screen_hosts_without_a_seat(store: str, serve: Any, connect: Any) -> None:
    a = await serve(redis=store == "redis")
    b = await serve(redis=True) if store == "redis" else a
    tv, bob, cat = await connect(a), await connect(b), await connect(a)
    joined = await tv.ok({"type": "host", "name": "Living room", "game": "kartu_terakhir", "seats": 3,
                          "seated": False, "options": {"preset": "standard", "stacking": True}})
    assert joined["type"] == "joined" and joined["seat"] is None and "token" not in joined
    assert joined["host_token"] and joined["screen_token"]
    state = await tv.until(lambda m: m["type"] == "state")
    assert state["seat"] is None and state["is_host"] is True and state["view"] is None
    assert state["table"]["host_seat"] is None and state["table"]["host_rights"] is None
    assert [s["kind"] for s in state["table"]["seats"]] == ["empty"] * 3
    table = joined["table"]
    await join(bob, table=table, name="Bob")
    await join(cat, code=joined["code"], name="Cat")
    assert (bob.state or {})["seat"] == 0 and not hosts(bob)
    await tv.ok({"type": "seat", "table": table, "seat": 2, "to": "bot"})  # Cat's seat: a kick, from the TV
    await tv.ok({"type": "talk_policy", "table": table, "chat": "reactions"})
    await tv.ok({"type": "start", "table": table})
    await settle(tv)
    assert tv.view is not None and tv.view.get("hand") is None, "the screen that hosts saw a hand"

    # The rights to Bob (seat 0), and back.
    await tv.ok({"type": "host_to", "table": table, "seat": 0})
    changed = [e for e in events(bob) if e["kind"] == "host_changed"]
    await bob.until(lambda m: m["type"] == "update" and m["is_host"])
    assert hosts(bob) and not hosts(tv)
    await tv.error({"type": "talk_policy", "table": table, "chat": "on"}, "auth/not_host")
    await bob.ok({"type": "talk_policy", "table": table, "chat": "on"})
    await cat.error({"type": "host_to", "table": table, "seat": None}, "auth/not_host")
    await tv.ok({"type": "host_to", "table": table, "seat": None})  # the host token takes them back
    await bob.until(lambda m: m["type"] == "update" and not m["is_host"])
    assert hosts(tv) and not hosts(bob)
    assert changed or [e for e in events(bob) if e["kind"] == "host_changed"]

    # The screen reloads: its host token brings it back to the host's place.
    again = await connect(b)
    state = await again.ok({"type": "watch", "table": table, "host_token": joined["host_token"]})
    assert state["type"] == "state" and state["is_host"] is True and state["seat"] is None
    await (await connect(a)).error({"type": "watch", "table": table, "host_token": "nope" * 6}, "auth/bad_token")


async def test_a_seated_host_hands_its_rights_on_and_they_come_back_when_the_delegate_goes(
    serve: Any, connect: Any
) -> None:
    server = await serve()
    ann, bob, cat = await connect(server), await connect(server), await connect(server)
    joined = await ann.ok({"type": "host", "name": "Ann", "game": "kartu_terakhir", "seats": 4})
    await ann.until(lambda m: m["type"] == "state")
    table = joined["table"]
    await join(bob, table=table, name="Bob")
    await join(cat, table=table, name="Cat")
    await ann.error({"type": "host_to", "table": table, "seat": 3}, "seat/bad_seat")  # nobody there
    await ann.ok({"type": "host_to", "table": table, "seat": 1})
    await settle(bob)
    assert hosts(bob) and not hosts(ann)
    assert (bob.table or {})["host_rights"] == 1 and (bob.table or {})["host_seat"] == 0
    await ann.error({"type": "seat", "table": table, "seat": 3, "to": "bot"}, "auth/not_host")
    await bob.ok({"type": "seat", "table": table, "seat": 3, "to": "bot"})
    await bob.ok({"type": "host_to", "table": table, "seat": 2})  # the holder hands them on
    await settle(cat)
    assert hosts(cat) and not hosts(bob)
    await cat.ok({"type": "leave", "table": table})  # the delegate goes: back to the host
    await settle(ann)
    assert hosts(ann) and (ann.table or {})["host_rights"] is None
    await ann.ok({"type": "start", "table": table})
