"""Never wait forever: grace periods, bots for absent players, turn limits, ready timeouts,
dead processes, and time while no server ran.

Cost: about 3 s in all (memory store; timers of a few hundred milliseconds).
"""

from __future__ import annotations

import asyncio
from typing import Any

from meja.server import audit
from meja.server.records import Table, decode_entry
from meja.store import MemoryStore
from server_helpers import host, join, play


async def replayed(server: Any, table_id: str) -> audit.Replay:
    """The table's log, read from the server's own store and replayed through the rules
    (:func:`meja.server.audit.replay`: it raises when a version is not what the rules give)."""
    store = server.service.store
    version, raw = await store.load(table_id)
    log = [(v, decode_entry(e)) for v, e in await store.log_since(table_id, -1) if v <= version]
    return audit.replay(table_id, version, Table.from_bytes(raw), log)


def _update(kind: str, seat: int | None = None) -> Any:
    def match(m: dict[str, Any]) -> bool:
        return m["type"] == "update" and any(
            e["kind"] == kind and (seat is None or e.get("seat") == seat) for e in m["events"]
        )

    return match


async def test_absent_player_gets_a_bot_then_the_seat_back(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2, grace_s=1)
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update")
    await bob.close()
    await ann.until(_update("away", 1))
    # Ann plays her turn out (with no card to play she draws, up to three, then passes: one action
    # did not always end it); Bob's seat is awaited, and after the grace period a bot plays for him.
    await play(ann, table, until=lambda w: w.view is not None and w.view["turn"] != 0)
    auto = await ann.until(_update("auto", 1), timeout=5)
    assert auto["table"]["seats"][1]["auto"] and auto["table"]["seats"][1]["level"] == "normal"
    moved = await ann.until(lambda m: m["type"] == "update" and any(e.get("seat") == 1 for e in m["events"]))
    assert any(e["kind"] in ("play", "draw", "pass") for e in moved["events"])
    # Bob comes back: the seat is his at once (no bot plays it any more).
    again = await connect(server)
    await again.ok({"type": "resume", "table": table, "token": mine["token"]})
    state = await again.until(lambda m: m["type"] == "state")
    assert not state["table"]["seats"][1]["auto"] and state["table"]["seats"][1]["connected"]
    if state["view"]["turn"] == 1 and state["view"]["phase"] == "play":
        version = state["version"]
        await asyncio.sleep(0.2)  # several bot pauses: the bot must not act for him now
        assert again.version == version


async def test_turn_limit_draws_then_plays(serve: Any, connect: Any) -> None:
    server = await serve(turn_limit_min_s=1)
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2, turn_limit_s=1)
    table = joined["table"]
    await join(bob, code=joined["code"], name="Bob")
    started = await ann.ok({"type": "start", "table": table})
    deadline = started["table"]["turn_deadline_ms"]
    assert started["table"]["turn_limit_s"] == 1 and deadline > 0
    # Ann does nothing: her turn limit runs out and she draws (house: up to 3), at a bot's pace after the first.
    timeout = await ann.until(_update("timeout", 0), timeout=5)
    assert timeout["events"][0] == {"kind": "timeout", "seat": 0, "limit": "turn"}
    assert [e["kind"] for e in timeout["events"]][1:3] in (["draw"], ["draw", "turn"], ["reshuffle", "draw"]) or (
        timeout["events"][1]["kind"] == "draw"
    )
    while ann.view["turn"] == 0:
        await ann.until(lambda m: m["type"] == "update")
    timeouts = [e for m in ann.seen if m["type"] == "update" for e in m["events"] if e["kind"] == "timeout"]
    assert 1 <= len(timeouts) <= 4
    assert ann.table["turn_deadline_ms"] >= deadline
    # The moves the time limit made are in the log as Ann's, each marked by its timeout, and the
    # rules replay them to the stored state (the audit accounts for them as the server's).
    rep = await replayed(server, table)
    made = audit.server_made(rep, 0)
    ann_moves = [v for v, seat, _ in rep.actions if seat == 0]
    assert ann_moves and set(ann_moves) <= made
    assert len(made) == len(timeouts)


