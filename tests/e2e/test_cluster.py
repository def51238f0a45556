"""Issue 6, "Beyond one Redis": the store on a Redis Cluster, through two server processes.

The session's private three-master cluster (tests/cluster_fixture.py) and two
``meja serve --redis redis+cluster://...`` processes. Tables are hosted until
their keys are on every master (each table's record, log and room code key in
one slot, asked of the cluster itself, and stored on the master that owns it);
on one table per master, two people on different processes and a bot play a
whole round, one of them drops and resumes on the other process in the middle,
and the bot's moves (due actions, claimed from the cluster's due sets by either
process) happen. The log of each played table replays through the rules to its
stored state (e2e_log.replay_log), with every move confirmed to a person in it
once.

Cost: two server starts and three rounds, about 10 s (the cluster is shared
with the store's contract tests).
"""

from __future__ import annotations

import asyncio
import uuid

import redis
from e2e_harness import ServerProcess, servers
from e2e_helpers import Table, assert_contiguous, confirmed, open_table, start
from e2e_log import replay_log
from meja.store.keys import Keys
from meja_client import Player, random_policy

GRACE = 600
#: Tables hosted at most while looking for one on every master (16 buckets, 3 masters).
MAX_TABLES = 24


def round_over(client) -> bool:
    view = client.view
    return view is not None and (view["round"] > 1 or view["phase"] in ("round_over", "match_over"))


async def test_tables_on_every_master_play_rounds_through_two_processes(redis_cluster, clients):
    prefix = f"meja-e2e-cluster-{uuid.uuid4().hex[:8]}:"
    url = f"{redis_cluster.url}?prefix={prefix}"
    keys = Keys(prefix, cluster=True)
    async with servers(ServerProcess(url, name="a"), ServerProcess(url, name="b")) as (a, b):
        # Host tables (the host on A or B in turn, the second person on the other) until
        # one table is on each master.
        by_master: dict[int, Table] = {}
        for n in range(MAX_TABLES):
            urls = [a.url, b.url] if n % 2 == 0 else [b.url, a.url]
            table = await open_table(clients, urls, humans=2, bots=1, grace_s=GRACE)
            names = keys.table(table.id)
            slots = {redis_cluster.slot_of(k) for k in (names.record, names.log, names.due, keys.code(table.code))}
            assert len(slots) == 1, f"table {table.id}'s keys are in slots {slots}"
            master = redis_cluster.node_of(names.record)
            # stored where the cluster says: the owner answers, no MOVED
            with redis.Redis(host="127.0.0.1", port=master) as node:
                assert node.exists(names.record, names.log, keys.code(table.code)) == 3
            by_master.setdefault(master, table)
            if len(by_master) == len(redis_cluster.nodes):
                break
        assert sorted(by_master) == sorted(port for _, port in redis_cluster.nodes), "tables not on every master"

        played = list(by_master.values())
        for table in played:
            await start(table)

        async def play(table: Table, seed: int) -> tuple[int, int]:
            """Play to the middle of the round, Bob resumes on the other process, play it out.
            The moves confirmed to Ann and to Bob."""
            ann, bob = table.humans
            first = [Player(c, random_policy(seed + i), until=lambda c: c.view["version"] >= 8 or round_over(c))
                     for i, c in enumerate((ann, bob))]
            await asyncio.gather(*(p.run() for p in first))
            other = a.url if bob.url == b.url else b.url
            await bob.close()
            bob2 = await clients(other)
            await bob2.resume(table=table.id, token=bob.token, since=bob.version)
            assert bob2.seat == 1 and bob2.view is not None and bob2.view["hand"] is not None
            rest = [Player(c, random_policy(seed + 2 + i), until=round_over) for i, c in enumerate((ann, bob2))]
            await asyncio.gather(*(p.run() for p in rest))
            for client in (ann, bob2):
                await client.wait_for(round_over, timeout=60)
                assert_contiguous(client)
            return confirmed(first[0]) + confirmed(rest[0]), confirmed(first[1]) + confirmed(rest[1])

        results = await asyncio.gather(*(play(t, 10 * i) for i, t in enumerate(played)))
        for table, (ann_moves, bob_moves) in zip(played, results, strict=True):
            replay = await replay_log(url, table.id)
            counts = replay.count_by_seat()
            assert counts[0] == ann_moves and counts[1] == bob_moves
            assert counts[2] > 0, f"the bot of table {table.id} never acted: due actions did not run"
