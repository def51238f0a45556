"""A table's log, read straight from the store and replayed through the rules.

Shared by the end-to-end tests (tests/e2e) and the fault audit (tests/faults):
the strongest check that no accepted action was lost or applied twice. The log
must be a gap-free history (one entry per table version), and replaying the
actions it records through :mod:`meja.rules` from the match seed must give,
version by version, exactly the game events the log holds, and in the end
exactly the state the record holds. (It reads the server's record format,
:mod:`meja.server.records`: a test may, the client library may not.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
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

Log = list[tuple[int, tuple[Event, ...]]]


class LogFailure(AssertionError):
    """The log is not a history the rules could have produced; the message names table and version."""


@dataclass
class Replay:
    table_id: str
    record: Table
    version: int
    log: Log
    #: (table version, seat, action) of every action in the log, in order
    actions: list[tuple[int, int, Move]] = field(default_factory=list)

    def by_seat(self, seat: int) -> list[tuple[int, Move]]:
        return [(v, m) for v, s, m in self.actions if s == seat]

    def count_by_seat(self) -> Counter[int]:
        return Counter(seat for _, seat, _ in self.actions)


async def read_table(store_url: str, table_id: str) -> tuple[int, Table, Log]:
    """``(version, record, [(version, events)...])`` of a table, straight from the store."""
    store = open_store(store_url)
    try:
        loaded = await store.load(table_id)
        if loaded is None:
            raise LogFailure(f"table {table_id} is not in the store")
        version, raw = loaded
        log = await store.log_since(table_id, -1)
    finally:
        await store.aclose()
    return version, Table.from_bytes(raw), [(v, decode_entry(e)) for v, e in log]


def _action(events: Iterable[Event]) -> tuple[int, Move] | None:
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


def _plain(events: Iterable[Event]) -> list[tuple[Any, ...]]:
    return [(e.kind, dict(e.data), None if e.only is None else tuple(e.only), tuple(e.hidden_from)) for e in events]


def replay(table_id: str, version: int, record: Table, log: Log) -> Replay:
    """Check a table's log against the rules (see the module docstring); what it holds."""
    versions = [v for v, _ in log]
    if not versions or versions != list(range(versions[0], version + 1)):
        raise LogFailure(f"table {table_id}: log versions are not contiguous up to {version}: {versions[:5]}...")
    if record.state is None:
        raise LogFailure(f"table {table_id}: never started")
    game = get_game(record.game)
    options = game.options_from_wire(record.options)
    seats = len(record.seats)
    state = None
    out = Replay(table_id, record, version, log)
    for v, entry in log:
        rules_events = [e for e in entry if e.kind in RULES_KINDS]
        if not rules_events:
            continue
        if state is None:
            first = game.new_match(options, seats, record.seed, record.deal_code)
            if _plain(first.events) != _plain(rules_events):
                raise LogFailure(f"table {table_id} version {v}: the first deal differs from the seed's")
            state = first.state
            continue
        found = _action(rules_events)
        if found is None:
            raise LogFailure(f"table {table_id} version {v}: game events with no action: {rules_events}")
        seat, move = found
        try:
            step = state.apply(seat, move)
        except Exception as exc:
            raise LogFailure(f"table {table_id} version {v}: seat {seat} {move} is not legal here: {exc}") from None
        if _plain(step.events) != _plain(rules_events):
            raise LogFailure(f"table {table_id} version {v}: the log's events are not what {move} gives")
        state = step.state
        out.actions.append((v, seat, move))
    assert state is not None
    if state.to_data() != record.state.to_data():
        raise LogFailure(f"table {table_id}: replaying the log does not give the stored state")
    return out


async def replay_table(store_url: str, table_id: str) -> Replay:
    """Read a table from the store and :func:`replay` its log."""
    version, record, log = await read_table(store_url, table_id)
    return replay(table_id, version, record, log)
