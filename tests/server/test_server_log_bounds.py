"""Issue 12, finding 4: a table's log is bounded, reading it is bounded, and idle changes are limited.

Before: every re-sent ``resume`` and every seat moved in the lobby committed a
new version (about 16 a second per connection), each pushed to every member
and each restarting the table's expiry; the log grew without bound and
``watch since=0`` read all of it at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from server_helpers import host, join, play


async def test_resume_from_the_connection_that_holds_the_seat_commits_nothing(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2)
    bobs = await join(bob, code=joined["code"], name="Bob")
    table = joined["table"]
    before = bob.version
    for _ in range(30):
        reply = await bob.request({"type": "resume", "table": table, "token": bobs["token"]})
        assert reply["type"] == "joined", reply
        await bob.until(lambda m: m["type"] == "state")
    assert bob.version == before, "a resume that changes nothing makes no new version"


async def test_changes_of_one_table_are_limited(serve: Any, connect: Any) -> None:
    server = await serve(table_changes_per_s=2.0, table_changes_burst=5)
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=3)
    table = joined["table"]
    bobs = await join(bob, code=joined["code"], name="Bob")
    start = ann.version
    refused = 0
    # Bob's seat taken by a new connection as fast as it can ask (each closes the one before
    # with 4001): each take is a change of the table.
    for _ in range(20):
        wire = await connect(server)
        reply = await wire.request({"type": "resume", "table": table, "token": bobs["token"]})
        if reply["type"] == "error":
            assert reply["code"] == "limit/exceeded", reply
            refused += 1
    await asyncio.sleep(0.2)
    await ann.ok({"type": "ping"})
    assert refused >= 10, refused
    # Ann's picture moved by at most the burst and what the rate refilled meanwhile.
    while True:
        try:
            await ann.recv(timeout=0.2)
        except TimeoutError:
            break
    assert ann.version - start <= 5 + 4, (start, ann.version)


async def test_nobody_is_locked_out_of_coming_back(serve: Any, connect: Any) -> None:
    """A stranger's joins refused after the start, and another seat's resumes over and over,
    spend nothing of what a person needs to take their seat back (a hostile player locked a
    disconnected one out: both drew on the table's one budget)."""
    server = await serve(table_changes_per_s=1.0, table_changes_burst=3, grace_s=600)
    ann, bob, cat = await connect(server), await connect(server), await connect(server)
    joined = await host(ann, seats=3)
    table = joined["table"]
    bobs = await join(bob, code=joined["code"], name="Bob")
    cats = await join(cat, code=joined["code"], name="Cat")
    await ann.ok({"type": "start", "table": table})
    await bob.close()  # Bob is away
    stranger = await connect(server)
    for i in range(10):
        await stranger.error({"type": "join", "table": table, "name": f"Eve{i}"}, "table/not_lobby")
    for _ in range(10):  # Cat takes her own seat again and again, from fresh connections
        wire = await connect(server)
        await wire.request({"type": "resume", "table": table, "token": cats["token"]})
    back = await connect(server)
    reply = await back.request({"type": "resume", "table": table, "token": bobs["token"]})
    assert reply["type"] == "joined", reply


async def long_game(ann: Any, versions: int) -> str:
    """A long match (to 1000 points) of Ann against a bot, played past table version ``versions``."""
    joined = await host(ann, seats=2, options={"preset": "house", "target": 1000})
    table: str = joined["table"]
    await ann.ok({"type": "seat", "table": table, "seat": 1, "to": "bot"})
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=lambda w: w.version >= versions, timeout=60)
    return table


async def test_the_log_keeps_the_latest_versions_and_a_watch_from_zero_reads_a_few(serve: Any, connect: Any) -> None:
    server = await serve(log_keep=60, max_resume_updates=20)
    ann = await connect(server)
    table = await long_game(ann, 200)
    store = server.store
    kept = await store.log_since(table, -1)
    assert len(kept) == 60 and kept[-1][0] >= 200, (len(kept), kept[-1][0])
    watcher = await connect(server)
    await watcher.send({"type": "watch", "id": 1, "table": table, "since": 0})
    state = await watcher.until(lambda m: m["type"] == "state")
    updates = [m for m in watcher.seen if m["type"] == "update"]
    assert 0 < len(updates) <= 20 and state["seat"] is None


async def test_replaying_missed_versions_is_budgeted_per_address(serve: Any, connect: Any) -> None:
    """Each replayed version is a frame with the whole table and view: a client asking for them
    again and again (``watch`` from 0, closing, again) is given fewer, then none, and the
    ``state`` each time (a hostile player had a process send 500 frames per 60-byte request)."""
    server = await serve(log_keep=60, max_resume_updates=20, replay_per_s=0.5, replay_burst=30)
    ann = await connect(server)
    table = await long_game(ann, 60)
    replayed = []
    for _ in range(4):
        watcher = await connect(server)
        await watcher.send({"type": "watch", "id": 1, "table": table, "since": 0})
        state = await watcher.until(lambda m: m["type"] == "state")
        assert state["seat"] is None and state["version"] >= 60  # the whole picture, every time
        replayed.append(sum(1 for m in watcher.seen if m["type"] == "update"))
        await watcher.close()
    assert replayed[0] == 20 and replayed[1] <= 11 and replayed[2] <= 1 and replayed[3] <= 1, replayed


async def test_the_hosts_resume_without_its_host_token_keeps_the_host(serve: Any, connect: Any) -> None:
    """An outside client's trial: the host's own connection resumed its seat (to catch up) without
    repeating its host token; that dropped its host rights, and its rematch was ``auth/not_host``.
    A resume from the connection that holds the seat changes nothing, the host's rights included;
    another connection resuming the seat without the host token gets the seat only."""
    server = await serve()
    ann = await connect(server)
    joined = await host(ann, seats=2)
    table = joined["table"]
    reply = await ann.request({"type": "resume", "table": table, "token": joined["token"]})
    assert reply["type"] == "joined", reply
    state = await ann.until(lambda m: m["type"] == "state")
    assert state["is_host"] is True
    await ann.ok({"type": "talk_policy", "table": table, "chat": "off"})
    other = await connect(server)
    reply = await other.request({"type": "resume", "table": table, "token": joined["token"]})
    assert reply["type"] == "joined", reply
    state = await other.until(lambda m: m["type"] == "state")
    assert state["is_host"] is False
