"""Several server processes on one Redis serve the same tables; no process owns one.

Two ``MejaServer`` instances run in this event loop with their own process ids,
sharing one Redis (the session's private one, under a fresh prefix): changes
cross between them by pub/sub, timers are claimed by whichever is free, and a
seat token works on either. Killing real processes (``kill -9``) is tested
end to end in tests/e2e. Cost: about 3 s.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from server_helpers import assert_contiguous, assert_fair_deals, events, host, join, play


async def test_players_on_two_processes_play_one_match(serve: Any, connect: Any) -> None:
    a = await serve(redis=True)
    b = await serve(redis=True)
    assert a.process_id != b.process_id
    ann, bob = await connect(a), await connect(b)
    watch_a, watch_b = await connect(a), await connect(b)
    joined = await host(ann, seats=3, options={"target": 50})
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")
    assert mine["seat"] == 1 and mine["link"] == "https://meja.test/?join=" + joined["code"]
    await watch_a.ok({"type": "watch", "table": table})
    await watch_b.ok({"type": "watch", "code": joined["code"]})
    await ann.ok({"type": "start", "table": table})
    await asyncio.gather(play(ann, table), play(bob, table))
    for wire in (watch_a, watch_b):
        await wire.until(lambda m: m["type"] == "update" and m["view"]["phase"] == "match_over")
        assert_contiguous(wire)
    assert events(watch_a) == events(watch_b)
    assert assert_fair_deals(events(watch_b)) == watch_b.view["round"]
    assert ann.view["scores"] == bob.view["scores"] == watch_b.view["scores"]


async def test_resume_on_the_other_process_and_replacement_across_processes(serve: Any, connect: Any) -> None:
    a = await serve(redis=True)
    b = await serve(redis=True)
    ann, bob = await connect(a), await connect(b)
    joined = await host(ann, seats=2, grace_s=600, options={"target": 30})
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update")
    # Bob opens his seat on process A while still connected to B: B closes its connection with 4001.
    bob2 = await connect(a)
    await bob2.ok({"type": "resume", "table": table, "token": mine["token"], "since": bob.version})
    assert await bob.closed() == 4001
    state = await bob2.until(lambda m: m["type"] == "state")
    assert state["seat"] == 1 and state["view"]["hand"] == bob.view["hand"]
    # Ann is cut from A and comes back on B with everything she missed.
    since = ann.version
    ann.ws.transport.abort()
    await bob2.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["connected"])
    ann2 = await connect(b)
    await ann2.ok({"type": "resume", "table": table, "token": joined["token"], "since": since})
    state = await ann2.until(lambda m: m["type"] == "state")
    replayed = [m["version"] for m in ann2.seen if m["type"] == "update"]
    assert replayed == list(range(since + 1, state["version"] + 1))
    await asyncio.gather(play(ann2, table), play(bob2, table))


async def test_timers_go_on_when_a_process_stops(serve: Any, connect: Any) -> None:
    a = await serve(redis=True)
    b = await serve(redis=True)
    ann, bob = await connect(a), await connect(b)
    joined = await host(ann, seats=3, grace_s=0, options={"target": 30})
    table = joined["table"]
    await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update")
    await a.stop()  # Ann's process goes away (1001); its timers are B's to run now
    assert await ann.closed() == 1001
    auto = await bob.until(
        lambda m: m["type"] == "update" and any(e["kind"] == "auto" and e["seat"] == 0 for e in m["events"]), timeout=5
    )
    assert auto["table"]["seats"][0]["auto"]
    await play(bob, table, timeout=30)
    assert bob.view["phase"] == "match_over"


def _round_done(wire: Any) -> bool:
    return wire.view is not None and wire.view["phase"] != "play"


async def test_racing_requests_are_each_answered_once(serve: Any, connect: Any) -> None:
    """Three seats on two processes say ``ready`` at the same version. ``ready`` is a phase where
    seats act in any order, so none of them is stale (another seat's ``ready`` does not change
    one's own decision: ``State.epoch``): the commits race for the compare-and-set, the losers are
    recomputed on the fresh record, and every request gets exactly one answer, its own update."""
    a = await serve(redis=True)
    b = await serve(redis=True)
    ann, bob, cat = await connect(a), await connect(b), await connect(a)
    joined = await host(ann, seats=3, options={"match_mode": "wins", "rounds": 2})
    table = joined["table"]
    await join(bob, code=joined["code"], name="Bob")
    await join(cat, code=joined["code"], name="Cat")
    await ann.ok({"type": "start", "table": table})
    wires = (ann, bob, cat)
    ids = iter(range(10_000, 20_000))
    sent: dict[Any, list[int]] = {w: [] for w in wires}

    async def settle() -> None:
        await asyncio.sleep(0.05)
        for w in wires:
            with contextlib.suppress(TimeoutError):
                while True:
                    await w.recv(timeout=0.05)

    for _ in range(2):
        await asyncio.gather(*(play(w, table, until=_round_done) for w in wires))
        await settle()
        while all(w.view["phase"] == "round_over" for w in wires) and any(not all(w.view["ready"]) for w in wires):
            batch = []
            for w in wires:
                if w.view["legal"]:
                    rid = next(ids)
                    sent[w].append(rid)
                    batch.append(
                        w.send(
                            {
                                "type": "act",
                                "id": rid,
                                "table": table,
                                "version": w.version,
                                "action": {"kind": "ready"},
                            }
                        )
                    )
            await asyncio.gather(*batch)
            await settle()
        if ann.view["phase"] == "match_over":
            break
    for seat, w in enumerate(wires):
        answers = [m for m in w.seen if m.get("re", 0) >= 10_000 and m["type"] in ("update", "error")]
        assert sorted(m["re"] for m in answers) == sorted(sent[w]), "a request was answered twice, or not at all"
        for m in answers:
            assert m["type"] == "update", m  # never stale: the others' ready leaves one's own decision alone
            assert {"kind": "ready", "seat": seat} in m["events"], m["events"]
    assert all(len(sent[w]) == 1 for w in wires), "each seat's one ready, sent at the same version, was taken"


async def test_a_reply_whose_version_came_first_by_another_route_is_a_state(serve: Any, connect: Any) -> None:
    """PROTOCOL.md 8: if this process passed the version a request committed on to its
    connections before the commit's own delivery (it heard of a later version from another
    process first and caught up from the log), no ``update`` carried the reply; the request is
    answered then by a ``state`` with its ``re``, at the table's version by then. Planted here:
    Ann's commit on process A is held until B has committed the next version (Bob's connection
    drops) and A, whose pub/sub message of Ann's version is lost, has passed both on."""
    a = await serve(redis=True)
    b = await serve(redis=True)
    ann, bob = await connect(a), await connect(b)
    joined = await host(ann, seats=2, options={"target": 50})
    table = joined["table"]
    await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update")
    while not (ann.view and ann.view["legal"]):  # Bob plays until it is Ann's turn
        if bob.view and bob.view["legal"]:
            await play(bob, table, until=lambda w: not (w.view and w.view["legal"]))
        await ann.recv()
    committed, release = asyncio.Event(), asyncio.Event()
    real_commit = a.store.commit

    async def held_commit(*args: Any, **kwargs: Any) -> bool:
        ok: bool = await real_commit(*args, **kwargs)
        if ok and not committed.is_set():
            committed.set()
            await release.wait()
        return ok

    v = ann.version
    assert v is not None
    hub = a.hub
    real_apply = hub.apply

    async def lossy_apply(change: Any, table: Any = None, events: Any = None) -> None:
        if table is None and change.version == v + 1:
            return  # its pub/sub message is lost (as in a Redis restart): v + 2 brings it in
        await real_apply(change, table, events)

    hub.apply = lossy_apply  # type: ignore[method-assign]
    a.store.commit = held_commit  # type: ignore[method-assign]
    action = ann.view["legal"][0]
    await ann.send({"type": "act", "id": 77, "table": table, "version": v, "action": action})
    await asyncio.wait_for(committed.wait(), 5)
    a.store.commit = real_commit  # type: ignore[method-assign]
    bob.ws.transport.abort()  # B commits v + 2: Bob's connection is gone
    mine = await ann.until(lambda m: m["type"] == "update" and m["version"] == v + 2)
    assert "re" not in mine
    passed_on = [m for m in ann.seen if m["type"] == "update" and m["version"] == v + 1]
    assert passed_on and "re" not in passed_on[0], passed_on  # Ann's own version, with no reply on it
    release.set()
    answer = await ann.until(lambda m: m.get("re") == 77)
    assert answer["type"] == "state" and answer["version"] == v + 2, answer
    assert not answer["table"]["seats"][1]["connected"]
