"""The hub's ``patch`` frames built from pieces encoded once a version (issue 24): the same bytes as
encoding the whole message, whatever its seat, starting version, host flag and events."""

from __future__ import annotations

from typing import Any

import pytest
from meja.protocol import codec, messages, patch
from meja.server import hub

EVENTS: list[list[dict[str, Any]]] = [
    [],
    [{"kind": "turn", "seat": 1}],
    [{"kind": "act", "seat": 8, "action": {"kind": "play", "card": "B4"}}, {"kind": "deal", "n": 1.5}],
    [{"kind": "note", "text": "x" * 300, "seats": list(range(20))}] * 17,  # a longer list and string
]


@pytest.mark.parametrize("table_id", ["t1", "t" * 40])
@pytest.mark.parametrize("version", [2, 127, 128, 70_000])
def test_a_patch_head_from_pieces_is_the_whole_message_encoded(table_id: str, version: int) -> None:
    pack = patch.packer()
    old = {"view": {"l": list(range(20)), "k": 1}}
    new = {"view": {"l": [i + 1 for i in range(20)], "k": 2.0}}
    found = patch.parts(old, new, patch.Memo(), pack=pack)
    ops = [op for part in found for op in part[0]]
    heads = hub._Heads(table_id, version, pack)
    alive = []  # the heads know an events list by its events' ids: as in the hub, they outlive the heads
    for since in (version - 1, 0, 1 << 20):
        for seat in (None, 0, 9, 200):
            for is_host in (False, True):
                for events in EVENTS:
                    # each list a new one of the same events (as the hub's per seat), and a copy
                    for seen in (list(events), [dict(e) for e in events]):
                        alive.append(seen)
                        frame = patch.spliced(heads.head(since, seen, seat, is_host), found)
                        whole = codec.encode(
                            messages.patch(
                                table=table_id, version=version, since=since, events=seen, seat=seat,
                                is_host=is_host, ops=ops,
                            )
                        )  # fmt: skip
                        assert frame == whole, (since, seat, is_host, seen)


def test_one_events_list_over_several_starting_versions_keeps_each_its_own_start() -> None:
    """The hub hands the same list (every seat's events alike) to members that start from different
    versions (one skipped a version): the head it reuses must be the one of that starting version."""
    pack = patch.packer()
    found = patch.parts({"view": {"k": 1}}, {"view": {"k": 2}}, patch.Memo(), pack=pack)
    ops = [op for part in found for op in part[0]]
    heads = hub._Heads("t1", 9, pack)
    shared = [{"kind": "turn", "seat": 1}]
    for since in (8, 8, 7, 8, 0, 0, 7):
        frame = patch.spliced(heads.head(since, shared, 1, False), found)
        whole = codec.encode(
            messages.patch(table="t1", version=9, since=since, events=shared, seat=1, is_host=False, ops=ops)
        )
        assert frame == whole, since
