"""After a fault: did every table finish, and was every accepted action applied exactly once?

The ground truth is each table's event log in the store (one entry per table
version, meja.server.records). :func:`replay` checks the log on its own: its
versions have no gap, and replaying the actions it records through
:mod:`meja.rules` from the match seed gives, version by version, exactly the
game events the log holds, and in the end exactly the state the record holds
(after tests/e2e/e2e_log.py, copied here). So the log is a history the rules
could have produced, with nothing missing or inserted.

:func:`audit` then holds each human seat's log against what its client was
told (faults_fleet.SeatDriver):

- **not lost**: every action the server answered as applied (the ``update``
  carrying the request's ``re``, at table version V) is in the log at V, by
  that seat, and is that action;
- **not applied twice**: every other action of that seat in the log was made
  by the server for it (a bot while the seat was ``auto``, or a time limit's
  default move, which carries a ``timeout`` event), or is explained by one
  request that got no answer (sent just before its connection closed), each
  such request explaining at most one log action, and a later one than the
  version it was sent at. An action refused with ``internal`` ("the table is
  unchanged", PROTOCOL.md 10) explains nothing;
- **finished**: the record's match is over.

Failures raise :class:`AuditFailure` (an ``AssertionError``) naming the table,
seat and version, so the tests that plant a double application or a lost
action can check that the audit catches exactly that.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meja.rules import Event, get_game
from meja.rules.crazy_eights import DRAW, PASS, READY, Move
from meja.server.records import FINISHED, Table, decode_entry
from meja.store import open_store

#: Event kinds the Crazy Eights rules produce (everything else in a log entry is a table event).
RULES_KINDS = frozenset(
    {"round_start", "hand", "turn", "play", "draw", "reshuffle", "pass", "suit", "choose_suit", "ready",
     "round_over", "match_over"}
)
ACTION_KINDS = ("play", "draw", "pass", "suit", "ready")


class AuditFailure(AssertionError):
    """The log and the clients disagree (see the module docstring)."""


@dataclass
class Replay:
    table_id: str
    record: Table
    version: int
    log: list[tuple[int, tuple[Event, ...]]]
    #: (table version, seat, action) of every action in the log, in order
    actions: list[tuple[int, int, Move]] = field(default_factory=list)

    def by_seat(self, seat: int) -> list[tuple[int, Move]]:
        return [(v, m) for v, s, m in self.actions if s == seat]


async def read_table(store_url: str, table_id: str) -> tuple[int, Table, list[tuple[int, tuple[Event, ...]]]]:
    """``(version, record, [(version, events)...])`` of a table, straight from the store."""
    store = open_store(store_url)
    try:
        loaded = await store.load(table_id)
        if loaded is None:
            raise AuditFailure(f"table {table_id} is not in the store")
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


def replay(table_id: str, version: int, record: Table, log: list[tuple[int, tuple[Event, ...]]]) -> Replay:
    """Check a table's log against the rules (see the module docstring); what it holds."""
    versions = [v for v, _ in log]
    if not versions or versions != list(range(versions[0], version + 1)):
        raise AuditFailure(f"table {table_id}: log versions are not contiguous up to {version}: {versions[:5]}...")
    if record.state is None:
        raise AuditFailure(f"table {table_id}: never started")
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
                raise AuditFailure(f"table {table_id} version {v}: the first deal differs from the seed's")
            state = first.state
            continue
        found = _action(rules_events)
        if found is None:
            raise AuditFailure(f"table {table_id} version {v}: game events with no action: {rules_events}")
        seat, move = found
        try:
            step = state.apply(seat, move)
        except Exception as exc:
            raise AuditFailure(f"table {table_id} version {v}: seat {seat} {move} is not legal here: {exc}") from None
        if _plain(step.events) != _plain(rules_events):
            raise AuditFailure(f"table {table_id} version {v}: the log's events are not what {move} gives")
        state = step.state
        out.actions.append((v, seat, move))
    assert state is not None
    if state.to_data() != record.state.to_data():
        raise AuditFailure(f"table {table_id}: replaying the log does not give the stored state")
    return out


async def replay_table(store_url: str, table_id: str) -> Replay:
    version, record, log = await read_table(store_url, table_id)
    return replay(table_id, version, record, log)


