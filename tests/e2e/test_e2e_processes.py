"""Issue 3, "Done when" 3: several server processes, one Redis, and processes that die.

- Two processes, one Redis: players connected to different processes play
  rounds together (every change reaches every process).
- ``kill -9`` of one process in the middle of a round, just after it committed
  the move that hands the turn to the bot: its clients reconnect to the other
  process with their seat tokens and finish the match; the bot's move (scheduled
  by the dead process) still happens; the round finishes; the store's log
  replays through the rules to exactly the stored state, and each human's
  accepted actions appear in it exactly once (e2e_log.replay_log).
- The only process stopped (SIGTERM: clients closed with 1001) and started again:
  every table goes on, bots included, to the end of its round.

Cost: about 10-20 s (five server starts).
"""

from __future__ import annotations

import asyncio

import pytest
from e2e_harness import ServerProcess, servers
from e2e_helpers import (
    assert_contiguous,
    assert_fair_deals,
    confirmed,
    open_table,
    seat_events,
    start,
)
from e2e_log import replay_log
from meja_client import ConnectionClosed, Player, random_policy

GRACE = 600


def round_over(client) -> bool:
    view = client.view
    return view is not None and (view["round"] > 1 or view["phase"] in ("round_over", "match_over"))


async def test_players_on_two_processes_finish_a_round(fresh_redis, clients):
    async with servers(ServerProcess(fresh_redis, name="a"), ServerProcess(fresh_redis, name="b")) as (a, b):
        table = await open_table(clients, [a.url, b.url], humans=2, bots=1, grace_s=GRACE)
        watcher = await clients(b.url)
        await watcher.watch(code=table.code)
        await start(table)
        players = [Player(c, random_policy(i), until=round_over) for i, c in enumerate(table.humans)]
        await asyncio.gather(*(p.run() for p in players))
        await watcher.wait_for(round_over)
        round_1 = next(e for e in watcher.events if e["kind"] == "round_over")
        for client in table.humans:
            await client.wait_for(lambda c: any(e["kind"] == "round_over" for e in c.events))
            mine = next(e for e in client.events if e["kind"] == "round_over")
            assert mine == round_1
            assert_contiguous(client)
        assert_contiguous(watcher)
        assert players[0].accepted and players[1].accepted
        replay = await replay_log(fresh_redis, table.id)
        counts = replay.count_by_seat()
        assert counts[0] == confirmed(players[0]) and counts[1] == confirmed(players[1])
        assert counts[2] > 0, "the bot never acted"


async def test_kill_one_process_mid_round(fresh_redis, clients):
    # A's bot thinks for a second, so A is dead before the bot move it schedules falls due;
    # a short lease, so that a claim a dead process held comes due again soon.
    a = ServerProcess(fresh_redis, name="a", env={
        "MEJA_BOT_DELAY_MIN_MS": "900", "MEJA_BOT_DELAY_MAX_MS": "1000", "MEJA_DUE_LEASE_S": "2"})
    b = ServerProcess(fresh_redis, name="b", env={"MEJA_DUE_LEASE_S": "2"})
    async with servers(a, b):
        # Ann (seat 0, host) and a watcher on B; Bob (seat 1) on A; seat 2 is the bot, after Bob.
        table = await open_table(clients, [b.url, a.url], humans=2, bots=1, grace_s=GRACE)
        ann, bob = table.humans
        watcher = await clients(b.url)
        await watcher.watch(table=table.id)
        await start(table)

        def bobs_move_made_it_the_bots_turn(c) -> bool:
            return c.view is not None and c.view["phase"] == "play" and c.view["turn"] == 2 and bool(
                seat_events(c, "play", 1) or seat_events(c, "draw", 1) or seat_events(c, "pass", 1)
            )

        ann_player = Player(ann, random_policy(1), until=bobs_move_made_it_the_bots_turn)
        bob_player = Player(bob, random_policy(2), until=bobs_move_made_it_the_bots_turn)
        await asyncio.gather(ann_player.run(), bob_player.run())
        seen_before = len(watcher.events)
        version_at_kill = watcher.version
        round_at_kill = watcher.view["round"]
        await asyncio.to_thread(a.kill)
        assert await bob.wait_closed() == 1006  # no closing handshake: the process is gone

        # The bot's move, scheduled by A in the commit of Bob's move, still happens (on B).
        await watcher.wait_for(
            lambda c: any(e.get("seat") == 2 and e["kind"] in ("play", "draw", "pass")
                          for e in c.events[seen_before:]),
            timeout=60,
        )
        assert watcher.version > version_at_kill

        bob2 = await clients(b.url)
        await bob2.resume(table=table.id, token=bob.token, since=bob.version)
        assert bob2.view["hand"] is not None and bob2.seat == 1

        def round_finished(c) -> bool:
            return c.view["round"] > round_at_kill or c.view["phase"] in ("round_over", "match_over")

        ann_rest = Player(ann, random_policy(3), until=round_finished)
        bob_rest = Player(bob2, random_policy(4), until=round_finished)
        await asyncio.gather(ann_rest.run(), bob_rest.run())
        await watcher.wait_for(round_finished)
        for client in (ann, bob2, watcher):
            assert_contiguous(client)
        assert assert_fair_deals(watcher.events) >= round_at_kill

        # The log is a gap-free history that replays to the stored state, and every action
        # a human had confirmed is in it exactly once (Bob's may include one sent at the kill).
        replay = await replay_log(fresh_redis, table.id)
        assert replay.version >= watcher.version
        counts = replay.count_by_seat()
        assert counts[0] == confirmed(ann_player) + confirmed(ann_rest)
        bob_confirmed = confirmed(bob_player) + confirmed(bob_rest)
        assert bob_confirmed <= counts[1] <= bob_confirmed + len(bob_player.in_flight)


