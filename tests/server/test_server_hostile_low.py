"""The low findings of a hostile player's report (L1-L6): one code for a time out of range however
far (test_server_errors.py), a mistyped deal code blamed on its check character, not on another
game's length, and the frame encoding limits in ``welcome.limits``."""

from __future__ import annotations

from typing import Any

# An Eighty-Three deal code with its check character changed (29 characters: Crazy Eights' are 30).
MISTYPED_83 = "0EC28-SQV5C-HM4S2-VKC42-E1JMNTMED"


async def test_a_mistyped_deal_code_is_blamed_on_its_check_character(serve: Any, connect: Any) -> None:
    ann = await connect(await serve())
    refused = await ann.error({"type": "host", "name": "Ann", "deal_code": MISTYPED_83}, "deal/bad_code")
    assert "check character" in refused["message"], refused
    assert "Crazy Eights" not in refused["message"], refused


async def test_welcome_lists_the_frame_encoding_limits(serve: Any, connect: Any) -> None:
    server = await serve(max_str_bytes=900, max_array_len=100, max_map_len=40, max_depth=6)
    wire = await connect(server)
    welcome = next(m for m in wire.seen if m["type"] == "welcome")
    limits = welcome["limits"]
    assert (limits["max_str_bytes"], limits["max_array_len"], limits["max_map_len"], limits["max_depth"]) == (
        900,
        100,
        40,
        6,
    )


async def test_a_spectator_leaves_a_table_it_watches(serve: Any, connect: Any) -> None:
    server = await serve(max_tables_per_connection=2)
    ann, bob, sam = await connect(server), await connect(server), await connect(server)
    first = (await ann.ok({"type": "host", "name": "Ann", "seats": 2}))["table"]
    second = (await bob.ok({"type": "host", "name": "Bob", "seats": 2}))["table"]
    third = (await (await connect(server)).ok({"type": "host", "name": "Cat", "seats": 2}))["table"]
    await sam.ok({"type": "watch", "table": first})
    await sam.ok({"type": "watch", "table": second})
    await sam.error({"type": "watch", "table": third}, "limit/exceeded")
    # Sam stops watching the first table: a pong, and room for another table.
    assert (await sam.ok({"type": "leave", "table": first}))["type"] == "pong"
    await sam.ok({"type": "watch", "table": third})
    # Nothing of the first table reaches Sam any more.
    seen = len(sam.seen)
    await ann.ok({"type": "seat", "table": first, "seat": 1, "to": "bot"})
    await sam.ok({"type": "ping"})
    await ann.ok({"type": "ping"})
    await sam.ok({"type": "ping"})
    assert not any(m.get("table", {}).get("id") == first for m in sam.seen[seen:] if isinstance(m.get("table"), dict))
    # A host without a seat leaves its lobby's screen the same way; the table is not changed.
    tv = await connect(server)
    lobby = (await tv.ok({"type": "host", "name": "TV", "seated": False, "seats": 2}))["table"]
    assert (await tv.ok({"type": "leave", "table": lobby}))["type"] == "pong"
    await tv.error({"type": "leave", "table": lobby}, "auth/not_seated")  # not at the table any more
