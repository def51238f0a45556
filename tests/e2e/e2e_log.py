"""Read a table's record and log straight from the store, and replay the log through the rules.

This is the strongest check that no accepted action was lost or applied twice
across process crashes: the log must be a gap-free history (one entry per
version), and replaying the actions it records through :mod:`meja.rules` from
the match seed must give, version by version, exactly the game events the log
holds, and in the end exactly the state the record holds. (It reads the
server's record format, :mod:`meja.server.records`: a test may, the client
library may not.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from meja.rules import Event, get_game
from meja.rules.crazy_eights import DRAW, PASS, READY, Move
from meja.server.records import Table, decode_entry
from meja.store import open_store

#: Event kinds the Crazy Eights rules produce (everything else in a log entry is a table event).
RULES_KINDS = frozenset(
    {"round_start", "hand", "turn", "play", "draw", "reshuffle", "pass", "suit", "choose_suit", "ready",
     "round_over", "match_over"}
)
ACTION_KINDS = ("play", "draw", "pass", "suit", "ready")


@dataclass
class Replay:
    record: Table
    version: int
    #: (table version, seat, action) of every action in the log, in order
    actions: list[tuple[int, int, Move]]

    def count_by_seat(self) -> Counter[int]:
        return Counter(seat for _, seat, _ in self.actions)


async def read_table(store_url: str, table_id: str) -> tuple[int, Table, list[tuple[int, tuple[Event, ...]]]]:
    """``(version, record, [(version, events)...])`` of a table, read from the store."""
    store = open_store(store_url)
    try:
        loaded = await store.load(table_id)
        assert loaded is not None, f"table {table_id} is not in the store"
        version, raw = loaded
        log = await store.log_since(table_id, -1)
    finally:
        await store.aclose()
    return version, Table.from_bytes(raw), [(v, decode_entry(e)) for v, e in log]


def _action(events: list[Event]) -> tuple[int, Move] | None:
    for e in events:
        if e.kind not in ACTION_KINDS:
            continue
        seat = int(e.data["seat"])
        if e.kind == "play":
            return seat, Move.play(str(e.data["card"]), e.data.get("suit"))
        if e.kind == "draw":
            return seat, DRAW
        if e.kind == "pass":
            return seat, PASS
        if e.kind == "suit":
            return seat, Move.choose(str(e.data["suit"]))
        return seat, READY
    return None


def _plain(events: Any) -> list[tuple[Any, ...]]:
    return [
        (e.kind, dict(e.data), None if e.only is None else tuple(e.only), tuple(e.hidden_from)) for e in events
    ]


async def replay_log(store_url: str, table_id: str) -> Replay:
    """Check the table's log against the rules (see the module docstring) and return what it holds."""
    version, record, log = await read_table(store_url, table_id)
    versions = [v for v, _ in log]
    assert versions == list(range(versions[0], version + 1)), f"log versions are not contiguous: {versions}"
    assert record.state is not None, "the table never started"
    game = get_game(record.game)
    options = game.options_from_wire(record.options)
    seats = len(record.seats)
    state = None
    actions: list[tuple[int, int, Move]] = []
    for v, entry in log:
        rules_events = [e for e in entry if e.kind in RULES_KINDS]
        if not rules_events:
            continue
        if state is None:
            first = game.new_match(options, seats, record.seed, record.deal_code)
            assert _plain(first.events) == _plain(rules_events), f"version {v}: the first deal differs"
            state = first.state
            continue
        found = _action(rules_events)
        assert found is not None, f"version {v}: game events with no action: {rules_events}"
        seat, move = found
        step = state.apply(seat, move)
        assert _plain(step.events) == _plain(rules_events), f"version {v}: replay differs for {seat} {move}"
        state = step.state
        actions.append((v, seat, move))
    assert state is not None
    assert state.to_data() == record.state.to_data(), "the replayed state is not the stored state"
    return Replay(record, version, actions)
