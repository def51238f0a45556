"""Real server processes and a private Redis for the end-to-end tests.

:class:`ServerProcess` runs ``meja serve`` (the venv's installed entry point, the
one ``make serve`` runs) on a free port, waits
for ``/healthz``, and can stop it (SIGTERM, as an operator would), kill it
(SIGKILL, a crash), or start it again on the same port. Its output goes to a log
file that a failing test prints.

:class:`RedisProcess` runs a private ``redis-server`` on a free port with no
persistence (:func:`meja.bench.procs.redis_command`, the benchmarks' own), used
when the suite's shared Redis fixture (tests/conftest.py) is not there.

Nothing here imports the server: the tests talk to it as any client would.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import server_process
from meja.bench import procs
from meja.bench.procs import redis_command
from server_process import free_port

ROOT = Path(__file__).resolve().parents[2]

#: Environment for every server the tests start: short bot pauses and timers so
#: that whole matches take seconds (the values are still well above zero, so the
#: code paths are the real ones). Names follow the server's settings (MEJA_*).
#: Every client of the tests comes from 127.0.0.1, so the per-address limits on
#: room-code lookups, hosted tables and open connections are raised (one test lowers them again).
FAST_ENV: dict[str, str] = {
    "MEJA_BOT_DELAY_MIN_MS": "20",
    "MEJA_BOT_DELAY_MAX_MS": "60",
    "MEJA_HOLD_DELAY_MS": "20",
    "MEJA_READY_DELAY_MS": "20",
    **procs.LOOPBACK_ENV,
    # random players walk a decision made in any order step by step, far faster than people
    "MEJA_PRIVATE_STEPS_PER_S": "100000",
    "MEJA_LOG_LEVEL": "INFO",
}


class ServerProcess(server_process.ServerProcess):
    """One ``meja serve`` process (tests/server_process.py) with :data:`FAST_ENV`, run by the
    venv's installed entry point, the one ``make serve`` runs. ``store`` is ``"memory"`` or a
    Redis URL."""

    def __init__(
        self,
        store: str = "memory",
        *,
        port: int | None = None,
        env: dict[str, str] | None = None,
        args: Sequence[str] = (),
        name: str = "server",
    ) -> None:
        script = Path(sys.executable).parent / "meja"
        entry = [str(script)] if script.exists() else None
        super().__init__(
            store, name=name, port=port, base_env=FAST_ENV, env=env, entry=entry, args=args, log_prefix="meja-e2e"
        )


class RedisProcess:
    """A private ``redis-server`` on a free port: no disk, no other clients."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="meja-e2e-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20.0) -> RedisProcess:
        self.proc = subprocess.Popen(
            redis_command(self.port, self.dir), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            time.sleep(0.05)
        self.close()
        raise RuntimeError("redis-server did not start")

    def close(self) -> None:
        if self.proc is not None:
            procs.stop(self.proc, 10)
        shutil.rmtree(self.dir, ignore_errors=True)


_namespaces = iter(range(1, 1_000_000))


def redis_namespace(url: str, name: str = "e2e") -> str:
    """The same Redis under a key prefix no other test of this run uses (``?prefix=``, see
    meja.store.open_store): tests sharing one Redis do not see each other's tables."""
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}prefix=meja-{name}-{next(_namespaces)}:"


servers = server_process.running_async  # the process harness the fault tests share (as running)
