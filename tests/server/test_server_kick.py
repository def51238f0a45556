"""A kick sticks (issue 12, finding 8; the decision is written in server/meja/server/tables.py).

A host "kicks" a person by freeing their seat, or handing it to a bot, with
``seat`` in the lobby. The kicked person rejoined at once by table id, with no
limit. Now their address is remembered at that table: ``join`` from it is
``seat/kicked`` (on a new connection too), their old token opens nothing, and
they may still watch; other addresses are not affected, nor other tables.

Every client here comes through a trusted proxy with its own address
(``X-Forwarded-For``), as people do. Both stores: the record carries the kick.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import events, host, join

STORES = ["memory", "redis"]


@pytest.mark.parametrize("store", STORES)
async def test_a_kicked_player_cannot_rejoin(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis", trust_proxy=True)
    url = f"ws://127.0.0.1:{server.port}/ws"

    async def person(address: str) -> Any:
        return await connect(url, additional_headers={"X-Forwarded-For": address})

    ann, bob, cat = await person("198.51.100.1"), await person("203.0.113.2"), await person("2001:db8:7:7::3")
    joined = await host(ann, seats=3)
    table = joined["table"]
    bobs = await join(bob, table=table, name="Bob")
    await join(cat, code=joined["code"], name="Cat")

    # Bob's seat freed, Cat's handed to a bot: both kicked.
    await ann.ok({"type": "seat", "table": table, "seat": 1, "to": "empty"})
    await ann.ok({"type": "seat", "table": table, "seat": 2, "to": "bot"})
    await ann.ok({"type": "seat", "table": table, "seat": 2, "to": "empty"})
    changes = [(e["seat"], e["to"], e.get("kicked")) for e in events(ann) if e["kind"] == "seat_changed"]
    # Said on the wire: a person's seat taken is a kick, a bot's is not.
    assert changes[-3:] == [(1, "empty", True), (2, "bot", True), (2, "empty", None)]
    version = ann.version
    reply = await bob.error({"type": "join", "table": table, "name": "Bob"}, "seat/kicked")
    assert "watch" in reply["message"]
    again = await person("203.0.113.2")  # a new connection from the same address
    await again.error({"type": "join", "table": table, "name": "Robert", "seat": 1}, "seat/kicked")
    await again.error({"type": "join", "code": joined["code"], "name": "Robert"}, "seat/kicked")
    await again.error({"type": "resume", "table": table, "token": bobs["token"]}, "auth/bad_token")
    # Cat, from another address of the same IPv6 /64.
    await (await person("2001:db8:7:7::99")).error({"type": "join", "table": table, "name": "Kit"}, "seat/kicked")
    assert ann.version == version, "a refused rejoin changed the table"
    # They may still watch.
    assert (await again.ok({"type": "watch", "table": table}))["type"] == "state"

    # Somebody else takes the seat; the kicked address may sit at another table.
    dan = await person("192.0.2.4")
    await join(dan, table=table, name="Dan", seat=1)
    other = await host(await person("192.0.2.5"), seats=2, name="Eve")
    await join(await person("203.0.113.2"), table=other["table"], name="Bob")


async def test_leaving_is_not_a_kick(serve: Any, connect: Any) -> None:
    server = await serve(trust_proxy=True)
    url = f"ws://127.0.0.1:{server.port}/ws"
    ann = await connect(url, additional_headers={"X-Forwarded-For": "198.51.100.1"})
    bob = await connect(url, additional_headers={"X-Forwarded-For": "203.0.113.2"})
    joined = await host(ann, seats=2)
    await join(bob, table=joined["table"], name="Bob")
    await bob.ok({"type": "leave", "table": joined["table"]})
    assert not any(e.get("kicked") for e in events(ann) if e["kind"] == "seat_changed")
    await join(bob, table=joined["table"], name="Bob")
