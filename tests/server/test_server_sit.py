"""A person chooses where to sit in the lobby: ``sit {table, seat}`` (PROTOCOL.md 5, 7.3).

A seated person moves to an empty seat before the start. Their whole seat record goes
with them (name, token, connection, origin, presence), the old seat is empty again, and
the update says who moved from where to where (two ``seat_changed`` entries: the old
seat's with ``moved_to``, the new one's with ``moved_from``). Whatever the table keeps
by seat follows: the hub's seat of that connection (its next frames are the new seat's),
a resume with the same token, the host's seat and the host's rights, a mute, the call's
roster, a kick. Refusals (a taken seat, a bot's, the host's, a seat that does not exist,
after the start, from a spectator) change nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import events, host, join

pytestmark = pytest.mark.usefixtures("frame_form")

GAME = {"game": "eighty_three"}  # four seats, partners across: choosing a seat is choosing a partner


def moves(wire: Any) -> list[tuple[int, str, str, int | None, int | None]]:
    """The ``seat_changed`` entries a connection saw that a move made."""
    return [
        (e["seat"], e["to"], e["name"], e.get("moved_to"), e.get("moved_from"))
        for e in events(wire)
        if e["kind"] == "seat_changed" and ("moved_to" in e or "moved_from" in e)
    ]


async def settled(wire: Any) -> int:
    """The connection's version once everything queued for it before a ping has come."""
    await wire.ok({"type": "ping"})
    assert wire.version is not None
    return int(wire.version)


