"""An update is encoded once per audience, not once per connection (issue 10: a 10-seat table and its
shared screens): every spectator of a table gets the same bytes."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from meja.protocol import codec, messages
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
    updates = [f for f in encoded if msgpack.unpackb(f).get("type") == "update"]
    maps = [f for f in encoded if "type" not in msgpack.unpackb(f)]
    assert len(updates) == 2, f"{len(updates)} encodings for one version: one per audience, not per connection"
    assert len(maps) == 1, "the table map is encoded once a version, for every audience"


@pytest.mark.parametrize("re", [None, 7, "r1"])
def test_an_update_is_the_table_map_spliced_into_the_rest(re: Any) -> None:
    """The hub encodes a version's table map once and splices it into each audience's update: the
    bytes are exactly those of the whole message encoded at once."""
    table_map = {"id": "T1", "code": "K7M2QX", "seats": [{"seat": 0, "name": "Ann"}], "status": "playing"}
    fields = {"version": 9, "since": 8, "events": [{"kind": "draw", "seat": 0}], "seat": 0, "is_host": True}
    view = {"hand": ["2H", "7C"], "legal": [{"kind": "draw"}]}
    whole = codec.encode(messages.update(table=table_map, **fields, view=view, re=re))
    assert hub_module._update_frame(codec.encode(table_map), **fields, view=view, re=re) == whole
