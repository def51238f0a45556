"""A network namespace with loopback alone, for the call's browser tests (imported by test_call.py).

WebRTC gathers a host candidate for every address of the machine: a call test run in the
machine's own network would put its real addresses on the wire. Inside a namespace of its own
(``ip netns add``), with only ``lo`` up, the only addresses there are 127.0.0.1 and ::1, so every
candidate, relayed or not, is a loopback one. Everything of the test runs in it: redis-server,
both ``meja serve`` processes, coturn, and Chromium (Playwright drives it over a pipe, which a
namespace does not cut: :meth:`NetNS.chromium` writes a wrapper that enters the namespace).

Creating a namespace needs root (CAP_SYS_ADMIN); :func:`unavailable` says why not, for a skip.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from browser_server import ROOT, SERVER_ENV, stop_process

#: How a process inside the namespace is found to listen: a TCP connect to 127.0.0.1 there.
_PROBE = """
import socket, sys, time
deadline = time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=0.5).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
"""


def unavailable() -> str | None:
    """Why a namespace cannot be made here (no ``ip``, not root, no coturn), or None."""
    if shutil.which("ip") is None:
        return "iproute2's ip is missing"
    if os.geteuid() != 0:
        return "creating a network namespace needs root"
    if shutil.which("turnserver") is None:
        return "coturn's turnserver is missing: run tools/ensure-deps.sh"
    if shutil.which("redis-server") is None:
        return "redis-server is missing: run tools/ensure-deps.sh"
    return None


class NetNS:
    """``ip netns add meja-call-<pid>`` with ``lo`` up; processes started in it stop at :meth:`close`."""

    def __init__(self, workdir: Path) -> None:
        self.name = f"meja-call-{os.getpid()}"
        self.workdir = workdir
        self.procs: list[subprocess.Popen[bytes]] = []
        self._logs: list[object] = []
        subprocess.run(["ip", "netns", "add", self.name], check=True, capture_output=True)
        try:
            self.run("ip", "link", "set", "lo", "up")
        except Exception:
            self.close()
            raise

    def command(self, *args: str) -> list[str]:
        return ["ip", "netns", "exec", self.name, *args]

    def run(self, *args: str) -> None:
        subprocess.run(self.command(*args), check=True, capture_output=True)

    def start(self, args: list[str], log_name: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        log = (self.workdir / log_name).open("wb")
        self._logs.append(log)
        proc = subprocess.Popen(self.command(*args), stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        self.procs.append(proc)
        return proc

    def wait_port(self, port: int, proc: subprocess.Popen[bytes], log_name: str, timeout: float = 30.0) -> None:
        done = subprocess.run(self.command(sys.executable, "-c", _PROBE, str(port), str(timeout)), check=False)
        if done.returncode != 0 or proc.poll() is not None:
            text = (self.workdir / log_name).read_text(errors="replace")[-4000:]
            raise RuntimeError(f"{proc.args!r} did not listen on {port}:\n{text}")

    def redis(self, port: int) -> str:
        proc = self.start(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)],
            f"redis-{port}.log",
        )
        self.wait_port(port, proc, f"redis-{port}.log")
        return f"redis://127.0.0.1:{port}/0"

    def meja(self, port: int, redis: str, env: dict[str, str]) -> str:
        origin = f"http://127.0.0.1:{port}"
        meja = Path(sys.executable).with_name("meja")
        log = f"server-{port}.log"
        proc = self.start(
            [str(meja), "serve", "--port", str(port), "--redis", redis, "--public-origin", origin],
            log,
            env={**os.environ, **SERVER_ENV, **env},
        )
        self.wait_port(port, proc, log)
        return origin

    def turn(self, port: int, secret: str, relay_ports: tuple[int, int]) -> None:
        """coturn on 127.0.0.1 only: time-limited credentials from ``secret`` (the TURN REST scheme)."""
        log = "turnserver.log"
        proc = self.start(
            ["turnserver", "-n", "--listening-ip=127.0.0.1", "--relay-ip=127.0.0.1", f"--listening-port={port}",
             f"--min-port={relay_ports[0]}", f"--max-port={relay_ports[1]}", "--use-auth-secret",
             f"--static-auth-secret={secret}", "--realm=meja", "--no-cli", "--no-tls", "--no-dtls",
             "--allow-loopback-peers", f"--userdb={self.workdir / 'turndb'}", f"--pidfile={self.workdir / 'turn.pid'}",
             "--no-stdout-log", f"--log-file={self.workdir / 'turn-detail.log'}", "--simple-log"],
            log,
        )
        self.wait_port(port, proc, log)

    def chromium(self, binary: str) -> str:
        """A script that runs ``binary`` inside the namespace (Playwright's ``executable_path``)."""
        wrapper = self.workdir / "chromium-in-netns"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {self.name} {binary} "$@"\n')
        wrapper.chmod(0o755)
        return str(wrapper)

    def close(self) -> None:
        for proc in reversed(self.procs):
            stop_process(proc)
        for log in self._logs:
            with contextlib.suppress(Exception):
                log.close()  # type: ignore[attr-defined]
        # Whatever is left in the namespace (a browser's helpers) goes with it.
        with contextlib.suppress(Exception):
            pids = subprocess.run(["ip", "netns", "pids", self.name], capture_output=True, text=True).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), 9)
        deadline = time.monotonic() + 5
        while subprocess.run(["ip", "netns", "del", self.name], capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)


@contextlib.contextmanager
def netns(workdir: Path) -> Iterator[NetNS]:
    ns = NetNS(workdir)
    try:
        yield ns
    finally:
        ns.close()
