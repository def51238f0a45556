"""``meja bench cluster`` at CI size: clusters of one and three masters (a replica each), plain
and sharded publish. Message counts, not times, are asserted: they depend on the design, not on
the machine. About 20 s, most of it starting and joining the nodes."""

from __future__ import annotations

import argparse
import shutil

import pytest
from meja.bench import cluster as bench


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed (make deps)")
async def test_sharded_publish_costs_the_bus_the_same_at_every_size() -> None:
    args = argparse.Namespace(masters=[1, 3], replicas=1, tables=16, moves=3, record_bytes=500)
    doc = await bench._bench(args)
    runs = {(r["masters"], r["publish"], r["replica_wait_ms"]): r for r in doc["runs"]}
    assert len(runs) == 6
    for r in runs.values():
        assert r["received"] == r["moves"] == 16 * 3  # the reader had every change
        assert r["unreplicated"] == 0  # every acknowledged commit was on a replica (or no wait asked)
        assert 0 < r["commit_ms_p50"] <= r["commit_ms_p99"]
    # SPUBLISH goes to the master's one replica over the bus, whatever the number of masters;
    # a plain PUBLISH goes to every other node: 1 with one master, 5 with three (and their replicas)
    for wait in (1000, 0):
        assert runs[(1, "sharded", wait)]["bus_pubsub_msgs_per_move"] == 1.0
        assert runs[(3, "sharded", wait)]["bus_pubsub_msgs_per_move"] == 1.0
    assert runs[(1, "plain", 1000)]["bus_pubsub_msgs_per_move"] == 1.0
    assert runs[(3, "plain", 1000)]["bus_pubsub_msgs_per_move"] == 5.0
