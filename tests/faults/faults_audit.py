"""After a fault: did every table finish, and was every accepted action applied exactly once?

The ground truth is each table's event log in the store (one entry per table
version, meja.server.records). :func:`replay` checks the log on its own: its
versions have no gap, and replaying the actions it records through
:mod:`meja.rules` from the match seed gives, version by version, exactly the
game events the log holds, and in the end exactly the state the record holds
(tests/table_log.py, shared with the end-to-end tests). So the log is a history the rules
could have produced, with nothing missing or inserted.

:func:`audit` then holds each human seat's log against what its client was
told (faults_fleet.SeatDriver):

- **not lost**: every action the server answered as applied (the ``update``
  carrying the request's ``re``, at table version V) is in the log at V, by
  that seat, and is that action (an answer that came as a ``state``, PROTOCOL.md
  8: after the version the request named, and at most V);
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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meja.server.audit import SeatClaims, TableClaims, check_claims, server_made
from meja.server.records import FINISHED
from table_log import LogFailure, Replay, read_table, replay, replay_table

__all__ = [
    "AuditFailure",
    "Replay",
    "SeatAudit",
    "SeatRecord",
    "audit",
    "audit_fleet",
    "no_unexpected_refusals",
    "read_table",
    "replay",
    "replay_table",
    "server_made",
]

#: The log checker's failure is the audit's: tests that plant a fault expect this one class.
AuditFailure = LogFailure


@dataclass
class SeatRecord:
    """What one client was told about its own actions (faults_fleet.SeatDriver has these fields)."""

    seat: int
    accepted: dict[int, dict[str, Any]]
    in_flight: Sequence[tuple[int, dict[str, Any]]] = ()
    internal: Sequence[tuple[int, dict[str, Any]]] = ()
    after: dict[int, int] = field(default_factory=dict)


@dataclass
class SeatAudit:
    seat: int
    confirmed: int
    in_log: int
    by_server: int
    explained_by_in_flight: int


def audit(rep: Replay, seats: Sequence[Any], *, require_finished: bool = True) -> list[SeatAudit]:
    """Hold each seat's client record against the log (see the module docstring).

    The rule is :func:`meja.server.audit.check_claims`'s (``meja audit``, which the chaos
    benchmark runs), written once; this raises its first finding.
    """
    table = rep.table_id
    if require_finished and rep.record.status != FINISHED:
        raise AuditFailure(f"table {table}: not finished (status {rep.record.status!r}, version {rep.version})")
    claims = TableClaims(table, [
        SeatClaims(
            record.seat,
            dict(record.accepted),
            list(record.in_flight),
            [(v, a, "internal") for v, a in record.internal],
            dict(getattr(record, "after", {})),
        )
        for record in seats
    ])
    findings, _ = check_claims(rep, claims)
    out = []
    for f in findings:
        for message in f.lost + f.refused_but_applied + f.doubled:
            raise AuditFailure(message)
        out.append(SeatAudit(f.seat, f.confirmed, f.in_log, f.by_server, f.explained_by_unanswered))
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
