#!/usr/bin/env python3
"""The hub's frame building in isolation (issue 24): whole views against patches, per version.

Plays tables of one game at random through ``meja.server.tables`` (every seat a person, a
play chosen nine times in ten when there is one, the game's timed actions when nobody may
act), then delivers every version of them through ``Hub._deliver`` to one connection a seat,
as a server does with its own commits (the table objects handed over, not decoded again),
once with whole ``update`` frames and once with patches (PROTOCOL.md 7.5), and a third time
with the whole frame's encoding left out (``base``: the whole form's views, table maps and
checks; the patch form builds each seat's view in two parts instead, ``tables.view_parts``).
Printed: process CPU per version, best of ``--repeat`` (each repeat runs the three in turn),
and the ratio of the two forms::

    .venv/bin/python tools/replay_frames.py --game kartu_terakhir --seats 10 --tables 6 --repeat 7

Process CPU still counts what a loaded machine costs a process (a shared core's caches):
read the ratio of a run, and run it again. ``--once whole|patch|base`` runs one form once
(for ``valgrind --tool=cachegrind``: instructions of a run of ``--once`` with ``--times 3``
minus ``--times 1``, halved, are one run's, without the start-up). ``--check`` decodes every
frame and compares each connection's view rebuilt from its patches with the whole one.

The cyclic collector is off while a form is timed, unless ``--gc server``: then it runs with
the servers' settings (``meja.runtime.tune``: start-up objects frozen, a young collection every
50,000 container allocations), and the collections each form caused are printed.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from typing import Any

from meja.protocol import codec, patch
from meja.server import hub as hub_module
from meja.server import tables
from meja.server.hub import Cached, Hub, Member
from meja.server.records import Table
from meja.server.settings import Settings

Played = list[tuple[int, Any]]  # (version, tables.Mutation)


class _Session:
    """A connection as the hub sees it, keeping the frames it is sent."""

    def __init__(self, cid: str, diffs: bool) -> None:
        self.cid = cid
        self.address = "a"
        self.conn = ("p", cid)
        self.closing = False
        self.diffs = diffs
        self.frames: list[bytes] = []

    def send(self, message: dict[str, Any]) -> None:
        pass

    def send_frame(self, frame: bytes) -> None:
        self.frames.append(frame)

    def close_soon(self, code: int, reason: str) -> None:
        raise AssertionError((code, reason))


def play(game: str, seats: int, seed: int, limit: int) -> Played:
    """One table's versions from its start, ``limit`` at most."""
    settings = Settings()
    rng = random.Random(seed)
    t = tables.new_table(
        settings, table_id=f"T{seed}", code=f"C{seed}", name="p0", game=game, options=None, seats=seats,
        bots=None, deal_code=None, grace_s=None, turn_limit_s=None, host_token="h", seat_token="t0",
        conn=("p", "c0"), seed=seed, now=0,
    )  # fmt: skip
    for i in range(1, seats):
        t = tables.join(t, name=f"p{i}", seat=i, token=f"t{i}", conn=("p", f"c{i}"))[0].table
    version = 1
    done = tables.start(t, version=version, now=0)
    out: Played = [(version, done)]
    t = done.table
    while t.status == "playing" and version < limit:
        state = t.state
        acting = [s for s in range(seats) if state.legal_actions(s)]
        if acting:
            seat = rng.choice(acting)
            legal = list(state.legal_actions(seat))
            plays = [a for a in legal if a.to_wire().get("kind") == "play"]
            move = rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(legal)
        else:
            timed = state.timed_actions()
            if not timed:
                break
            seat, move = timed[0][0], timed[0][1]
        version += 1
        done = tables.play(t, seat, move, version=version, now=0)
        out.append((version, done))
        t = done.table
    return out


def _fresh(played: Played) -> list[tuple[int, Table, Any]]:
    """The versions' tables with nothing derived from them yet (as a commit hands one over)."""
    out = []
    for version, done in played:
        t = done.table.evolve()  # a copy whose memo keeps only the parsed options
        out.append((version, t, done.events))
    return out


