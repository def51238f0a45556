"""What each seat (and a spectator) may see at every table version, from the table's log in Redis.

The same judge as the wire leak fuzzer's (tests/table_truth.py's ``Truth``): the table's record
and log are read from the test's redis-server, the log's ``act`` events are replayed through the
game's rules, and each version's ``State.locations()`` says where every card lies and who may
see it. A frame a
connection received is then checked for card names its seat could not see at the versions it
covers.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import msgpack
from meja.rules.game import Event
from meja.server.records import Table, decode_entry
from meja.store import open_store
from table_truth import Truth, strings_in


def read_table(redis_url: str, table_id: str) -> tuple[Table, list[tuple[int, tuple[Event, ...]]]]:
    """The table's record and whole log, read from Redis (in a thread: sync Playwright owns this one)."""
    out: dict[str, Any] = {}

    async def read() -> None:
        async with open_store(redis_url) as store:
            loaded = await store.load(table_id)
            assert loaded is not None, f"no table {table_id} in Redis"
            out["record"] = Table.from_bytes(loaded[1])
            out["log"] = [(v, decode_entry(e)) for v, e in await store.log_since(table_id, -1)]

    def run() -> None:
        try:
            asyncio.run(read())
        except BaseException as exc:  # handed to the caller below
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if "error" in out:
        raise out["error"]
    return out["record"], out["log"]


def leaks(frames: list[Any], truth: Truth, seat: int | None) -> list[str]:
    """Each frame's card names that ``seat`` could not see at the versions the frame covers."""
    found = []
    for raw in frames:
        assert isinstance(raw, bytes), "a text frame"
        message = msgpack.unpackb(raw, raw=False)
        kind = message.get("type")
        if kind in ("update", "patch"):  # a patch (PROTOCOL.md 7.5): its operations carry what changed
            first, last = message["since"], message["version"]
        elif kind == "state":
            first = last = message["version"]
        else:
            continue
        view = message.get("view")
        if seat is None and isinstance(view, dict) and (view.get("hand") is not None or view.get("legal")):
            found.append(f"a spectator's view with a hand or legal actions at version {last}")
        named = {s for s in strings_in({k: v for k, v in message.items() if k != "table"}) if s in truth.names}
        leaked = named - truth.seen(seat, first, last)
        if leaked:
            found.append(f"{kind} at version {last}: {sorted(leaked)}")
    return found