async def test_ready_timeout_deals_the_next_round(serve: Any, connect: Any) -> None:
    from server_helpers import play

    server = await serve(ready_timeout_s=1)
    ann = await connect(server)
    table = (await host(ann, seats=2))["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=lambda w: w.view["phase"] != "play")
    assert ann.view["phase"] == "round_over"
    ready = await ann.until(_update("timeout", 0), timeout=5)
    assert {"kind": "timeout", "seat": 0, "limit": "ready"} in ready["events"]
    assert any(e["kind"] == "round_start" for e in ready["events"]) or ann.view["round"] == 2
    # The ready the time limit gave for Ann replays through the rules as a move the server made.
    rep = await replayed(server, table)
    ready_v = next(v for v, entry in rep.log for e in entry if e.kind == "timeout" and e.data.get("limit") == "ready")
    assert (ready_v, 0) in {(v, seat) for v, seat, _ in rep.actions} and ready_v in audit.server_made(rep, 0)


async def test_dead_process_players_count_as_away(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, spectator = await connect(server), await connect(server)
    joined = await host(ann, seats=2, grace_s=0)
    table = joined["table"]
    await spectator.ok({"type": "watch", "table": table})
    await ann.ok({"type": "start", "table": table})
    # Seat 0 is now held by a process that died (it never heartbeats): Ann's connection
    # here is replaced (4001), and the check finds the holder gone.
    from meja.server import tables as t

    def ghost(tbl: Any, version: int, now: int) -> Any:
        return t.Mutation(tbl.with_seat(0, conn=("deadbeef0000", "c1")), ())

    await server.service.commit(table, ghost)
    assert await ann.closed() == 4001
    away = await spectator.until(_update("away", 0), timeout=5)
    assert not away["table"]["seats"][0]["connected"]
    auto = await spectator.until(_update("auto", 0), timeout=5)
    assert auto["table"]["seats"][0]["auto"]


async def test_downtime_is_given_back_to_timers() -> None:
    from meja.server.settings import Settings
    from meja.server.timers import Heartbeat
    from meja.store.base import Due

    clock = [1_000_000]
    store = MemoryStore(clock=lambda: clock[0])
    settings = Settings(downtime_s=10)
    await store.heartbeat("old", clock[0], 6000)
    await store.create("t1", "AAAAAA", b"r", b"e", ttl_ms=10**9)
    await store.commit("t1", 0, b"r", b"e", schedule=[Due("t1", "t1|turn|0|1.0", clock[0] + 5000)], ttl_ms=10**9)
    clock[0] += 3_600_000  # an hour with no server
    gap = await Heartbeat(store, "new", settings, clock=lambda: clock[0]).first()
    assert gap == 3_600_000
    assert await store.next_due_ms() == 1_000_000 + 5000 + 3_600_000
    # A short gap (a rolling restart) moves nothing.
    clock[0] += 2000
    assert await Heartbeat(store, "newer", settings, clock=lambda: clock[0]).first() == 0



async def test_a_seat_marked_away_under_a_silent_connection_answers_stale(serve: Any, connect: Any) -> None:
    """A process that stopped (SIGSTOP) for longer than the grace period finds its player's seat
    marked away by another process (nobody holds it) until it takes it back: the player's request
    meanwhile is refused as stale (decide again), never as "not seated", which tells a client its
    seat is gone (a hostile player's find). Checked on the seat check itself: in one process the
    live connection takes the seat back before its request is read."""
    import pytest
    from meja.protocol.errors import NotSeated, StaleVersion
    from meja.server.service import _check_seat

    server = await serve()
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2)
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "start", "table": table})
    _, raw = await server.service.store.load(table)
    record = Table.from_bytes(raw)
    conn = record.seats[1].conn
    assert conn is not None
    from meja.server.rooms import token_hash  # the record keeps the token's hash

    token = token_hash(mine["token"])
    _check_seat(record, 1, token, conn)  # held: passes
    with pytest.raises(StaleVersion):
        _check_seat(record.with_seat(1, conn=None), 1, token, conn)
    with pytest.raises(NotSeated):
        _check_seat(record.with_seat(1, conn=("elsewhere", "c9")), 1, token, conn)


async def test_a_commit_that_breaks_the_lifecycle_writes_nothing(serve: Any, connect: Any) -> None:
    """A change moving a table's status a way tables.LIFECYCLE does not list (here: back to the
    lobby from play) is refused by the commit path itself, and the store keeps the version it had."""
    from meja.protocol.errors import InternalError
    from meja.server import tables
    from meja.server.records import LOBBY

    server = await serve()
    ann = await connect(server)
    joined = await host(ann, seats=2)
    table = joined["table"]
    await ann.ok({"type": "start", "table": table})
    store = server.service.store
    before, _ = await store.load(table)

    def back_to_the_lobby(t: Table, version: int, now: int) -> tables.Mutation:
        return tables.Mutation(t.evolve(status=LOBBY), ())

    try:
        await server.service.commit(table, back_to_the_lobby, fresh=True)
    except InternalError as exc:
        assert "may not go from" in str(exc)
    else:
        raise AssertionError("the commit path let a table go from play back to the lobby")
    after, raw = await store.load(table)
    assert after == before and Table.from_bytes(raw).status != LOBBY
