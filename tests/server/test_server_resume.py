"""Resume (PROTOCOL.md 4): the seat token brings a connection back exactly where it was.

Cost: well under a second per test and store.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from server_helpers import assert_contiguous, host, join, play

STORES = ["memory", "redis"]
#: every test here runs with whole views and with patches (PROTOCOL.md 7.4)
pytestmark = pytest.mark.usefixtures("frame_form")
DRAW = {"kind": "draw"}


async def _act(wire: Any, table: str, action: dict[str, Any]) -> dict[str, Any]:
    reply = await wire.ok({"type": "act", "table": table, "version": wire.version, "action": action})
    assert reply["type"] == "update"
    return reply


@pytest.mark.parametrize("store", STORES)
async def test_cut_after_two_draws_resumes_exactly(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    ann, bob, spectator = await connect(server), await connect(server), await connect(server)
    joined = await host(ann, seats=2, grace_s=600)
    table = joined["table"]
    await join(bob, table=table, name="Bob")
    await spectator.ok({"type": "watch", "table": table})
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update" and m["view"] is not None)
    assert ann.view["turn"] == 0  # docs/rules/crazy-eights.md 1.2.1: the host's seat leads round 1
    await _act(ann, table, DRAW)
    await _act(ann, table, DRAW)
    before, since = ann.view, ann.version
    assert (before["draws_taken"], before["draws_left"]) == (2, 1)  # T-CE-14

    ann.ws.transport.abort()  # a network cut: no closing handshake
    await spectator.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["connected"])
    assert any(e["kind"] == "away" for e in spectator.seen[-1]["events"])
    await bob.until(lambda m: m["type"] == "update" and m["version"] == spectator.version)

    again = await connect(server)
    reply = await again.ok({"type": "resume", "table": table, "token": joined["token"], "since": since})
    assert reply["type"] == "joined" and reply["seat"] == 0 and reply["token"] == joined["token"]
    assert "host_token" not in reply  # not asked for: not sent
    state = await again.until(lambda m: m["type"] == "state")
    replayed = [m for m in again.seen if m["type"] == "update"]
    assert [u["version"] for u in replayed] == list(range(since + 1, state["version"] + 1))
    await spectator.until(lambda m: m["type"] == "update" and m["version"] == state["version"])
    seen_by_spectator = {m["version"]: m["events"] for m in spectator.seen if m["type"] == "update"}
    for update in replayed:
        assert update["events"] == seen_by_spectator[update["version"]]
    view = state["view"]
    assert view == before, "the resumed view differs from the view before the cut"
    assert state["table"]["seats"][0]["connected"] and not state["is_host"]
    # The seat plays on from where it was: the third and last draw of this turn.
    await _act(again, table, DRAW)
    assert again.view["draws_left"] == 0 or again.view["turn"] != 0
    assert DRAW not in again.view["legal"]


@pytest.mark.parametrize("store", STORES)
async def test_new_connection_replaces_old_one(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2, options={"target": 20})
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")

    bob2 = await connect(server)
    await bob2.ok({"type": "resume", "table": table, "token": mine["token"]})
    assert await bob.closed() == 4001
    # The host's tokens give both the seat and the host's rights back on a new connection.
    await ann.close()
    ann2 = await connect(server)
    reply = await ann2.ok(
        {"type": "resume", "table": table, "token": joined["token"], "host_token": joined["host_token"]}
    )
    assert reply["host_token"] == joined["host_token"]
    state = await ann2.until(lambda m: m["type"] == "state")
    assert state["is_host"] and state["seat"] == 0
    await ann2.ok({"type": "start", "table": table})
    await bob2.until(lambda m: m["type"] == "update" and m["view"] is not None)
    await asyncio.gather(play(ann2, table), play(bob2, table))
    assert_contiguous(bob2)


async def test_wrong_tokens_change_nothing(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, intruder = await connect(server), await connect(server)
    joined = await host(ann, seats=2)
    table = joined["table"]
    version = ann.version
    token = joined["token"]
    wrong = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    await intruder.error({"type": "resume", "table": table, "token": wrong}, "auth/bad_token")
    await intruder.error({"type": "resume", "table": table, "token": token, "host_token": wrong}, "auth/bad_token")
    await intruder.error({"type": "resume", "table": "f" * 32, "token": token}, "table/not_found")
    await ann.ok({"type": "ping"})
    assert ann.version == version, "a refused resume changed the table"
    assert ann.ws.close_code is None


@pytest.mark.parametrize("store", STORES)
async def test_a_connection_holding_a_seat_cannot_resume_another(store: str, serve: Any, connect: Any) -> None:
    """One seat a connection at a table (PROTOCOL.md 5): Ann's connection presenting Bob's token is
    refused, Bob keeps his seat and his connection, and nothing changes. Taken, Bob's seat was left
    marked connected with nobody behind it, so no bot ever played for it (an outside client's finding)."""
    server = await serve(redis=store == "redis")
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2, options={"target": 20}, grace_s=0)
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update" and m["view"] is not None)
    await ann.ok({"type": "ping"})
    version = ann.version
    await ann.error({"type": "resume", "table": table, "token": mine["token"]}, "seat/taken")
    await ann.ok({"type": "ping"})
    await bob.ok({"type": "ping"})
    assert ann.version == version and bob.ws.close_code is None, "a refused resume changed the table"
    assert ann.state is not None and ann.state["seat"] == 0 and ann.state["is_host"]
    # Her own token on her own connection is still answered as before (nothing changes).
    await ann.ok({"type": "resume", "table": table, "token": joined["token"]})
    assert ann.version == version
    # Both still play the match to its end.
    await asyncio.gather(play(ann, table), play(bob, table))


