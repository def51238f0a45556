"""Real ``meja serve`` processes for the fault tests: start, SIGTERM, SIGKILL, SIGSTOP/SIGCONT.

Adapted from tests/e2e/e2e_harness.py (read, not imported: the fault suite
owns its copy). A :class:`ServerProcess` runs ``meja serve --redis URL`` on a
free port with :data:`FAULT_ENV`, waits for ``/healthz``, and can be stopped
as an operator would (SIGTERM), killed as in a crash (SIGKILL), or frozen and
thawed (SIGSTOP, SIGCONT: a process the kernel stops scheduling, as under a
long GC pause or a VM migration). Its output goes to a log file that a failing
test prints.

``plant="..."`` starts the process through ``planted_serve.py``, which
monkeypatches a known bug into the server before it runs (only the tests that
prove the checkers can fail use it).

Timers are short so that a fault and its recovery take seconds, and every
bound the tests wait for is derived from them (:func:`stall_bound_s`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).resolve().parent / "planted_serve.py"

#: Whether to run the long versions (MEJA_LONG=1): more tables, whole matches to 100 points.
LONG = os.environ.get("MEJA_LONG", "") not in ("", "0")

#: Server settings of every fault test (MEJA_* variables, see meja.server.settings).
FAULT_ENV: dict[str, str] = {
    # Fast bots: whole rounds in seconds. Still above zero, so the timer path is the real one.
    "MEJA_BOT_DELAY_MIN_MS": "20",
    "MEJA_BOT_DELAY_MAX_MS": "60",
    "MEJA_RESHUFFLE_DELAY_MS": "20",
    "MEJA_READY_DELAY_MS": "20",
    # Every test client comes from 127.0.0.1.
    "MEJA_CODE_ATTEMPTS": "1000000",
    "MEJA_HOSTS_PER_WINDOW": "1000000",
    # Scripted players act as soon as they may: above the human rate limit, below a flood.
    "MEJA_RATE_PER_S": "200",
    "MEJA_RATE_BURST": "400",
    # Short leases and heartbeats: a dead or frozen process is noticed in seconds.
    "MEJA_DUE_LEASE_S": "2",
    "MEJA_DUE_POLL_S": "0.1",
    "MEJA_HEARTBEAT_S": "0.5",
    "MEJA_HEARTBEAT_TTL_S": "2",
    "MEJA_PRESENCE_CHECK_S": "2",
    "MEJA_PING_INTERVAL_S": "1",
    "MEJA_PING_TIMEOUT_S": "2",
    "MEJA_SHUTDOWN_TIMEOUT_S": "5",
    "MEJA_CLOSE_TIMEOUT_S": "2",
    "MEJA_LOG_LEVEL": "INFO",
}


def stall_bound_s(env: Mapping[str, str] = FAULT_ENV, *, grace_s: float = 0.0) -> float:
    """The longest a table may go without a game action after a fault, by the documented settings.

    A bot's move scheduled or claimed by a process that died comes due again after
    ``due_lease_s`` (plus a poll and the bot's pause, longer after a reshuffle); a
    player held through a dead process is noticed within ``presence_check_s`` of
    being awaited once its heartbeat (``heartbeat_ttl_s``) is stale; a player who
    does not come back keeps the seat for ``grace_s`` before a bot plays for them
    (PROTOCOL.md 4, meja.server.settings). Pass the table's ``grace_s`` when a
    seat may be abandoned.
    """
    f = {k: float(v) for k, v in env.items() if k.endswith(("_S", "_MS"))}
    bot_s = (f["MEJA_BOT_DELAY_MAX_MS"] + f["MEJA_RESHUFFLE_DELAY_MS"] + f["MEJA_READY_DELAY_MS"]) / 1000
    return (
        f["MEJA_DUE_LEASE_S"] + f["MEJA_DUE_POLL_S"] + bot_s
        + f["MEJA_PRESENCE_CHECK_S"] + f["MEJA_HEARTBEAT_TTL_S"] + f["MEJA_PING_INTERVAL_S"]
        + f["MEJA_PING_TIMEOUT_S"] + grace_s
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


class ServerProcess:
    """One ``meja serve --redis store`` process (``store="memory"``: the embedded store)."""

    def __init__(
        self,
        store: str,
        *,
        name: str = "server",
        env: Mapping[str, str] | None = None,
        plant: str | None = None,
    ) -> None:
        self.store = store
        self.name = name
        self.port = free_port()
        self.env = {**os.environ, **FAULT_ENV, **(env or {})}
        self.env.pop("PYTHONPATH", None)
        if plant is not None:
            self.env["MEJA_TEST_PLANT"] = plant
        self.plant = plant
        self.log_dir = Path(tempfile.mkdtemp(prefix=f"meja-faults-{name}-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.paused = False

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def command(self) -> list[str]:
        entry = [str(PLANTED)] if self.plant is not None else ["-m", "meja.cli"]
        cmd = [sys.executable, *entry, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        return cmd if self.store == "memory" else [*cmd, "--redis", self.store]

    def start(self, timeout: float = 60.0) -> ServerProcess:
        """Start (again, on the same port) and wait until ``/healthz`` answers 200."""
        assert not self.running, f"{self.name} is already running"
        self.starts += 1
        with open(self.log_dir / f"{self.name}-{self.starts}.log", "wb") as log:
            self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:\n{self.log()}")
            with contextlib.suppress(OSError):
                if _get(self.http + "/healthz", timeout=1.0)[0] == 200:
                    return self
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"{self.name} did not answer /healthz in {timeout:.0f} s:\n{self.log()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: gone at once, as in a crash (no close frames, no cleanup)."""
        if self.running:
            assert self.proc is not None
            if self.paused:
                self.resume()
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(15)

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM, wait for the graceful shutdown; SIGKILL after ``timeout``. The exit status."""
        if self.proc is None:
            return None
        if self.running:
            if self.paused:
                self.resume()
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def pause(self) -> None:
        """SIGSTOP: the process stops running, its sockets stay open."""
        assert self.proc is not None and self.running
        self.proc.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        """SIGCONT after :meth:`pause`."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)
        self.paused = False

    def log(self, tail: int = 6000) -> str:
        parts = []
        for path in sorted(self.log_dir.glob("*.log")):
            parts.append(f"--- {path.name}\n" + path.read_text(errors="replace")[-tail:])
        return "\n".join(parts)

    def tracebacks(self) -> list[str]:
        """Tracebacks in this process's logs (a server that logged a bug)."""
        found = []
        for path in sorted(self.log_dir.glob("*.log")):
            text = path.read_text(errors="replace")
            for chunk in text.split("Traceback (most recent call last):")[1:]:
                found.append(chunk[:1500])
        return found

    def close(self) -> None:
        self.stop(10)
        shutil.rmtree(self.log_dir, ignore_errors=True)


@contextlib.contextmanager
def running(*procs: ServerProcess) -> Iterator[tuple[ServerProcess, ...]]:
    """Start every server; stop them all at the end (printing their logs if the block failed)."""
    started: list[ServerProcess] = []
    try:
        for p in procs:
            started.append(p.start())
        yield procs
    except BaseException:
        for p in procs:
            print(p.log())
        raise
    finally:
        for p in started:
            p.close()