def deliver(
    games: list[Played], seats: int, diffs: bool, *, collect: bool = False
) -> tuple[float, int, list[list[_Session]]]:
    """Process CPU per version (µs) of delivering every version but each table's first, the
    versions, and the connections (with their frames). ``collect``: the cyclic collector stays on."""
    hub = Hub(None, Settings(), "p")  # type: ignore[arg-type]  # no store: nothing is read
    spent = 0.0
    sessions_of = []
    for played in games:
        versions = _fresh(played)
        first_version, first, events = versions[0]
        cached = Cached(first, first_version)
        sessions = [_Session(f"c{i}", diffs) for i in range(seats)]
        for i, session in enumerate(sessions):
            member = Member(session, i, token=f"t{i}", host_token="h" if i == 0 else None)
            member.version = 0
            cached.members[session.cid] = member
        hub.tables[first.id] = cached
        hub._deliver(cached, first_version, events, None)  # what every later frame starts from
        if not collect:
            gc.disable()
        start = time.process_time()
        for version, t, events in versions[1:]:
            cached.table, cached.version = t, version
            hub._deliver(cached, version, events, None)
        spent += time.process_time() - start
        gc.enable()
        sessions_of.append(sessions)
    count = sum(len(played) - 1 for played in games)
    return spent / count * 1e6, count, sessions_of


def check(games: list[Played], seats: int) -> tuple[int, int]:
    """Each connection's table map and view rebuilt from its patches, against the whole ones:
    frames compared, and how many of them were patches."""
    _, _, wholes = deliver(games, seats, False)
    _, _, patched = deliver(games, seats, True)
    compared = patches = 0
    for whole_sessions, patch_sessions in zip(wholes, patched, strict=True):
        for a, b in zip(whole_sessions, patch_sessions, strict=True):
            have: dict[str, Any] | None = None
            assert len(a.frames) == len(b.frames)
            for x, y in zip(a.frames, b.frames, strict=True):
                whole, got = codec.decode(x), _decode(y)
                if got["type"] == "patch":
                    assert have is not None
                    have = patch.apply(have, got["patch"])
                    patches += 1
                else:
                    have = {"table": got["table"], "view": got["view"]}
                assert patch.same(have, {"table": whole["table"], "view": whole["view"]}), whole["version"]
                compared += 1
    return compared, patches


def _decode(frame: bytes) -> Any:
    import msgpack  # type: ignore[import-untyped]

    return msgpack.unpackb(frame)  # a patch nests deeper than the limits on what clients send


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kartu_terakhir")
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--limit", type=int, default=400, help="versions a table at most")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--once", choices=("whole", "patch", "base"))
    parser.add_argument("--times", type=int, default=1, help="with --once: how many runs")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--gc", choices=("off", "server"), default="off", help="the collector while timed")
    args = parser.parse_args(argv)
    games = [play(args.game, args.seats, seed, args.limit) for seed in range(args.tables)]
    collect = args.gc == "server"
    if collect:
        from meja.runtime import tune

        tune()
    collections: dict[str, int] = {"base": 0, "whole": 0, "patch": 0}
    real = hub_module._whole_frame

    def unencoded(*_: Any) -> bytes:
        return b""

    def run(form: str) -> float:
        hub_module._whole_frame = unencoded if form == "base" else real  # type: ignore[assignment]
        before = sum(s["collections"] for s in gc.get_stats())
        try:
            return deliver(games, args.seats, form == "patch", collect=collect)[0]
        finally:
            hub_module._whole_frame = real
            collections[form] += sum(s["collections"] for s in gc.get_stats()) - before

    if args.check:
        compared, patches = check(games, args.seats)
        print(f"{compared} frames ({patches} patches): every table map and view rebuilt is the whole one")
        return
    if args.once:
        for _ in range(args.times):
            run(args.once)
        return
    spent: dict[str, list[float]] = {"base": [], "whole": [], "patch": []}
    for _ in range(args.repeat):
        for form in spent:
            spent[form].append(run(form))
    base, whole, patched = (min(spent[form]) for form in ("base", "whole", "patch"))
    count = sum(len(played) - 1 for played in games)
    print(
        f"{args.game}, {args.seats} seats, {count} versions, best of {args.repeat}: whole {whole:.1f} µs a version "
        f"(of it, whole frames' encoding {whole - base:.1f}); patches {patched:.1f}; patches / whole: "
        f"{patched / whole:.2f}"
        + (
            f"; collections base {collections['base']}, whole {collections['whole']}, patches {collections['patch']}"
            if collect
            else ""
        )
    )


if __name__ == "__main__":
    sys.exit(main())
