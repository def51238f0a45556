"""One real ``meja serve`` process for the tests that need processes (e2e, faults, fuzz).

:class:`ServerProcess` runs ``meja serve`` on a free port with the environment
a suite gives it, waits for ``/healthz``, and can stop it as an operator would
(SIGTERM), kill it as in a crash (SIGKILL), freeze and thaw it (SIGSTOP,
SIGCONT: a process the kernel stops scheduling, as under a long GC pause or a
VM migration), or start it again on the same port. Its output goes to a log
file that a failing test prints.

The suites configure it (tests/e2e/e2e_harness.py: the installed entry point,
short timers; tests/faults/faults_harness.py: shorter leases and heartbeats,
and a planted bug through ``planted_serve.py`` for the tests that prove the
checkers can fail). The command line is the benchmarks' (:func:`meja.bench.procs.serve_command`).
Nothing here imports the server: the tests talk to it as any client would.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path

from meja.bench.procs import serve_command

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def http_get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    """The status and body of a GET."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


class ServerProcess:
    """One ``meja serve`` process. ``store`` is ``"memory"`` or a Redis URL.

    ``env`` is laid over ``base_env`` (the suite's settings) over this process's
    environment; ``entry`` is the command before ``serve`` (default: this
    interpreter with ``-m meja.cli``); ``args`` come after the store.
    """

    #: how long start() waits for /healthz, stop() for a clean exit, close() for stop()
    start_timeout_s = 30.0
    stop_timeout_s = 20.0
    close_timeout_s = 5.0

    def __init__(
        self,
        store: str = "memory",
        *,
        name: str = "server",
        port: int | None = None,
        base_env: Mapping[str, str] = {},
        env: Mapping[str, str] | None = None,
        entry: Sequence[str] | None = None,
        args: Sequence[str] = (),
        log_prefix: str = "meja-test",
    ) -> None:
        self.store = store
        self.name = name
        self.port = port or free_port()
        # The server runs this checkout's code (ROOT/server first on its path), whatever
        # the venv's editable install points at: a worktree's tests test the worktree. The
        # inherited PYTHONPATH is dropped; one the suite gives on purpose (a test-only
        # game's folder) follows.
        self.env = {**os.environ, **base_env}
        self.env.pop("PYTHONPATH", None)
        self.env.update(env or {})
        given = self.env.get("PYTHONPATH")
        self.env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "server"), *([given] if given else [])])
        self.entry = list(entry) if entry is not None else None
        self.args = list(args)
        self.log_dir = Path(tempfile.mkdtemp(prefix=f"{log_prefix}-{name}-"))
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

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.name}-{self.starts}.log"

    def command(self) -> list[str]:
        return serve_command(self.port, self.store, entry=self.entry, args=self.args)

    def start(self, timeout: float | None = None) -> ServerProcess:
        """Start (again, on the same port) and wait until ``/healthz`` answers 200."""
        assert not self.running, f"{self.name} is already running"
        timeout = self.start_timeout_s if timeout is None else timeout
        self.starts += 1
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}:\n{self.log()}")
            with contextlib.suppress(OSError):
                if http_get(self.http + "/healthz", timeout=1.0)[0] == 200:
                    return self
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"{self.name} did not answer /healthz in {timeout:.0f} s:\n{self.log()}")
            time.sleep(0.05)

    def healthz(self) -> bytes:
        return http_get(self.http + "/healthz")[1]

    def kill(self) -> None:
        """SIGKILL: gone at once, as in a crash (no close frames, no cleanup)."""
        if self.running:
            assert self.proc is not None
            if self.paused:
                self.resume()
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(15)

    def stop(self, timeout: float | None = None) -> int | None:
        """SIGTERM, wait for the graceful shutdown; SIGKILL after ``timeout``. The exit status."""
        if self.proc is None:
            return None
        if self.running:
            if self.paused:
                self.resume()
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(self.stop_timeout_s if timeout is None else timeout)
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

    def log(self, tail: int = 8000) -> str:
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

    async def astart(self) -> ServerProcess:
        """:meth:`start` without blocking the event loop."""
        return await asyncio.to_thread(self.start)

    async def astop(self) -> int | None:
        """:meth:`stop` without blocking the event loop (so clients can answer the closing handshake)."""
        return await asyncio.to_thread(self.stop)

    def close(self) -> None:
        self.stop(self.close_timeout_s)
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


@contextlib.asynccontextmanager
async def running_async(*procs: ServerProcess) -> AsyncIterator[tuple[ServerProcess, ...]]:
    """:func:`running` for async tests: starting and stopping run in a thread, so the test's event
    loop keeps serving its clients meanwhile (a blocked loop could not answer the server's closing
    handshake, and every stop would wait out its close timeout)."""
    block = running(*procs)
    await asyncio.to_thread(block.__enter__)
    try:
        yield procs
    except BaseException as exc:
        if not await asyncio.to_thread(block.__exit__, type(exc), exc, exc.__traceback__):
            raise
    else:
        await asyncio.to_thread(block.__exit__, None, None, None)
