"""Fixtures of the end-to-end tests: real ``meja serve`` processes, a private Redis, clients.

Cost: each server process takes about a second to start; module-scoped servers
are shared by the tests of one file, and the tests that kill or restart
processes start their own.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from e2e_harness import RedisProcess, ServerProcess, redis_namespace
from meja_client import Client, connect

OpenClient = Callable[..., Awaitable[Client]]


@pytest.fixture(scope="session")
def e2e_redis(request: pytest.FixtureRequest) -> str:
    """A Redis URL: the suite's private redis-server (tests/conftest.py) if there is one, else ours."""
    for name in ("redis_url", "redis_server_url"):
        with contextlib.suppress(pytest.FixtureLookupError):
            value = request.getfixturevalue(name)
            return value if isinstance(value, str) else str(value.url)
    server = RedisProcess().start()
    request.addfinalizer(server.close)
    return server.url


@pytest.fixture
def fresh_redis(e2e_redis: str) -> str:
    """A Redis URL with a key prefix no other test of this run uses."""
    return redis_namespace(e2e_redis)


@pytest.fixture(scope="module")
def memory_server() -> Iterator[ServerProcess]:
    server = ServerProcess("memory", name="memory").start()
    yield server
    server.close()


@pytest.fixture(scope="module")
def redis_server(e2e_redis: str) -> Iterator[ServerProcess]:
    server = ServerProcess(redis_namespace(e2e_redis), name="redis").start()
    yield server
    server.close()


@pytest.fixture
async def clients() -> AsyncIterator[OpenClient]:
    """``await clients(url, **options)`` opens a client (hello done); all are closed after the test."""
    opened: list[Client] = []

    async def open_client(url: str, **options: Any) -> Client:
        client = await connect(url, **options)
        opened.append(client)
        return client

    yield open_client
    for client in opened:
        with contextlib.suppress(Exception):
            await client.close()
