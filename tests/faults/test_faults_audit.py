"""The fault suite's checker can fail: planted bugs and doctored records are caught.

- A server with a planted bug (planted_serve.py ``double_apply``: every
  player's draw is applied a second time in a new version) plays a few tables;
  the audit must report an action applied that no client was told about.
- On the log of a clean run: an accepted action the log lacks (lost), an
  action the log has that its client was refused with ``internal``, a log with
  a version missing, and a log whose events do not follow from the actions are
  each reported.

Cost: about 10 s (two server starts, a few one-round tables).
"""

from __future__ import annotations

import dataclasses

import pytest
from faults_audit import AuditFailure, SeatRecord, audit, audit_fleet, read_table, replay
from faults_fleet import ONE_ROUND, Fleet
from faults_harness import ServerProcess, running, stall_bound_s


async def play_tables(url: str, store_url: str, n: int, seed: int) -> Fleet:
    fleet = Fleet([url], options=ONE_ROUND, seed=seed)
    await fleet.open(n)
    await fleet.start()
    await fleet.play(watchdog_s=stall_bound_s() + 45)
    return fleet


async def test_a_server_that_applies_a_draw_twice_is_caught(aof_redis):
    planted = ServerProcess(aof_redis.url, name="planted", plant="double_apply")
    with running(planted):
        fleet = await play_tables(planted.url, aof_redis.url, 4, seed=11)
        try:
            draws = sum(1 for d in fleet.drivers for a in d.accepted.values() if a["kind"] == "draw")
            assert draws, "no player drew: the plant never fired (choose another seed)"
            with pytest.raises(AuditFailure, match="applied but never accepted"):
                await audit_fleet(aof_redis.url, fleet.tables)
        finally:
            await fleet.close()


async def test_lost_refused_missing_and_rewritten_actions_are_caught(aof_redis):
    server = ServerProcess(aof_redis.url, name="clean")
    with running(server):
        fleet = await play_tables(server.url, aof_redis.url, 1, seed=12)
        try:
            await audit_fleet(aof_redis.url, fleet.tables)  # the clean run passes
            table = fleet.tables[0]
            version, record, log = await read_table(aof_redis.url, table.table_id)
            rep = replay(table.table_id, version, record, log)
            driver = max(table.drivers, key=lambda d: len(d.accepted))
            mine = SeatRecord(driver.seat, dict(driver.accepted), list(driver.in_flight), list(driver.internal))
            assert mine.accepted, "the seat never acted"

            # Lost: the client was told an action was applied at a version where the seat did not act.
            other = next(v for v, _ in log if v not in mine.accepted)
            lost = dataclasses.replace(mine, accepted={**mine.accepted, other: {"kind": "draw"}})
            with pytest.raises(AuditFailure, match=r"not in the log|the log has"):
                audit(rep, [lost])

            # Refused with 'internal' ("the table is unchanged") yet in the log.
            v, action = next(iter(sorted(mine.accepted.items())))
            refused = dataclasses.replace(
                mine, accepted={k: a for k, a in mine.accepted.items() if k != v}, internal=[(v - 1, action)]
            )
            with pytest.raises(AuditFailure, match="internal"):
                audit(rep, [refused])

            # A version missing from the log, and a log entry whose events were rewritten.
            with pytest.raises(AuditFailure, match="not contiguous"):
                replay(table.table_id, version, record, [e for e in log if e[0] != v])
            doctored = [
                (ver, tuple(e._replace(data={**e.data, "draws_left": 9}) if e.kind == "draw" else e
                            for e in entry))
                for ver, entry in log
            ]
            if any(e.kind == "draw" for _, entry in log for e in entry):
                with pytest.raises(AuditFailure, match="not what"):
                    replay(table.table_id, version, record, doctored)
        finally:
            await fleet.close()