async def test_spectator_catches_up_with_since(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, spectator = await connect(server), await connect(server)
    table = (await host(ann, seats=2))["table"]
    first = await spectator.ok({"type": "watch", "table": table})
    await ann.ok({"type": "start", "table": table})
    await spectator.until(lambda m: m["type"] == "update")
    since = spectator.version
    await spectator.close()
    await _act(ann, table, DRAW)
    later = await connect(server)
    await later.ok({"type": "watch", "table": table, "since": since})
    replayed = [m for m in later.seen if m["type"] == "update"]
    assert [m["version"] for m in replayed] == list(range(since + 1, later.version + 1))
    draws = [e for m in replayed for e in m["events"] if e["kind"] == "draw"]
    assert draws and all("card" not in e for e in draws)
    assert later.view["hand"] is None and first["seat"] is None


@pytest.mark.parametrize("store", STORES)
async def test_watch_since_while_the_last_member_leaves(store: str, serve: Any, connect: Any) -> None:
    """Issue 12, finding 11: a ``watch`` with ``since`` reads the log with the table cached but
    not yet attached; if the last local connection at the table leaves meanwhile, the cache
    used to be dropped under it (``Hub.attach``: KeyError, the watcher got ``internal``)."""
    server = await serve(redis=store == "redis")
    ann, bob, watcher = await connect(server), await connect(server), await connect(server)
    joined = await host(ann, seats=3)
    table = joined["table"]
    reading, go_on = asyncio.Event(), asyncio.Event()
    read_log = server.store.log_since

    async def slow_log_since(table_id: str, after: int) -> Any:
        if table_id == table and not go_on.is_set():
            reading.set()
            await go_on.wait()  # the watcher's read of the missed versions, held open
        return await read_log(table_id, after)

    server.store.log_since = slow_log_since  # type: ignore[method-assign]
    await watcher.send({"type": "watch", "id": 1, "table": table, "since": 0})
    await asyncio.wait_for(reading.wait(), 5)
    await ann.close()  # the table's last local member leaves
    async with asyncio.timeout(5):
        while len(server.sessions) > 2:
            await asyncio.sleep(0.01)
    go_on.set()
    reply = await watcher.until(lambda m: m.get("re") == 1)
    assert reply["type"] == "state", reply
    cached = server.hub.cached(table)
    assert cached is not None and len(cached.members) == 1  # the watcher
    # The watcher is attached to a live cache: a later change reaches it.
    await join(bob, table=table, name="Bob")
    update = await watcher.until(lambda m: m["type"] == "update" and m["version"] > reply["version"])
    assert update["table"]["seats"][1]["name"] == "Bob"


async def test_returns_to_a_seat_are_counted_across_processes(serve: Any, connect: Any) -> None:
    """Issue 25, finding 1: a seat resumed from a new connection again and again, alternating
    between two processes, made 11 versions a second (each a ``connected`` pushed to everyone),
    since its resumes were counted per process. The store counts them now."""
    a = await serve(redis=True, seat_resumes_per_min=6, table_changes_burst=100)
    b = await serve(redis=True, seat_resumes_per_min=6, table_changes_burst=100)
    ann, bob = await connect(a), await connect(b)
    hosted = await host(ann, seats=2)
    table = hosted["table"]
    token = (await join(bob, table=table, name="Bob"))["token"]
    codes = []
    for n in range(8):
        wire = await connect(a if n % 2 else b)
        reply = await wire.request({"type": "resume", "table": table, "token": token})
        codes.append(reply["code"] if reply["type"] == "error" else reply["type"])
    assert codes[:6] == ["joined"] * 6 and codes[6:] == ["limit/exceeded"] * 2, codes
    # Another seat's returns are its own.
    again = await connect(b)
    assert (await again.request({"type": "resume", "table": table, "token": hosted["token"]}))["type"] == "joined"


async def test_an_away_seat_says_when_a_bot_takes_over(serve: Any, connect: Any) -> None:
    """Issue 20, point 9: the table map says when a bot starts playing for an absent player, so
    every page counts down to the same moment, after a reload too."""
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    hosted = await host(ann, seats=2, grace_s=90)
    table = hosted["table"]
    await join(bob, table=table, name="Bob")
    await ann.ok({"type": "start", "table": table})
    before = time.time() * 1000
    await bob.close()
    update = await ann.until(lambda m: m["type"] == "update" and any(e["kind"] == "away" for e in m["events"]))
    seat = update["table"]["seats"][1]
    assert seat["connected"] is False and before + 89_000 <= seat["bot_at"] <= time.time() * 1000 + 90_000
    assert "bot_at" not in update["table"]["seats"][0]
