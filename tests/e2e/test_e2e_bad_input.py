"""Issue 3, "Done when" 5: bad input gets its documented answer (PROTOCOL.md 5, 6), and changes nothing.

Each test opens two running tables on one server: the *target* (Ann and Bob,
a spectator) and an *other* table (Cat and a bot). After every bad input:
the target is unchanged (no update reached its spectator, its version and
every view are as before) and the other table still plays (Cat's move applies).

Cost: about 5 s (the flood test runs until the server closes the connection,
which takes ``flood_close_s`` = 3 s by default).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

import pytest
from e2e_harness import ServerProcess
from e2e_helpers import Table, open_table, start
from meja_client import Client, ConnectionClosed, ServerError, encode

DRAW = {"kind": "draw"}


@dataclass
class World:
    url: str
    target: Table
    spectator: Client
    other: Table
    snapshot: tuple

    def picture(self) -> tuple:
        ann, bob = self.target.humans
        return (self.spectator.version, ann.version, bob.version, ann.view, bob.view, self.spectator.view)


@pytest.fixture
async def world(memory_server, clients) -> World:
    url = memory_server.url
    target = await open_table(clients, url, humans=2, bots=0, grace_s=600)
    spectator = await clients(url)
    await spectator.watch(table=target.id)
    await start(target)
    other = await open_table(clients, url, humans=1, bots=1, grace_s=600)
    await start(other)
    world = World(url, target, spectator, other, ())
    world.snapshot = world.picture()
    return world


async def assert_nothing_changed(world: World) -> None:
    """The target table is as it was, and the other table still takes a move."""
    ann = world.target.host
    await ann.ping()  # a round trip on the target's own connection: anything queued has arrived
    await world.spectator.ping()
    assert world.picture() == world.snapshot
    cat = world.other.host
    await cat.wait_for(lambda c: c.view is not None and c.view["legal"])
    before = cat.version
    await cat.act(cat.view["legal"][0])
    assert cat.version > before


async def closed_with(client: Client, frame: bytes | str) -> int | None:
    await client.send_raw(frame)
    return await client.wait_closed()


async def test_random_bytes_close_4000(world, clients):
    client = await clients(world.url)
    assert await closed_with(client, bytes.fromhex("c1") + secrets.token_bytes(64)) == 4000
    assert not client.errors  # a malformed frame gets no reply, only the close code
    await assert_nothing_changed(world)


async def test_text_frame_and_non_map_close_4000(world, clients):
    for frame in ('{"type": "ping"}', b"\x92\x01\x02", encode({"type": "ping"}) + b"\x00"):
        client = await clients(world.url)
        assert await closed_with(client, frame) == 4000, frame
    await assert_nothing_changed(world)


async def test_frame_over_the_limit_closes_1009(world, clients):
    client = await clients(world.url)
    limit = client.welcome["limits"]["max_frame_bytes"]
    big = encode({"type": "ping", "id": "x" * 10}) + b"\x00" * (limit + 1 - 20)
    assert len(big) > limit
    assert await closed_with(client, big) == 1009
    await assert_nothing_changed(world)


async def test_wrong_types_and_unknown_kinds_get_errors_and_keep_the_connection(world, clients):
    ann = world.target.host
    client = await clients(world.url)
    cases = [
        ({"type": "act", "id": 1, "table": world.target.id, "version": "7", "action": DRAW}, "protocol/bad_message"),
        ({"type": "act", "id": 2, "table": world.target.id, "version": True, "action": DRAW},
         "protocol/bad_message"),
        ({"type": "act", "id": 3, "table": 5, "version": 1, "action": DRAW}, "protocol/bad_message"),
        ({"type": "join", "id": 4, "code": world.target.code, "name": ""}, "protocol/bad_message"),
        ({"type": "join", "id": 5, "code": world.target.code, "name": "x" * 25}, "protocol/bad_message"),
        ({"type": "ping", "id": 6, "extra": 1}, "protocol/bad_message"),
        ({"type": "dance", "id": 7}, "protocol/unknown_type"),
        ({"id": 8}, "protocol/bad_message"),
        ({"type": "hello", "id": 9, "protocol": 1, "client": ["not", "a", "string"]}, "protocol/bad_message"),
    ]
    for message, code in cases:
        await client.send(message)
        error = await client.wait_for(lambda c, i=message["id"]: next((e for e in c.errors if e.get("re") == i), None))
        assert error["code"] == code, (message, error)
        assert error["message"], error
    await client.ping()
    assert not client.closed
    # An action that is no action of this game, on the seat's own connection.
    with pytest.raises(ServerError) as refused:
        await ann.act({"kind": "fold"})
    assert refused.value.code == "action/bad_action"
    with pytest.raises(ServerError) as refused:
        await ann.act({"kind": "play", "card": "11X"})
    assert refused.value.code == "action/bad_action"
    await assert_nothing_changed(world)


async def test_acting_out_of_turn_for_another_seat_or_on_a_stale_version(world, clients):
    ann, bob = world.target.humans
    assert ann.view["turn"] == 0
    with pytest.raises(ServerError) as refused:
        await bob.act(DRAW)
    assert refused.value.code == "action/not_your_turn"
    # There is no seat field: a connection acts only for the seat it holds. Not seated here:
    with pytest.raises(ServerError) as refused:
        await world.spectator.act(DRAW)
    assert refused.value.code == "auth/not_seated"
    cat = world.other.host
    await cat.send({"type": "act", "id": 99, "table": world.target.id, "version": ann.version, "action": DRAW})
    error = await cat.wait_for(lambda c: next((e for e in c.errors if e.get("re") == 99), None))
    assert error["code"] == "auth/not_seated"
    await ann.send({"type": "act", "id": 98, "table": world.target.id, "version": ann.version, "action": DRAW,
                    "seat": 1})
    error = await ann.wait_for(lambda c: next((e for e in c.errors if e.get("re") == 98), None))
    assert error["code"] == "protocol/bad_message"
    # Playing a card Ann does not hold, and acting on an old version.
    not_mine = next(c for c in ("2C", "3D", "4H", "5S", "6C") if c not in ann.view["hand"])
    with pytest.raises(ServerError) as refused:
        await ann.act({"kind": "play", "card": not_mine})
    assert refused.value.code == "action/illegal"
    with pytest.raises(ServerError) as refused:
        await ann.act(DRAW, version=ann.version - 1)
    assert refused.value.code == "action/stale_version"
    # Host-only requests from a player who is not the host.
    with pytest.raises(ServerError) as refused:
        await bob.rematch()
    assert refused.value.code in ("auth/not_host", "table/not_playing")
    await assert_nothing_changed(world)


async def test_wrong_or_expired_token_and_wrong_room_code(world, clients):
    client = await clients(world.url)
    target = world.target
    for token in (secrets.token_urlsafe(16), world.other.host.token, target.humans[1].token[:-1] + "x"):
        if token == target.humans[1].token:
            continue
        with pytest.raises(ServerError) as refused:
            await client.resume(table=target.id, token=token)
        assert refused.value.code == "auth/bad_token"
    with pytest.raises(ServerError) as refused:
        await client.resume(table=target.id, token=target.humans[1].token, host_token=secrets.token_urlsafe(16))
    assert refused.value.code == "auth/bad_token"
    # A token whose seat was given up no longer opens it.
    lobby = await open_table(clients, world.url, humans=2, bots=0)
    leaver = lobby.humans[1]
    await leaver.leave()
    with pytest.raises(ServerError) as refused:
        await client.resume(table=lobby.id, token=leaver.token)
    assert refused.value.code == "auth/bad_token"
    # Wrong room codes and table ids.
    wrong = "ZZZZZZ" if target.code != "ZZZZZZ" else "YYYYYY"
    with pytest.raises(ServerError) as refused:
        await client.join(code=wrong, name="Zed")
    assert refused.value.code == "table/not_found"
    with pytest.raises(ServerError) as refused:
        await client.watch(table="0" * 32)
    assert refused.value.code == "table/not_found"
    with pytest.raises(ServerError) as refused:
        await client.join(code=target.code, name="Zed")  # the target has no free seat
    assert refused.value.code in ("table/full", "table/not_lobby")
    assert not client.closed
    await assert_nothing_changed(world)


async def test_wrong_room_codes_are_rate_limited_per_address(clients):
    server = ServerProcess("memory", name="codes", env={"MEJA_CODE_ATTEMPTS": "5", "MEJA_CODE_WINDOW_S": "600"})
    await server.astart()
    try:
        host = await clients(server.url)
        joined = await host.host(seats=2, name="Ann")
        client = await clients(server.url)
        codes = []
        for n in range(8):
            try:
                await client.join(code=f"ZZZZZ{n}", name="Zed")
            except ServerError as exc:
                codes.append(exc.code)
        assert codes[0] == "table/not_found" and codes[-1] == "table/code_rate_limited", codes
        # The limit is on lookups by code; the table itself is fine and its host unaffected.
        await host.ping()
        assert host.table["id"] == joined["table"]
    finally:
        await asyncio.to_thread(server.close)


async def test_flood_from_one_connection_is_limited_then_closed_4002(world, clients):
    flooder = await clients(world.url, pace=False)
    ann = world.target.host

    async def flood() -> int:
        sent = 0
        while not flooder.closed and sent < 200_000:
            try:
                await flooder.send({"type": "ping", "id": sent})
            except ConnectionClosed:
                break
            sent += 1
            if sent % 50 == 0:
                await asyncio.sleep(0.05)  # about 1000 messages/s: far over 20/s, for seconds
        return sent

    sent = await asyncio.wait_for(flood(), 60)
    assert await flooder.wait_closed() == 4002, flooder.close_code
    limited = [e for e in flooder.errors if e["code"] == "protocol/rate_limited"]
    assert limited, "no protocol/rate_limited error before the close"
    assert sent > 40
    await ann.ping()  # other connections are unaffected
    await assert_nothing_changed(world)


async def test_unsupported_protocol_version_closes_4003(world, clients):
    client = await clients(world.url, hello=False)
    with pytest.raises(ServerError) as refused:
        await client.hello(protocol=2)
    assert refused.value.code == "protocol/version"
    assert await client.wait_closed() == 4003
    await assert_nothing_changed(world)


async def test_only_the_sender_gets_re_and_tables_per_connection_are_limited(world, clients):
    ann, bob = world.target.humans
    answer = await ann.act(ann.view["legal"][0])
    version = answer["version"]
    await bob.wait_for(lambda c: c.version >= version)
    theirs = [u for u in bob.updates if u["version"] == version]
    assert theirs and all("re" not in u for u in theirs), "another connection's reply id leaked to bob"
    # A connection may sit at or watch at most max_tables_per_connection tables (limit/exceeded past it).
    limit = ann.welcome["limits"]["max_tables_per_connection"]
    watcher = await clients(world.url)
    ids = [world.target.id, world.other.id]
    for _ in range(limit - 2):
        lobby = await clients(world.url)
        ids.append((await lobby.host(seats=2, name="Lou"))["table"])
    for table_id in ids:
        await watcher.watch(table=table_id)
    extra = await clients(world.url)
    one_more = (await extra.host(seats=2, name="Max"))["table"]
    with pytest.raises(ServerError) as refused:
        await watcher.watch(table=one_more)
    assert refused.value.code == "limit/exceeded"
