"""A table's log, read straight from the store and replayed through the rules.

Shared by the end-to-end tests (tests/e2e) and the fault audit (tests/faults):
the strongest check that no accepted action was lost or applied twice. The
checker itself is :mod:`meja.server.audit` (also ``meja audit``, which ``meja
bench chaos`` runs): the log must be a gap-free history (one entry per table
version), and replaying the actions it records (each version's ``act`` event,
which nobody is sent), whatever the game, through its rules from each match's
deal must give, version by version, exactly the game events the log holds, and
in the end exactly the state the record holds. This module only turns the
audit's :class:`~meja.server.audit.AuditError` into :class:`LogFailure`, an
``AssertionError``, as the tests expect.
"""

from __future__ import annotations

from typing import Any

from meja.server import audit
from meja.server.audit import Log, Replay
from meja.server.records import Table

__all__ = ["Log", "LogFailure", "Move", "Replay", "read_table", "replay", "replay_table"]

Move = Any  # a game's action (each game has its own type)


class LogFailure(AssertionError):
    """The log is not a history the rules could have produced; the message names table and version."""


async def read_table(store_url: str, table_id: str) -> tuple[int, Table, Log]:
    """``(version, record, [(version, events)...])`` of a table, straight from the store."""
    try:
        return await audit.read_table(store_url, table_id)
    except audit.AuditError as exc:
        raise LogFailure(str(exc)) from None


def replay(table_id: str, version: int, record: Table, log: Log) -> Replay:
    """Check a table's log against the rules (see :func:`meja.server.audit.replay`); what it holds."""
    try:
        return audit.replay(table_id, version, record, log)
    except audit.AuditError as exc:
        raise LogFailure(str(exc)) from None


async def replay_table(store_url: str, table_id: str) -> Replay:
    """Read a table from the store and :func:`replay` its log."""
    version, record, log = await read_table(store_url, table_id)
    return replay(table_id, version, record, log)
