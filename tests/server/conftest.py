"""Fixtures of the server tests: real ``MejaServer`` tasks on a free port, and tiny clients.

``serve(**settings)`` starts a server in this event loop (memory store unless
``redis=True``, which uses the session's private Redis under a fresh prefix)
with fast timers, and stops it gracefully when the test ends. ``connect(server)``
opens a :class:`wire.Wire` client with ``hello`` done.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from meja.server.app import MejaServer
from meja.server.settings import Settings
from server_wire import Wire

#: Timers short enough for a whole match in about a second, still well above zero.
FAST: dict[str, Any] = {
    "host": "127.0.0.1",
    "port": 0,
    "public_origin": "https://meja.test",
    "bot_delay_min_ms": 1,
    "bot_delay_max_ms": 4,
    "hold_delay_ms": 2,
    "ready_delay_ms": 2,
    "due_poll_s": 0.02,
    "heartbeat_s": 0.2,
    "heartbeat_ttl_s": 1.0,
    "presence_check_s": 0.3,
    "due_lease_s": 0.5,
    "shutdown_timeout_s": 3.0,
    "close_timeout_s": 1.0,
    # Fast bots make a fast game: the clients here act far faster than people.
    "rate_per_s": 1000.0,
    "rate_burst": 1000,
    "private_steps_per_s": 100_000.0,
}


def url_of(server: MejaServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


@pytest.fixture
async def serve(request: pytest.FixtureRequest) -> AsyncIterator[Callable[..., Awaitable[MejaServer]]]:
    started: list[MejaServer] = []
    prefix: list[str] = []

    async def start(*, redis: bool = False, store: Any = None, **overrides: Any) -> MejaServer:
        settings = {**FAST, **overrides}
        if redis:
            if not prefix:
                prefix.append(request.getfixturevalue("redis_prefix"))
            url = request.getfixturevalue("redis_url")
            settings["redis_url"] = f"{url}?prefix={prefix[0]}"
        server = MejaServer(Settings(**settings), store=store)
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        await server.stop()


@pytest.fixture(params=["whole", "diffs"])
def frame_form(request: pytest.FixtureRequest) -> str:
    """Both forms of updates (PROTOCOL.md 7.5): a module that uses this fixture (``pytestmark =
    pytest.mark.usefixtures("frame_form")``) runs each test with whole views and with patches."""
    return str(request.param)


@pytest.fixture
async def connect(request: pytest.FixtureRequest) -> AsyncIterator[Callable[..., Awaitable[Wire]]]:
    opened: list[Wire] = []
    diffs = "frame_form" in request.fixturenames and request.getfixturevalue("frame_form") == "diffs"

    async def open_wire(server: MejaServer | str, **options: Any) -> Wire:
        options.setdefault("diffs", diffs)
        wire = await Wire.open(server if isinstance(server, str) else url_of(server), **options)
        opened.append(wire)
        return wire

    yield open_wire
    for wire in opened:
        with contextlib.suppress(Exception):
            await wire.close()
