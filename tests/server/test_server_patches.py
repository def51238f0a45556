"""Updates in the patch form (PROTOCOL.md 7.5): a connection that asks for them sees, after every
update, exactly what a connection that asked for whole views sees, in every game.

Spectators share an audience, so a whole-view spectator and a patch-form spectator are compared
update by update. A seat has one connection, so its patches are compared with the whole update
the hub would have sent it at that moment (recorded as the hub builds it); the seat plays a round
with a patch-form connection. A resume or watch with ``since``, and a gap, give whole views.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from meja.protocol import codec
from meja.server import hub as hub_module
from meja.server import tables
from server_helpers import host, play

GAMES = {"crazy_eights": 3, "kartu_terakhir": 3, "eighty_three": 4}
ROUND_ENDS = {"round_over", "hand_over", "match_over"}


def _policy(view: dict[str, Any]) -> dict[str, Any]:
    """A move of every game: what ends a decision soonest (pass, done, arrange), else the first."""
    for kind in ("pass", "done", "auto_arrange"):
        for action in view["legal"]:
            if action["kind"] == kind:
                return dict(action)
    return dict(view["legal"][0])


def _round_over(wire: Any) -> bool:
    return wire.view is not None and wire.view["phase"] in ROUND_ENDS


def _updates(wire: Any) -> list[dict[str, Any]]:
    return [m for m in wire.seen if m["type"] == "update"]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_patches_and_whole_views_agree_over_a_round(
    game: str, serve: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    wholes: dict[tuple[str, int], dict[str, Any]] = {}
    original = hub_module.Hub._patch_frame

    def spy(t: Any, member: Any, sent: Any, table_map: Any, view: Any, version: int, *rest: Any) -> bytes:
        # what a whole-view connection in this place gets: its table map and view, encoded and read back
        whole = tables.view_for(t, member.seat)
        wholes[(member.session.cid, version)] = codec.decode(codec.encode({"type": "x", "t": table_map, "v": whole}))
        return original(t, member, sent, table_map, view, version, *rest)

    monkeypatch.setattr(hub_module.Hub, "_patch_frame", staticmethod(spy))
    server = await serve()
    ann = await connect(server, diffs=True)
    table = (await host(ann, game=game, seats=GAMES[game]))["table"]
    whole, patched = await connect(server), await connect(server, diffs=True)
    for wire in (whole, patched):
        await wire.ok({"type": "watch", "table": table})
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=_round_over, policy=_policy)
    await ann.ok({"type": "ping"})
    for wire in (whole, patched):
        await wire.until(lambda m: m["type"] == "update" and m["view"]["phase"] in ROUND_ENDS)
        await wire.ok({"type": "ping"})

    # The spectators: the same updates, the same table map and view after every one.
    a, b = _updates(whole), _updates(patched)
    n = min(len(a), len(b))  # the bots may go on after the round: compare what both have
    a, b = a[:n], b[:n]
    assert n > 10 and [m["version"] for m in a] == [m["version"] for m in b]
    for x, y in zip(a, b, strict=True):
        assert x == y, f"v{x['version']}: the patch form differs from the whole view"
    assert whole.patches == 0 and patched.patches >= len(b) - 2, (patched.patches, len(b))

    # The seat: each update it rebuilt from a patch is the whole one the hub had for it.
    cid = next(
        c for c in (m.session.cid for m in server.hub.tables[table].members.values() if m.seat == 0)
    )  # fmt: skip
    mine = _updates(ann)
    assert ann.patches >= len(mine) - 2 and ann.patches > 10
    compared = 0
    for message in mine:
        recorded = wholes.get((cid, message["version"]))
        if recorded is not None:
            assert {"t": message["table"], "v": message["view"]} == {"t": recorded["t"], "v": recorded["v"]}
            compared += 1
    assert compared >= len(mine) - 2
    assert any(e["kind"] in ROUND_ENDS for m in mine for e in m["events"])


async def test_watch_and_resume_with_since_give_whole_views(serve: Any, connect: Any) -> None:
    server = await serve()
    ann = await connect(server, diffs=True)
    joined = await host(ann, seats=3)
    table = joined["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=lambda w: w.version is not None and w.version >= 8, policy=_policy)
    assert ann.patches > 0
    token = joined["token"]
    again = await connect(server, diffs=True)
    await again.ok({"type": "resume", "table": table, "token": token, "since": 2})
    # What answers the resume, up to its state (the bots play on: what follows may be patches).
    if not any(m["type"] == "state" for m in again.seen):
        await again.until(lambda m: m["type"] == "state")
    assert again.patches == 0, "a resume is answered with whole views"
    replayed = [m for m in again.seen if m["type"] in ("update", "state")]
    assert len(replayed) > 2 and replayed[-1]["type"] == "state"


async def test_after_a_gap_the_update_is_whole(serve: Any, connect: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A version that arrives after a gap (the hub caught up from the log) goes out whole, to a
    patch-form connection too; the next one is a patch again."""
    server = await serve()
    hub = server.hub
    heard: set[int] = set()  # versions whose copy from the store's channel has reached the hub
    apply = hub.apply

    async def spy(change: Any, record: Any = None, events: Any = None) -> None:
        await apply(change, record, events)
        if record is None:  # once its apply is through: heard before, it could still close the gap
            heard.add(change.version)

    monkeypatch.setattr(hub, "apply", spy)
    ann = await connect(server, diffs=True)
    table = (await host(ann, seats=3))["table"]
    await ann.ok({"type": "start", "table": table})
    # Stopped at Ann's turn: nobody else moves until she does, so no change is under way while
    # the hub is stepped back (a bot's commit being applied then closed the gap under load).
    await play(ann, table, until=lambda w: w.patches >= 3 and bool(w.view and w.view["legal"]), policy=_policy)
    await ann.ok({"type": "ping"})
    cached = hub.tables[table]
    async with asyncio.timeout(30):
        # The channel's copy of the last version first: heard after the step back below, it
        # would close the gap before the next change (a race a loaded CI run lost).
        while cached.version not in heard:
            await asyncio.sleep(0.01)
    cached.version -= 1  # as if a change had been missed: the next one comes after a gap
    patches, seen = ann.patches, len(ann.seen)
    await play(
        ann, table, until=lambda w: len([m for m in w.seen[seen:] if m["type"] == "update"]) >= 1, policy=_policy
    )
    first = next(m for m in ann.seen[seen:] if m["type"] == "update")
    assert ann.patches == patches, f"the update after the gap (v{first['version']}) came as a patch"
    await play(ann, table, until=lambda w: w.patches > patches, policy=_policy)
