"""A table's log, read straight from the store and replayed through the rules.

Shared by the end-to-end tests (tests/e2e) and the fault audit (tests/faults):
the strongest check that no accepted action was lost or applied twice. The log
must be a gap-free history (one entry per table version), and replaying the
actions it records (each version's ``act`` event, which nobody is sent),
whatever the game, through its rules from the match seed must give,
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
from meja.server.records import Table, decode_entry
from meja.server.tables import TABLE_EVENTS
from meja.store import open_store

Move = Any  # a game's action (each game has its own type)

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


def _action(table_id: str, v: int, game: Any, entry: Iterable[Event]) -> tuple[int, Move] | None:
    """The action a version applied: its ``act`` event (seen by nobody; tables.play writes it)."""
    acts = [e for e in entry if e.kind == "act"]
    if not acts:
        return None
    if len(acts) > 1 or acts[0].only != ():
        raise LogFailure(f"table {table_id} version {v}: {len(acts)} act events, or one someone may see")
    return int(acts[0].data["seat"]), game.decode_action(dict(acts[0].data["action"]))


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
        rules_events = [e for e in entry if e.kind not in TABLE_EVENTS]
        found = _action(table_id, v, game, entry)
        if not rules_events and found is None:
            continue
        if state is None:
            first = game.new_match(options, seats, record.seed, record.deal_code)
            if _plain(first.events) != _plain(rules_events):
                raise LogFailure(f"table {table_id} version {v}: the first deal differs from the seed's")
            state = first.state
            continue
        if found is None:
            raise LogFailure(f"table {table_id} version {v}: game events with no action: {rules_events}")
        seat, move = found
        try:
            step = state.apply(seat, move)
        except Exception as exc:
            raise LogFailure(f"table {table_id} version {v}: seat {seat} {move} is not legal here: {exc}") from None
        if _plain(step.events) != _plain(rules_events):
            raise LogFailure(f"table {table_id} version {v}: the log's events are not what {move} gives: "
                             f"{_plain(rules_events)} vs {_plain(step.events)}")
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
