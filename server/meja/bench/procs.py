"""The child processes of the benchmarks and the tests: private ``redis-server``s and ``meja serve``.

Written once, used by ``meja bench server``, ``chaos`` and ``cluster`` and by the
tests' harnesses (tests/server_process.py, tests/cluster_fixture.py, the e2e,
fault and browser test harnesses), so a setting of the private Redis or of a server's
command line is changed in one place:

- :func:`redis_command`: a private ``redis-server`` on 127.0.0.1 with its files in
  a directory of its own, no RDB snapshots (``--save ""``), not daemonized;
  ``appendonly`` for the runs that restart it mid-game, ``cluster_port`` for a
  node of a Redis Cluster (the bus port set, not left at port + 10000, which
  breaks above 55535);
- :func:`serve_command`: ``meja serve`` on 127.0.0.1 and a port (``0``: the
  server picks one and logs it, :data:`SERVING`), on a store;
- :class:`Child` and :func:`spawn`: a process with its output in a log file,
  stopped with SIGTERM and, if it overstays, SIGKILL (:func:`stop`);
- the server settings (``MEJA_*``, see :mod:`meja.server.settings`) every such run
  shares: :data:`LOOPBACK_ENV` (every client comes from 127.0.0.1) and
  :data:`FAULT_TIMING_ENV` (short leases and heartbeats, for the runs that kill,
  stop and freeze processes: ``meja bench chaos`` and tests/faults).

Nothing here opens a socket (the layering keeps sockets in :mod:`meja.server`):
a caller waits for a Redis with ``redis-cli PING`` (:func:`redis_ping`) and for
a server with its log line or its ``/healthz``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "FAULT_TIMING_ENV",
    "LOOPBACK_ENV",
    "SERVING",
    "Child",
    "cli_binary",
    "cluster_args",
    "proc_cpu_s",
    "proc_rss",
    "redis_binary",
    "redis_command",
    "redis_ping",
    "serve_command",
    "spawn",
    "stop",
    "wait_for_line",
]

#: Every client of a benchmark or a test comes from 127.0.0.1: the per-address limits on room-code
#: lookups, hosted tables and open connections are lifted (a test of those limits sets them again).
LOOPBACK_ENV: Final = {
    "MEJA_CODE_ATTEMPTS": "1000000",
    "MEJA_HOSTS_PER_WINDOW": "1000000",
    "MEJA_MAX_CONNECTIONS_PER_ADDRESS": "0",
}
#: Short leases and heartbeats: a dead, stopped or frozen process is noticed in seconds (the stall
#: bounds of ``meja bench chaos`` and of tests/faults are derived from these).
FAULT_TIMING_ENV: Final = {
    "MEJA_DUE_LEASE_S": "2",
    "MEJA_HEARTBEAT_S": "0.5",
    "MEJA_HEARTBEAT_TTL_S": "2",
    "MEJA_PRESENCE_CHECK_S": "2",
    "MEJA_PING_INTERVAL_S": "1",
    "MEJA_PING_TIMEOUT_S": "2",
    "MEJA_SHUTDOWN_TIMEOUT_S": "5",
    "MEJA_CLOSE_TIMEOUT_S": "2",
}
#: The line ``meja serve`` logs when it listens: its port is group 1.
SERVING: re.Pattern[str] = re.compile(r"serving ws://[^\s:]+:(\d+)/ws")


def redis_binary() -> str:
    """The path of ``redis-server`` (``RuntimeError`` saying how to install it if missing)."""
    path = shutil.which("redis-server")
    if path is None:
        raise RuntimeError("redis-server is not installed (make deps installs it: tools/ensure-deps.sh)")
    return path


def cli_binary() -> str:
    """The path of ``redis-cli`` (it comes with redis-server)."""
    path = shutil.which("redis-cli")
    if path is None:
        raise RuntimeError("redis-cli is not installed (it comes with redis-server: make deps)")
    return path


def redis_command(
    port: int,
    dir: Path,
    *,
    appendonly: bool = False,
    appendfsync: str = "always",
    logfile: Path | None = None,
    cluster_port: int | None = None,
    node_timeout_ms: int = 5000,
    extra: Sequence[str] = (),
) -> list[str]:
    """The command line of a private redis-server on ``127.0.0.1:port`` with its files in ``dir``."""
    cmd = [
        redis_binary(),
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--dir", str(dir),
        "--save", "",
        "--daemonize", "no",
        "--appendonly", "yes" if appendonly else "no",
    ]  # fmt: skip
    if appendonly:
        cmd += ["--appendfsync", appendfsync]
    if logfile is not None:
        cmd += ["--logfile", str(logfile)]
    if cluster_port is not None:
        cmd += cluster_args(dir, cluster_port, node_timeout_ms)
    return cmd + list(extra)


def cluster_args(dir: Path, cluster_port: int, node_timeout_ms: int = 5000) -> list[str]:
    """The options that make a redis-server a node of a Redis Cluster, with its bus on ``cluster_port``."""
    return [
        "--cluster-enabled", "yes",
        "--cluster-config-file", str(dir / "nodes.conf"),
        "--cluster-port", str(cluster_port),
        "--cluster-node-timeout", str(node_timeout_ms),
    ]  # fmt: skip


def redis_ping(port: int, host: str = "127.0.0.1", timeout: float = 5.0) -> bool:
    """Whether the Redis at ``host:port`` answers PING (asked with redis-cli)."""
    try:
        done = subprocess.run(
            [cli_binary(), "-h", host, "-p", str(port), "PING"],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return False
    return done.stdout.strip() == "PONG"


def serve_command(
    port: int, store: str = "memory", *, entry: Sequence[str] | None = None, args: Sequence[str] = ()
) -> list[str]:
    """``meja serve`` on ``127.0.0.1:port`` (0: any, logged as :data:`SERVING`); ``store``: ``"memory"``
    or a Redis URL; ``entry``: the command before ``serve`` (default: this interpreter, ``-m meja.cli``)."""
    cmd = [*(entry or (sys.executable, "-m", "meja.cli")), "serve", "--host", "127.0.0.1", "--port", str(port)]
    if store != "memory":
        cmd += ["--redis", store]
    return cmd + list(args)


def proc_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (all its threads), from ``/proc``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields_ = text.rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields_[11]) + int(fields_[12])) / ticks  # utime, stime (fields 14 and 15)


def proc_rss(pid: int) -> int:
    """Resident memory of process ``pid`` in bytes, from ``/proc``."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def stop(popen: subprocess.Popen[bytes], timeout: float = 15.0, sig: int = signal.SIGTERM) -> int | None:
    """Send ``sig`` (SIGTERM: a clean shutdown) and wait; SIGKILL after ``timeout``. The exit status."""
    if popen.poll() is None:
        popen.send_signal(sig)
        try:
            popen.wait(timeout)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait(10)
    return popen.returncode


