"""Issue 6, faults: Redis restarted mid-round, and clients that vanish without a close frame.

Same fleet, same audit as test_faults_processes.py (see its docstring):
every table finishes, every accepted action is in the log exactly once, and
nothing the server refused with ``internal`` was applied.

- **Redis restart** (``appendfsync always``): Redis is killed (SIGKILL) while
  the tables are mid-round, stays down for a second and comes back on the same
  port and files. The servers ride over it (redis-py retries, the pub/sub
  listener resubscribes and resyncs); players whose actions fail meanwhile get
  ``internal`` and decide again.
- **Vanishing clients**: in half the tables seat 1 stops reading and writing
  (its network is gone: only the server's keepalive can tell), in the other
  half its TCP connection drops with no close frame. The server marks the seat
  away, a bot plays for it after the table's ``grace_s`` (2 s here), and the
  host plays on to the end; every action of seat 1 after its last accepted one
  is the bot's.

Cost: about 25 s and 20 s on a busy 2-core machine (CI size: 20 tables, 8
tables). ``MEJA_LONG=1``: 50 tables, whole matches.
"""

from __future__ import annotations

import asyncio
import time

from faults_audit import audit_fleet, no_unexpected_refusals, replay_table
from faults_fleet import ONE_ROUND, WHOLE_MATCH, Fleet
from faults_harness import LONG, ServerProcess, running, stall_bound_s

OPTIONS = WHOLE_MATCH if LONG else ONE_ROUND
SLACK_S = 45.0


async def test_redis_restarted_mid_round_loses_nothing(aof_redis):
    tables = 50 if LONG else 20
    a = ServerProcess(aof_redis.url, name="a")
    b = ServerProcess(aof_redis.url, name="b")
    with running(a, b):
        fleet = Fleet([a.url, b.url], options=OPTIONS, seed=4)
        try:
            await fleet.open(tables)
            await fleet.start()
            outage: list[float] = []

            async def restart_redis() -> None:
                began = time.monotonic()
                await asyncio.to_thread(aof_redis.stop)  # SIGKILL: a crash, not a clean shutdown
                await asyncio.sleep(1.0)
                await asyncio.to_thread(aof_redis.start)
                outage.append(time.monotonic() - began)

            # Redis comes back within redis-py's retry budget (a few seconds), then the listener resyncs.
            bound = stall_bound_s() + 5.0
            watchdog = await fleet.play(watchdog_s=bound + SLACK_S, fault=restart_redis, when=fleet.mid_round())
            no_unexpected_refusals(fleet.drivers)
            totals = await audit_fleet(aof_redis.url, fleet.tables)
            refused = sum(len(d.internal) for d in fleet.drivers)
            print(f"\nRedis restart ({outage[0]:.1f} s down): {totals}; {refused} actions refused with 'internal'; "
                  f"longest stall {watchdog.max_stall_s:.2f} s (bound {bound:.1f} s)")
            assert a.running and b.running
        finally:
            await fleet.close()


async def test_clients_that_vanish_without_a_close_frame(aof_redis):
    tables = 16 if LONG else 8
    grace_s = 2
    a = ServerProcess(aof_redis.url, name="a")
    b = ServerProcess(aof_redis.url, name="b")
    with running(a, b):
        fleet = Fleet([a.url, b.url], options=OPTIONS, grace_s=grace_s, seed=5)
        try:
            await fleet.open(tables)
            for n, table in enumerate(fleet.tables):
                leaver = table.drivers[1]
                leaver.vanish_after = 1
                leaver.vanish = "silent" if n % 2 == 0 else "abort"
            await fleet.start()
            bound = stall_bound_s(grace_s=grace_s)
            watchdog = await fleet.play(watchdog_s=bound + SLACK_S)
            no_unexpected_refusals(fleet.drivers)
            totals = await audit_fleet(aof_redis.url, fleet.tables)
            vanished = 0
            for table in fleet.tables:
                leaver = table.drivers[1]
                if not leaver.stopped:
                    continue  # the round ended before its first action was answered
                vanished += 1
                rep = await replay_table(aof_redis.url, table.table_id)
                kinds = [e.kind for _, entry in rep.log for e in entry if e.data.get("seat") == 1]
                assert "away" in kinds and "auto" in kinds, f"{leaver.vanish}: seat 1 never went away and auto"
                assert kinds.index("away") < kinds.index("auto")
                last_mine = max(leaver.accepted)
                after = [v for v, _ in rep.by_seat(1) if v > last_mine]
                assert after, "the bot never played for the vanished seat"
            assert vanished >= tables // 2, f"only {vanished} of {tables} clients vanished before the end"
            print(f"\nvanishing clients ({vanished}): {totals}; longest stall {watchdog.max_stall_s:.2f} s "
                  f"(bound {bound:.1f} s)")
        finally:
            await fleet.close()
