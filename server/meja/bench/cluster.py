"""``meja bench cluster``: what a move costs a Redis Cluster, by number of masters.

    meja bench cluster [--json] [--masters 1,3,6] [--replicas 1] [--tables 32] [--moves 20]
                       [--record-bytes 2500]
    meja bench cluster --hosts [--minutes 2] [--tables 32] [--pace 1] [--json]   (root: see below)

For each number of masters (one run, side by side), a private Redis Cluster on loopback
(``redis-server --cluster-enabled yes``, no persistence, each master with ``--replicas``
replicas, the slots in equal runs), and on it the store as two server processes use it:
a writer :class:`~meja.store.redis.RedisStore` commits ``--moves`` moves at each of
``--tables`` tables (spread over the 16 buckets, the tables in parallel, each table's moves
one after another), while a reader store, subscribed to every table, receives each change
(counted: a run that loses one fails). A move is one commit of a ``--record-bytes`` record
and a 100-byte entry, what the commit script publishes. Each move's record differs from the one
before in about 1 % of its bytes (a move changes a few fields of a table's record), so the
commit publishes it as a delta against the one before, as a game's commit does.

Three passes on each cluster:

- **plain**: ``PUBLISH`` (``sharded_pubsub=False``), with the replica wait;
- **sharded**: ``SPUBLISH``/``SSUBSCRIBE`` (the default), with the replica wait;
- **sharded, no wait**: the same with ``replica_wait_ms=0``.

What it prints, per move (over the pass, from ``CLUSTER INFO`` of every node before and
after): the pub/sub messages the nodes sent each other over the cluster bus
(``cluster_stats_messages_publish_sent`` plus ``..._publishshard_sent``), every bus message
sent (pings and pongs included, which come with time, not moves), and the bytes those
pub/sub messages carried (each holds the channel and the published payload, the record's
delta or the record, besides the bus header of about 2 KB, which is not counted); and the writer's commit latency p50 /
p99 (from the call to its return: with the wait, until a replica has it).

Everything runs on this machine's loopback, and every process it starts is stopped at the end.

``--hosts`` runs something else: Meja on several hosts made with network namespaces, a master
killed, a server and players partitioned, then ``meja audit`` (:mod:`meja.bench.multihost`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from meja.bench.procs import cli_binary, redis_command
from meja.bench.server import percentile
from meja.store import delta
from meja.store.base import Change
from meja.store.keys import BUCKETS, bucket_of
from meja.store.redis import RedisStore

#: How long the nodes may take to agree on the slots, in seconds.
START_TIMEOUT_S = 60.0
TTL_MS = 600_000
SLOTS = 16384


class BenchCluster:
    """A private Redis Cluster on loopback: ``masters`` masters with ``replicas`` replicas each,
    spoken to with ``redis-cli`` (the benchmarks leave Redis clients to the store)."""

    def __init__(self, workdir: Path, masters: int, replicas: int) -> None:
        self._cli = cli_binary()
        self.masters = masters
        self.workdir = workdir
        count = masters * (1 + replicas)
        self._rand = random.Random()
        self.ports = [0] * count
        self.processes: list[subprocess.Popen[bytes]] = []
        for i in range(count):
            self.processes.append(self._launch(i))

    @property
    def bus_ports(self) -> list[int]:
        return [p + 20_000 for p in self.ports]

    def _launch(self, i: int) -> subprocess.Popen[bytes]:
        """Node ``i`` on a random port (another one if that was taken: see :meth:`start`)."""
        port = self.ports[i] = self._rand.randrange(20_000, 40_000)
        node_dir = self.workdir / f"node-{port}"
        node_dir.mkdir(exist_ok=True)
        cmd = redis_command(port, node_dir, logfile=node_dir / "redis.log", cluster_port=port + 20_000)
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def _up(self, i: int) -> bool:
        if self.processes[i].poll() is not None:  # its port was taken: another one
            self.processes[i] = self._launch(i)
            return False
        return self.cli(self.ports[i], "PING") == "PONG"

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports[: self.masters])

    def cli(self, port: int, *args: str | int) -> str:
        done = subprocess.run(
            [self._cli, "-h", "127.0.0.1", "-p", str(port), *map(str, args)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return done.stdout.strip()

    def info(self, port: int, *args: str) -> dict[str, str]:
        pairs = (line.split(":", 1) for line in self.cli(port, *args).splitlines() if ":" in line)
        return {k.strip(): v.strip() for k, v in pairs}

    def start(self) -> BenchCluster:
        """Join the nodes, give the masters equal runs of slots, attach the replicas; wait until up."""
        deadline = time.monotonic() + START_TIMEOUT_S
        try:
            for i in range(len(self.ports)):
                self._until(deadline, lambda i=i: self._up(i), "a node did not start")
            ids = [self.cli(p, "CLUSTER", "MYID") for p in self.ports]
            for port, bus in zip(self.ports[1:], self.bus_ports[1:], strict=True):
                self.cli(self.ports[0], "CLUSTER", "MEET", "127.0.0.1", port, bus)
            for i in range(self.masters):
                first, last = i * SLOTS // self.masters, (i + 1) * SLOTS // self.masters - 1
                self.cli(self.ports[i], "CLUSTER", "ADDSLOTSRANGE", first, last)
            for k, p in enumerate(self.ports[self.masters :]):
                master = ids[k % self.masters]
                # "Unknown node" until the handshake with the master is over
                self._until(
                    deadline,
                    lambda p=p, m=master: self.cli(p, "CLUSTER", "REPLICATE", m) == "OK",
                    "a replica found no master",
                )
            for p in self.ports:
                self._until(deadline, lambda p=p: self._ok(p), "the cluster did not reach cluster_state:ok")
            for p in self.ports[self.masters :]:
                self._until(
                    deadline,
                    lambda p=p: self.info(p, "INFO", "replication").get("master_link_status") == "up",
                    "a replica did not sync",
                )
        except BaseException:
            self.stop()
            raise
        return self

    def _ok(self, port: int) -> bool:
        info = self.info(port, "CLUSTER", "INFO")
        return info.get("cluster_state") == "ok" and info.get("cluster_slots_ok") == str(SLOTS)

    @staticmethod
    def _until(deadline: float, check: Any, what: str) -> None:
        while not check():
            if time.monotonic() > deadline:
                raise RuntimeError(what)
            time.sleep(0.05)

    def bus_stats(self) -> dict[str, int]:
        """Summed over every node: pub/sub messages sent over the bus, and every bus message sent."""
        publish = total = 0
        for port in self.ports:
            info = self.info(port, "CLUSTER", "INFO")
            publish += sum(
                int(v)
                for k, v in info.items()
                if k.startswith("cluster_stats_messages_publish") and k.endswith("_sent")
            )
            total += int(info.get("cluster_stats_messages_sent", 0))
        return {"publish": publish, "total": total}

    def stop(self) -> None:
        for p in self.processes:
            if p.poll() is None:
                p.kill()
        for p in self.processes:
            p.wait(30)


def _table_ids(count: int) -> list[tuple[str, str]]:
    """``count`` (table id, room code) pairs, round-robin over the 16 buckets (so a few tables
    still reach every master; on a cluster the id must be in its code's bucket)."""
    per = -(-count // BUCKETS)
    by_bucket: dict[int, list[tuple[str, str]]] = {b: [] for b in range(BUCKETS)}
    n = 0
    while any(len(pairs) < per for pairs in by_bucket.values()):
        n += 1
        code = f"B{n:05d}"
        pairs = by_bucket[bucket_of(code)]
        if len(pairs) < per:
            table_id = os.urandom(16).hex()
            while bucket_of(table_id) != bucket_of(code):
                table_id = os.urandom(16).hex()
            pairs.append((table_id, code))
    return [by_bucket[b][i] for i in range(per) for b in range(BUCKETS)][:count]


def _moved(record: bytes, version: int) -> bytes:
    """``record`` after a move: about 1 % of its bytes changed, where ``version`` says."""
    out = bytearray(record)
    pick = random.Random(version)
    for _ in range(max(1, len(out) // 100)):
        out[pick.randrange(len(out))] = pick.randrange(256)
    return bytes(out)


async def _pass(
    cluster: BenchCluster, *, sharded: bool, wait_ms: int, tables: int, moves: int, record_bytes: int
) -> dict[str, Any]:
    prefix = f"meja-bench-{os.urandom(4).hex()}:"
    record, entry = os.urandom(record_bytes), os.urandom(100)
    latencies: list[float] = []
    async with (
        RedisStore(cluster.url, prefix=prefix, sharded_pubsub=sharded, replica_wait_ms=wait_ms) as writer,
        RedisStore(cluster.url, prefix=prefix, sharded_pubsub=sharded, replica_wait_ms=wait_ms) as reader,
    ):
        pairs = _table_ids(tables)
        for table_id, code in pairs:
            if not await writer.create(table_id, code, record, entry, ttl_ms=TTL_MS):
                raise RuntimeError("a table could not be created")
            await reader.subscribe(table_id)
        expected = tables * moves
        received = 0
        heard: dict[str, int] = {}  # each table's latest version the reader has
        published: list[int] = []
        primed, done = asyncio.Event(), asyncio.Event()

        async def read() -> None:
            nonlocal received
            async for change in reader.changes():
                if not isinstance(change, Change):
                    continue
                # (a change the reader had to read back, its base unknown, may stand for several)
                received += max(0, change.version - max(1, heard.get(change.table_id, 1)))
                heard[change.table_id] = max(change.version, heard.get(change.table_id, 0))
                if len(heard) == len(pairs) and min(heard.values()) >= 1:
                    primed.set()
                if received >= expected:
                    done.set()

        reading = asyncio.create_task(read())
        # The first commit of each table loads the script and learns the masters' replicas; the
        # reader has each table's first version before the moves (the base of their deltas).
        for table_id, _ in pairs:
            await writer.commit(table_id, 0, record, entry, ttl_ms=TTL_MS)
        try:
            await asyncio.wait_for(primed.wait(), 60)
        except TimeoutError:
            reading.cancel()
            raise RuntimeError(f"the reader heard the first version of {len(heard)} of {len(pairs)} tables") from None

        async def play(table_id: str) -> None:
            prev = record
            for v in range(1, moves + 1):
                now = _moved(prev, v)
                # what the commit publishes in place of the record: its delta, where smaller
                made = delta.make(prev, now)
                published.append(len(now) if made is None else len(made))
                prev = now
                start = time.perf_counter()
                if not await writer.commit(table_id, v, now, entry, ttl_ms=TTL_MS):
                    raise RuntimeError(f"table {table_id}: commit {v} refused")
                latencies.append((time.perf_counter() - start) * 1000)

        try:
            before = await asyncio.to_thread(cluster.bus_stats)
            await asyncio.gather(*(play(t) for t, _ in pairs))
            try:
                await asyncio.wait_for(done.wait(), 60)
            except TimeoutError:
                raise RuntimeError(f"the reader received {received} of {expected} changes") from None
            after = await asyncio.to_thread(cluster.bus_stats)
        finally:
            reading.cancel()
        unreplicated = writer.unreplicated
    # what the script publishes: msgpack [schema, version, nil, entry, delta] (or the record in
    # the delta's place) (+ the channel's name)
    payload = sum(published) / len(published) + len(entry) + 16 + len(f"{prefix}{{00.00}}:t:{pairs[0][0]}:ch")
    publish = (after["publish"] - before["publish"]) / expected
    return {
        "publish": "sharded" if sharded else "plain",
        "replica_wait_ms": wait_ms,
        "moves": expected,
        "received": received,
        "bus_pubsub_msgs_per_move": round(publish, 2),
        "bus_msgs_per_move": round((after["total"] - before["total"]) / expected, 2),
        "bus_pubsub_bytes_per_move": round(publish * payload),
        "published_bytes_per_move": round(payload),
        "commit_ms_p50": round(percentile(latencies, 50), 2),
        "commit_ms_p99": round(percentile(latencies, 99), 2),
        "unreplicated": unreplicated,
    }


async def _bench(args: argparse.Namespace) -> dict[str, Any]:
    runs = []
    with tempfile.TemporaryDirectory(prefix="meja-bench-cluster-") as tmp:
        for masters in args.masters:
            workdir = Path(tmp) / f"m{masters}"
            workdir.mkdir()
            cluster = BenchCluster(workdir, masters, args.replicas)
            try:
                await asyncio.to_thread(cluster.start)
                for sharded, wait_ms in ((False, 1000), (True, 1000), (True, 0)):
                    result = await _pass(
                        cluster,
                        sharded=sharded,
                        wait_ms=wait_ms,
                        tables=args.tables,
                        moves=args.moves,
                        record_bytes=args.record_bytes,
                    )
                    runs.append({"masters": masters, "replicas": args.replicas, **result})
            finally:
                cluster.stop()
    return {"tables": args.tables, "moves_per_table": args.moves, "record_bytes": args.record_bytes, "runs": runs}


def _masters(text: str) -> list[int]:
    values = [int(part) for part in text.split(",") if part.strip()]
    if not values or any(not 1 <= v <= 16 for v in values):
        raise argparse.ArgumentTypeError("masters must be 1-16, comma-separated")
    return values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
    parser.add_argument(
        "--masters",
        type=_masters,
        default=[1, 3, 6],
        metavar="N,N",
        help="cluster sizes, side by side in one run (default 1,3,6)",
    )
    parser.add_argument("--replicas", type=int, default=1, metavar="R", help="replicas per master (default 1)")
    parser.add_argument("--tables", type=int, default=32, metavar="T", help="tables (default 32)")
    parser.add_argument("--moves", type=int, default=20, metavar="M", help="moves per table (default 20)")
    parser.add_argument(
        "--record-bytes",
        type=int,
        default=2500,
        metavar="B",
        help="the record committed and published each move (default 2500)",
    )
    parser.add_argument(
        "--hosts",
        action="store_true",
        help="instead: the multi-host run in network namespaces (root; see meja.bench.multihost)",
    )
    parser.add_argument("--minutes", type=float, default=2.0, metavar="M", help="--hosts: how long to play (default 2)")
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        metavar="S",
        help="--hosts: a person's thinking time per decision, 0.5 to 1.5 times S (default 1)",
    )
    parser.add_argument("--seed", type=int, default=1, help="--hosts: seed of the players")
    parser.add_argument("--workdir", metavar="DIR", help="--hosts: keep the logs and the claims here")


def _print_table(doc: dict[str, Any]) -> None:
    print(f"{doc['tables']} tables x {doc['moves_per_table']} moves, {doc['record_bytes']}-byte records")
    print(
        "masters  publish  wait_ms  bus pub/sub msgs/move  bus msgs/move  bus pub/sub bytes/move  commit ms p50 / p99"
    )
    for r in doc["runs"]:
        print(
            f"{r['masters']:>7}  {r['publish']:>7}  {r['replica_wait_ms']:>7}  {r['bus_pubsub_msgs_per_move']:>21}  "
            f"{r['bus_msgs_per_move']:>13}  {r['bus_pubsub_bytes_per_move']:>22}  "
            f"{r['commit_ms_p50']:>7} / {r['commit_ms_p99']}"
        )


def run(args: argparse.Namespace) -> int:
    if args.hosts:
        from meja.bench.multihost import run_hosts

        return run_hosts(args)
    if args.tables < 1 or args.moves < 1 or args.replicas < 0 or args.record_bytes < 1:
        print("meja bench cluster: --tables, --moves and --record-bytes must be at least 1", file=sys.stderr)
        return 2
    try:
        doc = asyncio.run(_bench(args))
    except RuntimeError as exc:
        print(f"meja bench cluster: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        _print_table(doc)
    return 0
