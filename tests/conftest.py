"""Shared fixtures: private redis-servers for the tests.

The tests never touch a Redis they did not start (CI and the developers' guide
forbid depending on one that happens to run on 6379):

- ``redis_url`` (session): one private ``redis-server`` on a free port, in a temp
  dir, no persistence (``--save "" --appendonly no``), killed at the end. Tests
  share it, so each must use its own key prefix (``redis_prefix`` gives one) or
  clean up after itself. With ``MEJA_TEST_REDIS_URL`` set, that Redis is used
  instead and nothing is started (it must be a disposable one: tests write to it,
  under their own prefixes).
  Keys under a ``redis_prefix`` are deleted after the test.
- ``redis_cluster`` (session): a private three-master Redis Cluster (tests/cluster_fixture.py).
- ``redis_servers`` (function): a factory for *extra* private servers, e.g.
  ``redis_servers(appendonly=True)`` (``appendfsync always``), which a test may
  ``stop()`` (SIGKILL: a crash), ``start()`` again on the same port and directory,
  or ``restart()``; all killed when the test ends. Fault tests reuse it.

If ``redis-server`` is not installed, these fail with a message pointing at
``make deps`` (``tools/ensure-deps.sh`` installs it).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import meja.games
import pytest
import redis
from meja.bench.procs import redis_command
from server_process import free_port as _free_port

# Every game, the test-only one too (tests/toy_game: registered from tests/ alone), so that the
# suites that run over every registered game run over it, and meja.rules.get_game finds them all.
meja.games.load("toy_game")

#: How long a starting redis-server may take to answer PING, in seconds.
REDIS_START_TIMEOUT_S = 20.0


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def redis_server_binary() -> str:
    """The path of redis-server, or a clear failure telling how to install it."""
    path = shutil.which("redis-server")
    if path is None:
        pytest.fail(
            "redis-server is not installed; the tests start their own private one. "
            "Run `make deps` (tools/ensure-deps.sh installs it with apt-get).",
            pytrace=False,
        )
    return path


class RedisServer:
    """A private redis-server process on 127.0.0.1:``port`` with its files in ``dir``."""

    def __init__(self, dir: Path, *, port: int | None = None, appendonly: bool = False,
                 appendfsync: str = "always", extra: tuple[str, ...] = ()) -> None:
        self.dir = dir
        self.port = port if port is not None else _free_port()
        self.appendonly = appendonly
        self.appendfsync = appendfsync
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def args(self) -> list[str]:
        redis_server_binary()  # a clear failure if it is missing
        return redis_command(self.port, self.dir, appendonly=self.appendonly, appendfsync=self.appendfsync,
                             logfile=self.dir / "redis.log", extra=self.extra)

    def start(self) -> RedisServer:
        """Start (again, on the same port and dir) and wait until it answers PING."""
        assert self.process is None, "already running"
        self.process = subprocess.Popen(self.args(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + REDIS_START_TIMEOUT_S
        while not _ping(self.port):
            if self.process.poll() is not None:
                log = (self.dir / "redis.log").read_text(errors="replace")[-2000:]
                self.process = None
                pytest.fail(f"redis-server on port {self.port} exited at start:\n{log}", pytrace=False)
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"redis-server on port {self.port} did not answer PING", pytrace=False)
            time.sleep(0.02)
        return self

    def stop(self, sig: int = signal.SIGKILL) -> None:
        """Stop it (SIGKILL by default: a crash; SIGTERM for a clean shutdown) and wait."""
        if self.process is not None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)
            self.process = None

    def restart(self, sig: int = signal.SIGKILL) -> None:
        """Stop and start again on the same port and directory."""
        self.stop(sig)
        self.start()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a private Redis for this test session (see the module docstring)."""
    external = os.environ.get("MEJA_TEST_REDIS_URL")
    if external:
        yield external
        return
    with tempfile.TemporaryDirectory(prefix="meja-redis-") as tmp:
        server = RedisServer(Path(tmp)).start()
        try:
            yield server.url
        finally:
            server.stop(signal.SIGTERM)


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix no other test uses, so tests can share one Redis; its keys
    (in database 0 of ``redis_url``) are deleted after the test."""
    prefix = f"meja-test-{uuid.uuid4().hex[:12]}:"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    try:
        names = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if names:
            client.delete(*names)
    finally:
        client.close()


@pytest.fixture
def redis_servers(tmp_path: Path) -> Iterator[Callable[..., RedisServer]]:
    """A factory of extra private redis-servers, all killed when the test ends."""
    started: list[RedisServer] = []

    def start(*, appendonly: bool = False, appendfsync: str = "always",
              extra: tuple[str, ...] = ()) -> RedisServer:
        dir = tmp_path / f"redis-{len(started)}"
        dir.mkdir()
        server = RedisServer(dir, appendonly=appendonly, appendfsync=appendfsync, extra=extra)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """A private three-master Redis Cluster for this session (tests/cluster_fixture.py's
    ``LocalCluster``; its ``url`` is a store URL), or ``MEJA_TEST_REDIS_CLUSTER_URL``'s."""
    from cluster_fixture import LocalCluster

    external = os.environ.get("MEJA_TEST_REDIS_CLUSTER_URL")
    if external:
        yield LocalCluster(url=external)
        return
    cluster = LocalCluster(tmp_path_factory.mktemp("redis-cluster"), server=RedisServer).start()
    try:
        yield cluster
    finally:
        cluster.stop()
