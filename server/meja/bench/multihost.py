"""``meja bench cluster --hosts``: Meja on several hosts, made on this machine with network namespaces.

    meja bench cluster --hosts [--minutes M] [--tables N] [--pace S] [--json] [--workdir DIR]

Needs root (``ip netns``) and redis-server. Every host is a network namespace of its own
(``ip netns add``), joined to one bridge by a veth pair, with an address of the project's own
test network, ``10.250.24.0/24`` (:data:`HOSTS`); the bridge lives in a namespace of its own
too, so nothing of this machine's own network is touched, and everything is removed at the end:

- six Redis hosts: three masters (``r1``-``r3``) with a replica each (``r4``-``r6``), one
  Redis Cluster (``--cluster-node-timeout`` :data:`NODE_TIMEOUT_MS`: a dead master is failed
  over in a few seconds);
- two ``meja serve`` hosts (``s1``, ``s2``) on the cluster, with :mod:`meja.bench.chaos`'s
  short leases and heartbeats;
- a load host (``load``) where ``meja.bench.multihost load`` plays ``--tables`` tables of
  :mod:`meja.bench.chaos` (two scripted people and a bot each, seat 0 on one server and
  seat 1 on the other, people thinking ``--pace`` seconds, one-round matches and rematches for
  ``--minutes``, then each table finishes the match in hand: as long as that takes while the
  tables in play make progress, :data:`DRAIN_STALL_S`, at most :data:`DRAIN_S`), people
  reconnecting and resuming on their own as the page does.

While they play, from outside the hosts (as an operator's mishaps would come):

1. **a master killed** (SIGKILL of ``r1``'s redis-server): its replica ``r4`` is promoted by
   the cluster; the servers follow the slots to it (MOVED, a refreshed slot map), and every
   commit they had acknowledged was on ``r4`` already (the replica wait);
2. **a server partitioned from Redis** (``s1`` gets blackhole routes to every Redis host for
   :data:`PARTITION_S` seconds, longer than its heartbeat's and its leases' lifetimes), its
   players still connected to it; then healed;
3. **a player partitioned from its server** (the load host gets a blackhole route to ``s2``
   for :data:`PARTITION_S` seconds: every person on ``s2`` loses the server and resumes
   on ``s1``); then healed.

Then ``meja audit`` (on the load host, against the cluster) holds what every person was told
against every table's log: 0 acknowledged actions lost, 0 applied twice, every log replays,
every table finished (every match it began is over). A table that did not is reported with where
its people were waiting, its longest stall and its last versions (its log's events, its seats).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

from meja.bench.chaos import CHAOS_ENV
from meja.bench.server import COMMON_ENV

#: The test network (private, used by nothing else) and each host's address on it.
NETWORK: Final = "10.250.24"
HOSTS: Final = {"r1": 11, "r2": 12, "r3": 13, "r4": 14, "r5": 15, "r6": 16, "s1": 21, "s2": 22, "load": 30}
MASTERS: Final = ("r1", "r2", "r3")
REPLICAS: Final = {"r4": "r1", "r5": "r2", "r6": "r3"}
REDIS_PORT: Final = 7000
BUS_PORT: Final = 17000
MEJA_PORT: Final = 8000
NODE_TIMEOUT_MS: Final = 2000
#: How long a partition lasts: longer than a server's heartbeat TTL and its due leases (2 s each).
PARTITION_S: Final = 6.0
#: After the play window, the tables finish the match in hand: as long as it takes while each table
#: still in play makes progress (a game event at least every DRAIN_STALL_S seconds), at most DRAIN_S.
#: (A one-round match at a human pace can run past 150 versions, two to three minutes; a fixed drain
#: of 120 s cut the longest ones short, and their tables counted as unfinished.)
DRAIN_S: Final = 600.0
DRAIN_STALL_S: Final = 60.0
SLOTS: Final = 16384


def unavailable() -> str | None:
    """Why the hosts cannot be made here, or None."""
    if sys.platform != "linux" or shutil.which("ip") is None:
        return "needs Linux and iproute2's ip"
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        return "redis-server is not installed (make deps installs it)"
    probe = f"mjh-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def address(host: str) -> str:
    return f"{NETWORK}.{HOSTS[host]}"


class Hosts:
    """The namespaces, the bridge between them, and every process started in them."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.tag = f"mjh{os.getpid() % 100000}"
        self.net = f"{self.tag}-net"
        self.made: list[str] = []
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.routes: set[tuple[str, str]] = set()

    def ns(self, host: str) -> str:
        return f"{self.tag}-{host}"

    def ip(self, *args: str, ns: str | None = None) -> None:
        cmd = ["ip", *(["-n", ns] if ns else []), *args]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {done.stderr.strip()}")

    def exec(self, host: str, *args: str) -> list[str]:
        return ["ip", "netns", "exec", self.ns(host), *args]

    def build(self) -> None:
        for name in [self.net, *(self.ns(h) for h in HOSTS)]:
            self.ip("netns", "add", name)
            self.made.append(name)
            self.ip("link", "set", "lo", "up", ns=name)
        self.ip("link", "add", "br0", "type", "bridge", ns=self.net)
        self.ip("link", "set", "br0", "up", ns=self.net)
        for host in HOSTS:
            port = f"v-{host}"
            self.ip("link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", self.ns(host), ns=self.net)
            self.ip("link", "set", port, "master", "br0", "up", ns=self.net)
            self.ip("addr", "add", f"{address(host)}/24", "dev", "eth0", ns=self.ns(host))
            self.ip("link", "set", "eth0", "up", ns=self.ns(host))

    def start(
        self, host: str, name: str, args: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        log = (self.workdir / f"{name}.log").open("wb")
        proc = subprocess.Popen(self.exec(host, *args), stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        self.procs[name] = proc
        return proc

    def log(self, name: str, tail: int = 3000) -> str:
        with contextlib.suppress(OSError):
            return (self.workdir / f"{name}.log").read_text(errors="replace")[-tail:]
        return ""

    def cli(self, host: str, *args: str) -> str:
        done = subprocess.run(
            self.exec(host, "redis-cli", "-h", address(host), "-p", str(REDIS_PORT), *args),
            capture_output=True,
            text=True,
            timeout=30,
        )
        return done.stdout.strip()

    def cut(self, host: str, to: list[str]) -> None:
        """Blackhole routes on ``host`` to each of ``to``: packets to them go nowhere."""
        for other in to:
            self.ip("route", "add", "blackhole", f"{address(other)}/32", ns=self.ns(host))
            self.routes.add((host, other))

    def heal(self, host: str) -> None:
        for h, other in sorted(self.routes):
            if h == host:
                with contextlib.suppress(RuntimeError):
                    self.ip("route", "del", "blackhole", f"{address(other)}/32", ns=self.ns(host))
                self.routes.discard((h, other))

    def close(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs.values():
            with contextlib.suppress(Exception):
                proc.wait(30)
        for name in reversed(self.made):
            with contextlib.suppress(Exception):
                pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, ValueError):
                        os.kill(int(pid), signal.SIGKILL)
            deadline = time.monotonic() + 10
            while subprocess.run(["ip", "netns", "del", name], capture_output=True).returncode != 0:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.1)
        self.made.clear()


def _until(deadline: float, check: Any, what: str) -> None:
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(what)
        time.sleep(0.1)


def start_cluster(hosts: Hosts) -> str:
    """Six redis-servers, three masters with a replica each; the store URL of the cluster."""
    server = shutil.which("redis-server")
    assert server is not None
    for host in HOSTS:
        if not host.startswith("r"):
            continue
        data = hosts.workdir / host
        data.mkdir()
        hosts.start(
            host,
            f"redis-{host}",
            [
                server,
                "--port",
                str(REDIS_PORT),
                "--bind",
                address(host),
                "--cluster-enabled",
                "yes",
                "--cluster-port",
                str(BUS_PORT),
                "--cluster-config-file",
                str(data / "nodes.conf"),
                "--cluster-node-timeout",
                str(NODE_TIMEOUT_MS),
                "--dir",
                str(data),
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                # (reachable from the test network only, which has no other way in: no password)
                "--protected-mode",
                "no",
            ],
        )
    redis_hosts = [h for h in HOSTS if h.startswith("r")]
    deadline = time.monotonic() + 60
    for host in redis_hosts:
        _until(deadline, lambda h=host: hosts.cli(h, "PING") == "PONG", f"redis on {host} did not start")
    for host in redis_hosts[1:]:
        hosts.cli("r1", "CLUSTER", "MEET", address(host), str(REDIS_PORT), str(BUS_PORT))
    for i, host in enumerate(MASTERS):
        first, last = i * SLOTS // len(MASTERS), (i + 1) * SLOTS // len(MASTERS) - 1
        hosts.cli(host, "CLUSTER", "ADDSLOTSRANGE", str(first), str(last))
    ids = {h: hosts.cli(h, "CLUSTER", "MYID") for h in MASTERS}
    for replica, master in REPLICAS.items():
        _until(
            deadline,
            lambda r=replica, m=master: hosts.cli(r, "CLUSTER", "REPLICATE", ids[m]) == "OK",
            f"{replica} could not replicate {master}",
        )
    for host in redis_hosts:
        _until(
            deadline,
            lambda h=host: "cluster_state:ok" in hosts.cli(h, "CLUSTER", "INFO"),
            f"{host} never saw the cluster up",
        )
    for replica in REPLICAS:
        _until(
            deadline,
            lambda r=replica: "master_link_status:up" in hosts.cli(r, "INFO", "replication"),
            f"{replica} never synced",
        )
    return "redis+cluster://" + ",".join(f"{address(h)}:{REDIS_PORT}" for h in MASTERS)


def start_servers(hosts: Hosts, store_url: str) -> list[str]:
    env = {**os.environ, **COMMON_ENV, **CHAOS_ENV}
    urls = []
    for host in ("s1", "s2"):
        hosts.start(
            host,
            f"meja-{host}",
            [
                sys.executable,
                "-m",
                "meja.cli",
                "serve",
                "--host",
                address(host),
                "--port",
                str(MEJA_PORT),
                "--redis",
                store_url,
            ],
            env,
        )
        urls.append(f"ws://{address(host)}:{MEJA_PORT}/ws")
    deadline = time.monotonic() + 120
    for host in ("s1", "s2"):
        _until(
            deadline,
            lambda h=host: (
                f"serving ws://{address(h)}" in hosts.log(f"meja-{h}", 1 << 20)
                or hosts.procs[f"meja-{h}"].poll() is not None
            ),
            f"meja serve on {host} did not start",
        )
        if hosts.procs[f"meja-{host}"].poll() is not None:
            raise RuntimeError(f"meja serve on {host} exited:\n{hosts.log(f'meja-{host}')}")
    return urls


async def faults(hosts: Hosts, at: list[float], log: list[dict[str, Any]], t0: float) -> None:
    """The three mishaps, at the given seconds of the run."""

    async def wait_until(t: float) -> None:
        await asyncio.sleep(max(0.0, t0 + t - time.monotonic()))

    await wait_until(at[0])
    began = time.monotonic()
    proc = hosts.procs["redis-r1"]
    proc.send_signal(signal.SIGKILL)
    await asyncio.to_thread(proc.wait, 30)
    promoted = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        role = await asyncio.to_thread(hosts.cli, "r4", "ROLE")
        if role.startswith("master"):
            promoted = True
            break
        await asyncio.sleep(0.2)
    log.append(
        {
            "kind": "master_killed",
            "t": round(began - t0, 1),
            "target": "r1",
            "replica_promoted": promoted,
            "failover_s": round(time.monotonic() - began, 1),
        }
    )

    await wait_until(at[1])
    began = time.monotonic()
    hosts.cut("s1", [h for h in HOSTS if h.startswith("r")])
    await asyncio.sleep(PARTITION_S)
    hosts.heal("s1")
    log.append(
        {"kind": "server_partitioned_from_redis", "t": round(began - t0, 1), "target": "s1", "seconds": PARTITION_S}
    )

    await wait_until(at[2])
    began = time.monotonic()
    hosts.cut("load", ["s2"])
    await asyncio.sleep(PARTITION_S)
    hosts.heal("load")
    log.append(
        {
            "kind": "players_partitioned_from_server",
            "t": round(began - t0, 1),
            "target": "load -> s2",
            "seconds": PARTITION_S,
        }
    )


async def _run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    hosts = Hosts(workdir)
    fault_log: list[dict[str, Any]] = []
    log_tails: dict[str, Any] = {}
    try:
        await asyncio.to_thread(hosts.build)
        store_url = await asyncio.to_thread(start_cluster, hosts)
        urls = await asyncio.to_thread(start_servers, hosts, store_url)
        claims = workdir / "claims.json"
        played = workdir / "played.json"
        seconds = args.minutes * 60
        load = hosts.start(
            "load",
            "load",
            [
                sys.executable,
                "-m",
                "meja.bench.multihost",
                "load",
                "--servers",
                ",".join(urls),
                "--minutes",
                str(args.minutes),
                "--tables",
                str(args.tables),
                "--pace",
                str(args.pace),
                "--seed",
                str(args.seed),
                "--claims",
                str(claims),
                "--out",
                str(played),
            ],
        )
        t0 = time.monotonic()
        # the mishaps 15 %, 40 % and 70 % in, each over before the next (a failover takes about 4 s)
        at = [max(5.0, seconds * 0.15)]
        at += [max(seconds * 0.4, at[0] + 10), max(seconds * 0.7, at[0] + 22)]
        await faults(hosts, at, fault_log, t0)
        status = await asyncio.to_thread(load.wait, seconds + DRAIN_S + 900)
        if status != 0 or not claims.exists():
            raise RuntimeError(f"the load host failed ({status}):\n{hosts.log('load')}")
        for host in ("s1", "s2"):
            proc = hosts.procs[f"meja-{host}"]
            proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(proc.wait, 60)
        audit = await asyncio.to_thread(
            subprocess.run,
            hosts.exec(
                "load",
                sys.executable,
                "-m",
                "meja.cli",
                "audit",
                "--redis",
                store_url,
                "--claims",
                str(claims),
                "--json",
            ),
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if audit.returncode not in (0, 1):
            raise RuntimeError(f"meja audit failed ({audit.returncode}):\n{audit.stderr[-4000:]}")
        report = json.loads(audit.stdout)
        ends = {e["table"]: e for e in report["per_table"] if e.get("matches_finished", 0) < e.get("matches", 0)}
        if ends:  # the last versions of a table that did not finish, to tell why
            dumped = await asyncio.to_thread(
                subprocess.run,
                hosts.exec("load", sys.executable, "-c", _LOG_TAIL, store_url, *ends),
                capture_output=True,
                text=True,
                timeout=120,
            )
            with contextlib.suppress(ValueError):
                log_tails = json.loads(dumped.stdout)
        tracebacks = 0
        traceback_lines: list[str] = []  # the log line each traceback follows (what failed)
        for host in ("s1", "s2"):
            lines = hosts.log(f"meja-{host}", 1 << 24).splitlines()
            for before, line in itertools.pairwise(lines):
                if line.startswith("Traceback") and before[:2] == "20":  # (not a chained exception's)
                    tracebacks += 1
                    traceback_lines.append(f"{host}: {before[:300]}")
    finally:
        await asyncio.to_thread(hosts.close)
    done = json.loads(played.read_text())
    per_table = {e["table"]: e for e in report["per_table"]}
    # finished: every match the table began is over (none still in play when the run ended)
    unfinished = [
        t
        for t in done["tables"]
        if not per_table.get(t, {}).get("matches_finished")
        or per_table[t]["matches_finished"] < per_table[t]["matches"]
    ]
    doc: dict[str, Any] = {
        "benchmark": "cluster --hosts",
        "hosts": {h: address(h) for h in HOSTS},
        "minutes": args.minutes,
        "tables": len(done["tables"]),
        "faults": fault_log,
        "matches_finished": report["matches_finished"],
        "tables_unfinished": len(unfinished),
        "unfinished": [
            {
                "table": t,
                **{k: per_table.get(t, {}).get(k) for k in ("actions", "version", "status", "matches", "seat_kinds")},
                "people": [p for p in done.get("still_playing", ()) if p["table"] == t],
                "last_versions": log_tails.get(t),
            }
            for t in unfinished
        ],
        "load_unexpected": done["unexpected"],
        "still_playing_after_drain": done["still_playing_after_drain"],
        "drain_s": done.get("drain_s"),
        "longest_stall_s": done.get("longest_stall_s"),
        "actions": report["actions"],
        "accepted_answers": done["accepted"],
        "lost": report["lost"],
        "applied_twice": report["doubled"],
        "refused_but_applied": report["refused_but_applied"],
        "replayed_tables": report["replayed"],
        "replay_failures": report["replay_failures"],
        "resumes": done["resumes"],
        "resumes_failed": done["resumes_failed"],
        "requests_unanswered": done["requests_unanswered"],
        "server_tracebacks": tracebacks,
        "server_traceback_lines": traceback_lines[:20],
        "audit_messages": report["messages"][:20],
    }
    doc["ok"] = bool(
        report["ok"]
        and not unfinished
        and not done["still_playing_after_drain"]
        and not done["resumes_failed"]
        and all(f.get("replica_promoted", True) for f in fault_log)
        and len(fault_log) == 3
    )
    return doc


#: Run on the load host: the last versions of each table named (its log's events, its seats), as JSON.
_LOG_TAIL = """
import asyncio, json, sys
import msgpack
from meja.store import open_store

async def main(url, tables):
    out = {}
    async with open_store(url) as store:
        for t in tables:
            version, raw = await store.load(t)
            record = msgpack.unpackb(raw, raw=False)
            log = await store.log_since(t, version - 8)
            out[t] = {
                "version": version,
                "seats": [{k: s.get(k) for k in ("kind", "conn", "away", "auto")} for s in record["seats"]],
                "log": [[v, [[e[0], e[2]] for e in msgpack.unpackb(entry, raw=False)]] for v, entry in log],
            }
    print(json.dumps(out, default=str))

asyncio.run(main(sys.argv[1], sys.argv[2:]))
"""


def run_hosts(args: argparse.Namespace) -> int:
    why = unavailable()
    if why is not None:
        print(f"meja bench cluster --hosts: {why}", file=sys.stderr)
        return 2
    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="meja-hosts-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        doc = asyncio.run(_run(args, workdir))
    except RuntimeError as exc:
        print(f"meja bench cluster --hosts: {exc}", file=sys.stderr)
        return 1
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        for f in doc["faults"]:
            print(
                f"  {f['t']:>6} s  {f['kind']} ({f['target']})"
                + (f", replica promoted in {f['failover_s']} s" if "failover_s" in f else "")
            )
        print(
            f"tables {doc['tables']}, unfinished {doc['tables_unfinished']} (still playing after the drain: "
            f"{doc['still_playing_after_drain']} people), matches finished {doc['matches_finished']}, actions "
            f"{doc['actions']}, resumes {doc['resumes']} (failed {doc['resumes_failed']})"
        )
        print(
            f"lost {doc['lost']}, applied twice {doc['applied_twice']}, refused but applied "
            f"{doc['refused_but_applied']}, logs replayed {doc['replayed_tables']} "
            f"(failures {doc['replay_failures']}), server tracebacks {doc['server_tracebacks']}"
        )
        print("ok" if doc["ok"] else "NOT OK")
    return 0 if doc["ok"] else 1


# --------------------------------------------------------------------------- the load host


async def _load(args: argparse.Namespace) -> None:
    """Play chaos's one-round tables (two people and a bot each, rematches) for ``--minutes``; then
    every table finishes the match in hand (no more rematches), within :data:`DRAIN_S`, unless one stops
    making progress for :data:`DRAIN_STALL_S` (stuck: the run says so)."""
    import random

    from meja.bench import chaos

    class _At:
        def __init__(self, url: str) -> None:
            self.url = url

    args.every, args.whole, args.target = 0.0, 0, 100
    # The people need only the servers' addresses: no Redis, no processes to restart (faults come from outside).
    servers: list[Any] = [_At(u) for u in args.servers.split(",")]
    run = chaos._Run(args, None, servers)  # type: ignore[arg-type]
    run.seeds = random.Random(args.seed)
    tables = [
        t for t in await asyncio.gather(*(run.open_table(n, False, None) for n in range(args.tables))) if t is not None
    ]
    stop = asyncio.Event()

    async def person(h: Any) -> None:
        await h.run(stop)
        # Gone, so that a match its partner began meanwhile (a rematch sent just before the
        # drain) goes on with a bot in this seat after the grace period, instead of waiting.
        await h.close()

    people_of = {t.table_id: [asyncio.create_task(person(h)) for h in t.humans] for t in tables}
    people = [task for tasks in people_of.values() for task in tasks]
    watching = asyncio.Event()
    # chaos's stall watchdog: each table's time without a game event while one of its people is connected
    watchdog = asyncio.create_task(run.watch(watching))
    await asyncio.sleep(args.minutes * 60)
    for table in tables:
        table.whole = True  # (chaos's people leave a whole-match table once its match is over)
    loop = asyncio.get_running_loop()
    drain_until = loop.time() + DRAIN_S
    pending = set(people)
    while pending and loop.time() < drain_until:
        _, pending = await asyncio.wait(pending, timeout=1.0)
        if all(t.stall > DRAIN_STALL_S for t in tables if any(task in pending for task in people_of[t.table_id])):
            break  # every table still in play is stuck
    drained_s = round(loop.time() - drain_until + DRAIN_S, 1)
    watching.set()
    await watchdog
    still = [
        _where(h, task)
        for t in tables
        for h, task in zip(t.humans, people_of[t.table_id], strict=True)
        if task in pending
    ]
    for table in tables:
        run._end_stall(table)  # (the stall still running, if any, counts as one)
    stop.set()
    await asyncio.gather(*people, return_exceptions=True)
    for table in tables:
        for h in table.humans:
            await h.close()
    Path(args.claims).write_text(json.dumps(run.claims()), encoding="utf-8")
    stats = run.stats
    Path(args.out).write_text(
        json.dumps(
            {
                "tables": [t.table_id for t in run.tables],
                "accepted": stats.accepted,
                "resumes": stats.resumes,
                "resumes_failed": len(stats.resume_failures),
                "requests_unanswered": len(stats.no_answer),
                "unexpected": stats.unexpected[:20],
                "still_playing_after_drain": len(pending),
                "drain_s": drained_s,
                "longest_stall_s": max((s for t in tables for _, s in t.stalls), default=0.0),
                "still_playing": still,
            }
        ),
        encoding="utf-8",
    )


def _awaiting(coro: Any) -> list[str]:
    """Where a suspended coroutine waits: each function down its chain of awaits, with its line."""
    out: list[str] = []
    while coro is not None and len(out) < 30:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is None:
            break
        out.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return out


def _where(h: Any, task: asyncio.Task[Any]) -> dict[str, Any]:
    """What a person still playing after the drain was waiting for (to tell why its table did not finish)."""
    c = h.client
    view = None if c is None else c.view
    return {
        "table_stalled_s": round(h.table.stall, 1),
        "waiting_in": _awaiting(task.get_coro()),
        "last_messages": [
            [m.get("type"), m.get("version"), [e.get("kind") for e in m.get("events") or ()]]
            for m in ([] if c is None else c.messages[-6:])
        ],
        "view_legal": None if view is None else view.get("legal"),
        "table": h.table.table_id,
        "seat": h.seat,
        "connected": h.connected(),
        "server": None if c is None else c.url,
        "version": None if c is None else c.version,
        "status": None if c is None else c.status,
        "phase": None if view is None else view.get("phase"),
        "turn": None if view is None else view.get("turn"),
        "legal": None if view is None else len(view.get("legal") or ()),
        "acted_at": h.acted_at,
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m meja.bench.multihost load ...``: the load host's part (started by run_hosts)."""
    parser = argparse.ArgumentParser(prog="meja.bench.multihost")
    parser.add_argument("role", choices=["load"])
    parser.add_argument("--servers", required=True)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--pace", type=float, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--claims", required=True)
    parser.add_argument("--out", required=True)
    asyncio.run(_load(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
