"""``meja serve`` in a subprocess for the browser tests (imported by conftest.py and the tests).

The command lines and the loopback settings are the benchmarks' (:mod:`meja.bench.procs`).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from meja.bench import procs
from meja.bench.procs import LOOPBACK_ENV, redis_command, serve_command

ROOT = Path(__file__).resolve().parents[2]

#: Bot pauses for the tests (the server's defaults are 600-1200 ms, docs/rules/crazy-eights.md 1.8 F).
SERVER_ENV = {
    "MEJA_BOT_DELAY_MIN_MS": "60",
    "MEJA_BOT_DELAY_MAX_MS": "120",
    "MEJA_READY_DELAY_MS": "200",
    "MEJA_HOLD_DELAY_MS": "1000",
    "MEJA_LOG_LEVEL": "WARNING",
    # Every test's browser comes from 127.0.0.1: the per-address limits on room-code lookups
    # (20 a minute) and on tables hosted (30 in ten minutes) are not what these tests test.
    **LOOPBACK_ENV,
}


#: The server serves /qr/<CODE>.svg (meja.qr.qr_svg of the invite link): a 404 there is a failure.
QR_MISSING_OK = False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def private_redis(workdir: Path) -> Iterator[str]:
    """A redis-server of its own on a free port, no persistence; its URL while it runs.

    A server that loads games the others do not must have a Redis of its own: any process on
    a Redis may claim any table's due actions (bots' moves), and one that does not know the
    table's game cannot play them.
    """
    port = free_port()
    command = redis_command(port, workdir, logfile=workdir / f"redis-{port}.log")
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    break
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop_process(proc)


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1) as response:
            if response.status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer in {timeout} s:\n{log.read_text()[-4000:]}")


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    procs.stop(proc, 15)


class Server:
    """``meja serve`` in a subprocess; ``port`` to start one again where another ran; ``env``
    for more settings (``MEJA_GAMES``: games loaded beside the built-in ones)."""

    def __init__(self, redis: str, workdir: Path, port: int | None = None, env: dict[str, str] | None = None) -> None:
        self.port = port or free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"server-{self.port}-{time.monotonic_ns()}.log"
        meja = Path(sys.executable).with_name("meja")
        command = serve_command(self.port, redis, entry=[str(meja)], args=["--public-origin", self.origin])
        env = {**os.environ, **SERVER_ENV, **(env or {})}
        self._log_file = self.log.open("wb")
        self.proc = subprocess.Popen(command, stdout=self._log_file, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        try:
            _wait_http(f"{self.origin}/healthz", self.proc, self.log)
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        stop_process(self.proc)
        self._log_file.close()


