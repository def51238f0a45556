"""How many bytes an archived match takes, per game (the README's sizing of Redis quotes it).

    .venv/bin/python tests/server/archive_sizes.py [MATCHES [GAME [OPTIONS-JSON]]]

Plays MATCHES (default 3) whole matches of each game with its default preset and seats on
an in-process server (embedded store, fast timers), seeded: match ``i`` of every game is
dealt from seed ``i + 1``, one person in seat 0 playing its first legal action and bots
(the game's default level) in the others. Prints, per game, the moves, the table versions
and the archive's stored bytes (msgpack + zlib) and its msgpack bytes before compression.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).parent))

import msgpack  # type: ignore[import-untyped]
from conftest import FAST
from meja import games
from meja.server.app import MejaServer
from meja.server.archive import decode
from meja.server.settings import Settings
from server_helpers import host, play
from server_wire import Wire


async def one(game: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    server = MejaServer(Settings(**{**FAST, "ready_delay_ms": 1}))
    await server.start()
    try:
        with mock.patch("meja.server.service.secrets.randbits", return_value=seed):
            wire = await Wire.open(f"ws://127.0.0.1:{server.port}/ws")
            info = games.get(game).game.info
            preset = info.presets[0]
            table = (await host(wire, game=game, seats=preset.default_seats, options=options or None))["table"]
            await wire.ok({"type": "start", "table": table})
        await play(wire, table, timeout=1200)
        if "archive" not in wire.table:  # (written just after the match ends: a later update names it)
            await wire.until(lambda m: "archive" in (m.get("table") or {}))
        raw = await server.store.archived(wire.table["archive"])
        assert raw is not None, "not archived"
        data = decode(raw)
        await wire.close()
        return {"moves": len(data["actions"]), "versions": wire.version, "bytes": len(raw),
                "plain": len(msgpack.packb(data, use_bin_type=True)), "rounds": len(data["rounds"])}
    finally:
        await server.stop()


async def main(matches: int, only: str | None, options: dict[str, Any]) -> None:
    for game in [only] if only else games.names():
        runs = [await one(game, seed, options) for seed in range(1, matches + 1)]
        def col(key: str, runs: list[dict[str, Any]] = runs) -> str:
            values = [r[key] for r in runs]
            return f"{statistics.mean(values):.0f} (max {max(values)})"
        print(f"{game} {options or ''}: {matches} matches; rounds {col('rounds')}; moves {col('moves')}; versions "
              f"{col('versions')}; stored bytes {col('bytes')}; msgpack bytes {col('plain')}", flush=True)


if __name__ == "__main__":
    import json

    argv = sys.argv[1:]
    asyncio.run(main(int(argv[0]) if argv else 3, argv[1] if len(argv) > 1 else None,
                     json.loads(argv[2]) if len(argv) > 2 else {}))
