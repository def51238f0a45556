"""An update is encoded once per audience, not once per connection (issue 10: a 10-seat table and its
shared screens): every spectator of a table gets the same bytes."""

from __future__ import annotations

from typing import Any

from meja.server import hub as hub_module
from server_helpers import host


async def test_spectators_share_one_frame(serve: Any, connect: Any, monkeypatch: Any) -> None:
    server = await serve(bot_delay_min_ms=5000, bot_delay_max_ms=5000)
    ann = await connect(server)
    joined = await host(ann, seats=2)
    table = joined["table"]
    await ann.ok({"type": "seat", "table": table, "seat": 1, "to": "bot"})
    watchers = [await connect(server) for _ in range(4)]
    for w in watchers:
        await w.ok({"type": "watch", "table": table})
    encoded: list[bytes] = []
    real = hub_module.codec.encode

    def counting(message: Any) -> bytes:
        frame = real(message)
        encoded.append(frame)
        return frame

    monkeypatch.setattr(hub_module.codec, "encode", counting)
    await ann.ok({"type": "start", "table": table})  # Ann's reply is hers; the four spectators share one
    frames = []
    for w in watchers:
        update = await w.until(lambda m: m["type"] == "update" and m["view"] is not None)
        frames.append(update)
    assert all(f == frames[0] for f in frames)
    assert len(encoded) == 2, f"{len(encoded)} encodings for one version: one per audience, not per connection"