@pytest.mark.parametrize("store", ["memory", "redis"])
async def test_a_guest_moves_to_an_empty_seat(store: str, serve: Any, connect: Any) -> None:
    # With Redis, the mover and the host are on two processes: the change crosses by pub/sub.
    a = await serve(redis=store == "redis")
    b = await serve(redis=True) if store == "redis" else a
    ann, bob, eve = await connect(a), await connect(b), await connect(a)
    joined = await host(ann, seats=4, **GAME)
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")
    assert mine["seat"] == 1
    await eve.ok({"type": "watch", "table": table})
    await settled(ann)
    assert ann.table is not None and [s["kind"] for s in ann.table["seats"]] == ["human", "human", "empty", "empty"]

    reply = await bob.ok({"type": "sit", "table": table, "seat": 2})
    # The answer is the update of the move, at the new seat.
    assert reply["type"] == "update" and reply["seat"] == 2, reply
    seats = reply["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "empty", "human", "empty"]
    assert seats[1]["name"] == "" and seats[2]["name"] == "Bob" and seats[2]["connected"]
    assert moves(bob) == [(1, "empty", "", 2, None), (2, "human", "Bob", None, 1)]
    # Everyone else sees the same event, and the same table.
    await ann.until(lambda m: m["type"] == "update" and m["table"]["seats"][2]["name"] == "Bob")
    await eve.until(lambda m: m["type"] == "update" and m["table"]["seats"][2]["name"] == "Bob")
    assert moves(ann) == moves(eve) == moves(bob)
    assert ann.state is not None and ann.state["seat"] == 0 and eve.state is not None and eve.state["seat"] is None

    # The mover's next frames are the new seat's: at the start its hand is seat 2's.
    await ann.ok({"type": "start", "table": table})
    started = await bob.until(lambda m: m["type"] == "update" and m["view"] is not None)
    assert started["seat"] == 2 and started["view"]["seat"] == 2 and started["view"]["hand"]
    # ... and it acts as seat 2 (a move out of turn is the rules' refusal, never "not seated").
    view = started["view"]
    act = {"type": "act", "table": table, "version": started["version"]}
    if view["legal"]:
        await bob.ok({**act, "action": view["legal"][0]})
    else:
        refused = await bob.request({**act, "action": {"kind": "pass"}})
        assert refused["type"] == "error" and refused["code"].startswith("action/"), refused

    # A closed tab: the new seat is the one away; the same token comes back to it.
    await bob.close()
    await ann.until(lambda m: m["type"] == "update" and {"kind": "away", "seat": 2} in m["events"])
    again = await connect(a)
    back = await again.ok({"type": "resume", "table": table, "token": mine["token"]})
    assert back["type"] == "joined" and back["seat"] == 2
    state = await again.state_after_joined()
    assert state["seat"] == 2 and state["view"]["seat"] == 2 and state["view"]["hand"] == started["view"]["hand"]


async def test_refusals_change_nothing(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob, cat, eve = await connect(server), await connect(server), await connect(server), await connect(server)
    joined = await host(ann, seats=4, **GAME)
    table = joined["table"]
    await join(bob, table=table, name="Bob")
    await join(cat, table=table, name="Cat")
    await ann.ok({"type": "seat", "table": table, "seat": 3, "to": "bot"})
    await eve.ok({"type": "watch", "table": table})
    version = await settled(ann)

    await bob.error({"type": "sit", "table": table, "seat": 0}, "seat/taken")  # the host's seat
    await bob.error({"type": "sit", "table": table, "seat": 2}, "seat/taken")  # a person's
    await bob.error({"type": "sit", "table": table, "seat": 3}, "seat/taken")  # a bot's
    await bob.error({"type": "sit", "table": table, "seat": 1}, "seat/taken")  # one's own
    await bob.error({"type": "sit", "table": table, "seat": 4}, "seat/bad_seat")  # not at this table
    await bob.error({"type": "sit", "table": table, "seat": -1}, "protocol/bad_message")
    await bob.error({"type": "sit", "table": table, "seat": "3"}, "protocol/bad_message")
    await bob.error({"type": "sit", "table": table}, "protocol/bad_message")
    await eve.error({"type": "sit", "table": table, "seat": 3}, "auth/not_seated")  # a spectator
    stranger = await connect(server)
    await stranger.error({"type": "sit", "table": table, "seat": 3}, "auth/not_seated")
    assert await settled(ann) == version, "a refused move changed the table"
    assert moves(ann) == []

    # After the start, nobody moves (the empty seats are bots by then anyway). The bots play on
    # meanwhile (a bot may call first in the auction, after its pause: a loaded run saw its call
    # land after the refusals), so what is checked is the seats, not the version.
    await ann.ok({"type": "seat", "table": table, "seat": 3, "to": "empty"})
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update" and m["view"] is not None)
    await settled(ann)
    assert ann.state is not None
    seats = [(s["kind"], s["name"]) for s in ann.state["table"]["seats"]]
    await bob.error({"type": "sit", "table": table, "seat": 3}, "table/not_lobby")
    await ann.error({"type": "sit", "table": table, "seat": 3}, "table/not_lobby")
    await settled(ann)
    assert [(s["kind"], s["name"]) for s in ann.state["table"]["seats"]] == seats
    assert moves(ann) == []
    assert bob.state is not None and bob.state["seat"] == 1 and bob.state["view"]["seat"] == 1


async def test_the_host_moves_and_its_seat_and_rights_follow(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=4, **GAME)
    table = joined["table"]
    await join(bob, table=table, name="Bob")

    reply = await ann.ok({"type": "sit", "table": table, "seat": 3})
    assert reply["seat"] == 3 and reply["is_host"] is True
    assert reply["table"]["host_seat"] == 3 and reply["table"]["seats"][0]["kind"] == "empty"
    # The host's own seat is the new one: the host may not free it, nor mute it; seat 0 is anyone's.
    await ann.error({"type": "seat", "table": table, "seat": 3, "to": "empty"}, "seat/bad_seat")
    await ann.error({"type": "mute", "table": table, "seat": 3, "muted": True}, "seat/bad_seat")
    await ann.ok({"type": "seat", "table": table, "seat": 0, "to": "bot"})
    await ann.ok({"type": "seat", "table": table, "seat": 0, "to": "empty"})

    # Rights handed to Bob go with Bob.
    await ann.ok({"type": "host_to", "table": table, "seat": 1})
    await bob.until(lambda m: m.get("is_host") is True)
    moved = await bob.ok({"type": "sit", "table": table, "seat": 2})
    assert moved["table"]["host_rights"] == 2 and moved["is_host"] is True
    await bob.ok({"type": "seat", "table": table, "seat": 0, "to": "bot"})  # he still holds them
    await ann.ok({"type": "host_to", "table": table, "seat": None})
    # The host's leave still closes the table from its new seat.
    await ann.ok({"type": "leave", "table": table})
    await bob.until(lambda m: m["type"] == "update" and m["table"]["status"] == "finished")


async def test_mute_call_and_kick_follow_the_person(serve: Any, connect: Any) -> None:
    server = await serve(trust_proxy=True)
    url = f"ws://127.0.0.1:{server.port}/ws"
    ann = await connect(url, additional_headers={"X-Forwarded-For": "198.51.100.1"})
    bob = await connect(url, additional_headers={"X-Forwarded-For": "203.0.113.2"})
    joined = await host(ann, seats=4, **GAME)
    table = joined["table"]
    await join(bob, table=table, name="Bob")

    # In the call at seat 1, then moved: the roster has Bob at seat 3 with the same call id.
    ice = await bob.ok({"type": "call", "table": table, "join": True, "mic": True, "cam": False})
    call_id = ice["id"]
    await ann.until(lambda m: m["type"] == "call" and [p["seat"] for p in m["peers"]] == [1])
    await bob.ok({"type": "sit", "table": table, "seat": 3})
    roster = await ann.until(lambda m: m["type"] == "call" and [p["seat"] for p in m["peers"]] == [3])
    assert roster["peers"][0]["id"] == call_id

    # A mute is the person's: it stays on Bob at seat 3, and seat 1 (empty) is not muted.
    await ann.ok({"type": "mute", "table": table, "seat": 3, "muted": True})
    await bob.error({"type": "say", "table": table, "text": "hello"}, "talk/muted")
    moved = await bob.ok({"type": "sit", "table": table, "seat": 1})
    assert moved["table"]["talk"]["muted"] == [1]
    await bob.error({"type": "say", "table": table, "text": "hello"}, "talk/muted")

    # A kick of the moved person sticks (their origin moved with them).
    await ann.ok({"type": "seat", "table": table, "seat": 1, "to": "empty"})
    await bob.until(lambda m: m["type"] == "update" and m["seat"] is None)
    await bob.error({"type": "join", "table": table, "name": "Bob"}, "seat/kicked")
    await bob.error({"type": "sit", "table": table, "seat": 2}, "auth/not_seated")


async def test_the_python_client_moves(serve: Any) -> None:
    """client-protocol's library has ``sit``; its ``seat`` follows the move."""
    from meja_client import connect as client_connect

    server = await serve()
    url = f"ws://127.0.0.1:{server.port}/ws"
    ann, bob = await client_connect(url), await client_connect(url)
    try:
        await ann.hello()
        await bob.hello()
        joined = await ann.host(name="Ann", seats=4, **GAME)
        await bob.join(name="Bob", code=joined["code"])
        assert bob.seat == 1
        answer = await bob.sit(3)
        assert answer is not None and answer["seat"] == 3 and bob.seat == 3
        await ann.wait_for(lambda c: c.table is not None and c.table["seats"][3]["name"] == "Bob")
    finally:
        await ann.close()
        await bob.close()


async def test_moving_back_and_forth_spends_the_tables_budget(serve: Any, connect: Any) -> None:
    """A person hopping between seats makes a version for everyone each time: past the table's
    changes budget the move is refused (``limit/exceeded``) and nothing changes; a refused move
    (a taken seat) costs nothing."""
    server = await serve(table_changes_per_s=0.01, table_changes_burst=3)
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=4, **GAME)
    table = joined["table"]
    await join(bob, table=table, name="Bob")  # (one of the three)
    for _ in range(5):
        await bob.error({"type": "sit", "table": table, "seat": 0}, "seat/taken")
    await bob.ok({"type": "sit", "table": table, "seat": 2})
    await bob.ok({"type": "sit", "table": table, "seat": 3})
    version = await settled(ann)
    await bob.error({"type": "sit", "table": table, "seat": 1}, "limit/exceeded")
    assert await settled(ann) == version
    assert ann.table is not None and ann.table["seats"][3]["name"] == "Bob"


async def test_a_person_hopping_between_seats_leaves_the_host_the_tables_budget(serve: Any, connect: Any) -> None:
    """Past their own moves (``seat_moves_burst``) a person's moves are refused before they spend
    the table's budget, which the host's requests share: hopping at a message each cannot starve
    the host (a hostile review found 24 of a host's 30 mutes refused). The budget follows them."""
    server = await serve(table_changes_per_s=0.01, table_changes_burst=6, seat_moves_per_min=0.01, seat_moves_burst=2)
    ann, bob = await connect(server), await connect(server)
    table = (await host(ann, seats=4, **GAME))["table"]
    await join(bob, table=table, name="Bob")  # the table's budget: 5 left
    await bob.ok({"type": "sit", "table": table, "seat": 2})
    await bob.ok({"type": "sit", "table": table, "seat": 3})  # 3 left
    for to in (1, 2, 1, 2, 1):
        await bob.error({"type": "sit", "table": table, "seat": to}, "limit/exceeded")
    await settled(ann)
    assert ann.table is not None and ann.table["seats"][3]["name"] == "Bob"
    for muted in (True, False, True):  # the host's requests still have the table's 3
        await ann.ok({"type": "mute", "table": table, "seat": 3, "muted": muted})


async def test_the_talk_budget_goes_with_the_person(serve: Any, connect: Any) -> None:
    """A move does not refill what a person may still say (the budget is kept by seat)."""
    server = await serve(talk_per_s=0.01, talk_burst=2)
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=4, **GAME)
    table = joined["table"]
    await join(bob, table=table, name="Bob")
    for text in ("one", "two"):
        await bob.ok({"type": "say", "table": table, "text": text})
    await bob.error({"type": "say", "table": table, "text": "three"}, "limit/exceeded")
    await bob.ok({"type": "sit", "table": table, "seat": 2})
    await bob.error({"type": "say", "table": table, "text": "three"}, "limit/exceeded")
    await ann.ok({"type": "say", "table": table, "text": "mine is my own"})