def server_made(rep: Replay, seat: int) -> set[int]:
    """Versions where the server acted for ``seat``: while a bot played for it, or at a time limit."""
    out: set[int] = set()
    auto = False
    for v, entry in rep.log:
        timeout = False
        for e in entry:
            if e.data.get("seat") != seat:
                continue
            if e.kind == "auto":
                auto = True
            elif e.kind == "connected":
                auto = False
            elif e.kind == "seat_changed" and e.data.get("to") == "bot":
                auto = True
            elif e.kind == "timeout":
                timeout = True
        if auto or timeout:
            out.add(v)
    return out


@dataclass
class SeatRecord:
    """What one client was told about its own actions (faults_fleet.SeatDriver has these fields)."""

    seat: int
    accepted: dict[int, dict[str, Any]]
    in_flight: Sequence[tuple[int, dict[str, Any]]] = ()
    internal: Sequence[tuple[int, dict[str, Any]]] = ()


@dataclass
class SeatAudit:
    seat: int
    confirmed: int
    in_log: int
    by_server: int
    explained_by_in_flight: int


def audit(rep: Replay, seats: Sequence[Any], *, require_finished: bool = True) -> list[SeatAudit]:
    """Hold each seat's client record against the log (see the module docstring)."""
    table = rep.table_id
    if require_finished and rep.record.status != FINISHED:
        raise AuditFailure(f"table {table}: not finished (status {rep.record.status!r}, version {rep.version})")
    out = []
    for record in seats:
        seat = record.seat
        logged = {v: m for v, m in rep.by_seat(seat)}
        for v, action in sorted(record.accepted.items()):
            move = logged.get(v)
            if move is None:
                raise AuditFailure(f"table {table} seat {seat}: accepted {action} at version {v} is not in the log")
            if move.to_wire() != action:
                raise AuditFailure(
                    f"table {table} seat {seat}: the log has {move.to_wire()} at version {v}, the client sent {action}"
                )
        made = server_made(rep, seat)
        extra = [(v, m) for v, m in sorted(logged.items()) if v not in record.accepted and v not in made]
        unused = list(record.in_flight)
        explained = 0
        for v, move in extra:
            match = next((i for i, (sent, a) in enumerate(unused) if a == move.to_wire() and sent < v), None)
            if match is not None:
                unused.pop(match)
                explained += 1
                continue
            if any(a == move.to_wire() and sent < v for sent, a in record.internal):
                raise AuditFailure(
                    f"table {table} seat {seat}: {move.to_wire()} at version {v} was applied although the server "
                    f"refused it with 'internal' (PROTOCOL.md 10: the table is unchanged)"
                )
            raise AuditFailure(
                f"table {table} seat {seat}: {move.to_wire()} at version {v} was applied but never accepted "
                f"(applied twice, or by nobody): accepted at {sorted(record.accepted)[-5:]}..., "
                f"unanswered {list(record.in_flight)}"
            )
        out.append(SeatAudit(seat, len(record.accepted), len(logged), sum(1 for v in logged if v in made), explained))
    return out


async def audit_fleet(store_url: str, tables: Sequence[Any], *, require_finished: bool = True) -> dict[str, Any]:
    """Replay and audit every table of a fleet; a summary for the test's output."""
    totals = {"tables": 0, "actions": 0, "confirmed": 0, "by_server": 0, "in_flight_applied": 0}
    for table in tables:
        rep = await replay_table(store_url, table.table_id)
        audited = audit(rep, table.drivers, require_finished=require_finished)
        totals["tables"] += 1
        totals["actions"] += len(rep.actions)
        totals["confirmed"] += sum(a.confirmed for a in audited)
        totals["by_server"] += sum(a.by_server for a in audited)
        totals["in_flight_applied"] += sum(a.explained_by_in_flight for a in audited)
    return totals


def no_unexpected_refusals(drivers: Sequence[Any]) -> None:
    """No driver got a refusal other than stale/internal (a scripted player acts on its latest view)."""
    odd = [(d.name, u) for d in drivers for u in d.unexpected]
    if odd:
        raise AuditFailure(f"unexpected refusals: {odd[:10]}")