async def test_restart_the_only_process_every_table_goes_on(fresh_redis, clients):
    server = ServerProcess(fresh_redis, name="only")
    async with servers(server):
        first = await open_table(clients, server.url, humans=2, bots=1, grace_s=GRACE)
        second = await open_table(clients, server.url, humans=1, bots=2, grace_s=GRACE)
        for table in (first, second):
            await start(table)
        # A few moves on the first table, then stop the process (SIGTERM: close 1001).
        warmup = [Player(c, random_policy(10 + i), until=lambda c: c.view["version"] >= 4)
                  for i, c in enumerate(first.humans)]
        await asyncio.gather(*(p.run() for p in warmup))
        seen = {c: c.version for t in (first, second) for c in t.humans}
        assert await server.astop() == 0, server.log()
        for client in seen:
            assert await client.wait_closed() == 1001

        await server.astart()
        resumed = []
        for client, since in seen.items():
            again = await clients(server.url)
            await again.resume(table=client.table_id, token=client.token, since=since)
            assert again.seat == client.seat and again.view is not None
            resumed.append(again)

        # Each table plays on to the end of its current round (its bots too).
        rounds = {c: c.view["round"] for c in resumed}

        def round_done(c) -> bool:
            return c.view["round"] > rounds[c] or c.view["phase"] in ("round_over", "match_over")

        players = [Player(c, random_policy(20 + i), until=round_done) for i, c in enumerate(resumed)]
        await asyncio.gather(*(p.run() for p in players))
        for table in (first, second):
            replay = await replay_log(fresh_redis, table.id)
            stopped_at = seen[table.host]
            after = {seat for v, seat, _ in replay.actions if v > stopped_at}
            assert after, f"table {table.id} did not go on after the restart"
            if table is second:
                assert after & set(table.bots), "the bots did not play on after the restart"


async def test_resume_on_another_process_replaces_the_old_connection(fresh_redis, clients):
    async with servers(ServerProcess(fresh_redis, name="a"), ServerProcess(fresh_redis, name="b")) as (a, b):
        table = await open_table(clients, a.url, humans=2, bots=1, grace_s=GRACE)
        _, bob = table.humans
        bob_on_b = await clients(b.url)
        await bob_on_b.resume(table=table.id, token=bob.token)
        assert await bob.wait_closed() == 4001
        with pytest.raises(ConnectionClosed) as closed:
            await bob.ping()
        assert closed.value.code == 4001
        table.humans[1] = bob_on_b
        await start(table)
        assert bob_on_b.view is not None and bob_on_b.view["seat"] == 1
        # Ann on A and Bob on B play a few turns: every change reaches both processes.
        players = [Player(c, until=lambda c: c.view["version"] >= 6 or c.view["phase"] != "play")
                   for c in table.humans]
        await asyncio.gather(*(p.run() for p in players))
        assert players[1].accepted
