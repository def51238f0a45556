"""A private three-master Redis Cluster on loopback, for the store's cluster tests.

:class:`LocalCluster` starts three ``redis-server --cluster-enabled yes`` on free
ports (tests/conftest.py's ``RedisServer``, passed in; no persistence), joins them with
``redis-cli --cluster create ... --cluster-replicas 0`` (the slots in three equal
runs) and waits until every node says ``cluster_state:ok`` and knows the other
two. Its :attr:`~LocalCluster.url` is the store's cluster URL
(``redis+cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3``), and
:meth:`~LocalCluster.node_of` says which master holds a key (``CLUSTER KEYSLOT``
and ``CLUSTER SLOTS`` asked of the cluster itself), so tests can show their
tables are spread.

The ``redis_cluster`` fixture (session scope, in tests/conftest.py) starts one
for the whole run; tests share it under their own key prefixes. With
``MEJA_TEST_REDIS_CLUSTER_URL`` set (a disposable cluster), that one is used and
nothing is started.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from meja.bench.procs import cluster_args
from server_process import free_port

#: How long the nodes may take to agree on the slots after ``--cluster create``, in seconds.
CLUSTER_START_TIMEOUT_S = 30.0


class LocalCluster:
    """A Redis Cluster for tests: three masters started here, or the one at ``url``."""

    def __init__(
        self,
        root: Path | None = None,
        *,
        server: Callable[..., Any] | None = None,
        url: str | None = None,
        masters: int = 3,
    ) -> None:
        """Three masters to start under ``root``, each ``server(dir, extra=(...))`` (tests/conftest.py's
        ``RedisServer``); or the running cluster at ``url``."""
        self.servers: list[Any] = []
        if url is not None:
            self.nodes = [(h, int(p)) for h, _, p in (n.rpartition(":") for n in url.split("://", 1)[1].split(","))]
            return
        assert root is not None and server is not None
        for i in range(masters):
            dir = root / f"node-{i}"
            dir.mkdir()
            # The cluster bus port is set, not left at port + 10000 (which breaks above 55535).
            self.servers.append(server(dir, extra=tuple(cluster_args(dir, free_port()))))
        self.nodes = [("127.0.0.1", s.port) for s in self.servers]

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"{h}:{p}" for h, p in self.nodes)

    def start(self) -> LocalCluster:
        """Start the servers, create the cluster, wait until every node agrees it is up."""
        cli = shutil.which("redis-cli")
        if cli is None:
            pytest.fail("redis-cli is not installed (it comes with redis-server: `make deps`)", pytrace=False)
        try:
            for server in self.servers:
                server.start()
            create = subprocess.run(
                [cli, "--cluster", "create", *(f"{h}:{p}" for h, p in self.nodes),
                 "--cluster-replicas", "0", "--cluster-yes"],
                capture_output=True, timeout=60, check=False,
            )
            if create.returncode != 0:
                pytest.fail(f"redis-cli --cluster create failed:\n{create.stdout.decode()}{create.stderr.decode()}",
                            pytrace=False)
            self.wait_ok()
        except BaseException:
            self.stop()
            raise
        return self

    def wait_ok(self) -> None:
        deadline = time.monotonic() + CLUSTER_START_TIMEOUT_S
        while True:
            if all(self._node_ok(h, p) for h, p in self.nodes):
                return
            if time.monotonic() > deadline:
                pytest.fail(f"the cluster on {self.nodes} did not reach cluster_state:ok", pytrace=False)
            time.sleep(0.1)

    def _node_ok(self, host: str, port: int) -> bool:
        with redis.Redis(host=host, port=port, socket_timeout=2) as client:
            info = client.cluster("info")
        return (info.get("cluster_state") == "ok" and int(info.get("cluster_slots_ok", 0)) == 16384
                and int(info.get("cluster_known_nodes", 0)) == len(self.nodes))

    def slot_of(self, key: str) -> int:
        """The hash slot of ``key``, as the cluster computes it (``CLUSTER KEYSLOT``)."""
        host, port = self.nodes[0]
        with redis.Redis(host=host, port=port) as client:
            return int(client.execute_command("CLUSTER", "KEYSLOT", key))

    def node_of(self, key: str) -> int:
        """The port of the master holding ``key``, as the cluster says."""
        slot = self.slot_of(key)
        host, port = self.nodes[0]
        with redis.Redis(host=host, port=port) as client:
            for start, end, master, *_ in client.execute_command("CLUSTER", "SLOTS"):
                if int(start) <= slot <= int(end):
                    return int(master[1])
        raise AssertionError(f"no master holds slot {slot}")

    def stop(self) -> None:
        for server in self.servers:
            server.stop(signal.SIGKILL)