@dataclass
class Child:
    """A child process with its output in a log file."""

    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.popen.pid

    def cpu_s(self) -> float:
        return proc_cpu_s(self.pid)

    def rss(self) -> int:
        return proc_rss(self.pid)

    def output(self, tail: int = 4000) -> str:
        try:
            return self.log.read_text(errors="replace")[-tail:]
        except OSError:
            return ""

    def stop(self, timeout: float = 15.0) -> None:
        stop(self.popen, timeout)


def spawn(
    name: str, cmd: Sequence[str], workdir: Path, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Child:
    """Start ``cmd`` with its output in ``workdir/<name>.log``."""
    log = workdir / f"{name}.log"
    with open(log, "wb") as out:
        popen = subprocess.Popen(
            list(cmd), stdout=out, stderr=subprocess.STDOUT, env=dict(env) if env is not None else None, cwd=cwd
        )
    return Child(name, popen, log)


async def wait_for_line(child: Child, pattern: re.Pattern[str], timeout: float = 60.0) -> re.Match[str]:
    """The first match of ``pattern`` in the child's output; raises if it exits or takes too long."""
    deadline = time.monotonic() + timeout
    while True:
        found = pattern.search(child.output(tail=1 << 20))
        if found:
            return found
        if child.popen.poll() is not None:
            raise RuntimeError(f"{child.name} exited with {child.popen.returncode}:\n{child.output()}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{child.name} did not start in {timeout:.0f} s:\n{child.output()}")
        await asyncio.sleep(0.05)
