"""A running server with tables to protect, and one frame at a time sent at it and judged.

:class:`World` runs on its own event loop (hypothesis drives plain functions,
one example after another): a real ``meja serve`` process (the fault suite's
harness, tests/faults/faults_harness.py, on the embedded store), a *target*
table that is playing (Ann and Bob, seats 0 and 1, no bot, so nothing changes
there unless someone acts) watched by a spectator, and an *other* table (Cat
and Dan). :meth:`World.observe` sends one frame on a connection, then a
``ping`` as a barrier (answers come in the order the requests were sent), and
returns what came back before the ``pong``, or the close code.
:func:`judge` holds that against the oracle (fuzz_oracle.py), and
:meth:`World.assert_unchanged` checks that the target table did not move.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import sys
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import fuzz_oracle as oracle
from meja_client import Client, ConnectionClosed, encode
from meja_client import connect as _connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "faults"))
from faults_harness import ServerProcess  # the fault suite's process harness

T = TypeVar("T")

#: Whether to run the long versions (MEJA_LONG=1).
LONG = os.environ.get("MEJA_LONG", "") not in ("", "0")

#: The fuzz server: per-address limits and the rate limit lifted (one client sends thousands of frames).
FUZZ_ENV = {
    "MEJA_RATE_PER_S": "100000",
    "MEJA_RATE_BURST": "100000",
    "MEJA_CODE_ATTEMPTS": "1000000",
    "MEJA_HOSTS_PER_WINDOW": "1000000",
    "MEJA_MAX_CONNECTIONS_PER_ADDRESS": "0",
    "MEJA_LOG_LEVEL": "WARNING",
    # The World's event loop runs only during an example: between examples nobody answers the
    # server's keepalive pings, and on a busy machine the gaps add up past the ping timeout (a
    # 1011 close mid-example). Keepalive has tests of its own; the fuzzers judge frames.
    "MEJA_PING_INTERVAL_S": "0",
}


@dataclass
class Observation:
    close: int | None
    replies: list[dict[str, Any]] = field(default_factory=list)


def judge(allowed: frozenset[str] | set[str], obs: Observation, rid: Any) -> str | None:
    """``None`` if ``obs`` is one of the ``allowed`` outcomes (fuzz_oracle names), else what is wrong."""
    errors = [m for m in obs.replies if m.get("type") == "error"]
    codes = [e.get("code") for e in errors]
    if "internal" in codes:
        return f"the server failed on it (internal): {errors}"
    for e in errors:
        if rid is not None and e.get("re") != rid:
            return f"error without the request's id as re: {e}"
        if rid is None and "re" in e:
            return f"error with a re although the request had no valid id: {e}"
    if obs.close is not None:
        if obs.close in (4000, 1009) and f"close{obs.close}" in allowed:
            return None if not errors else f"closed {obs.close} but with an error reply first: {codes}"
        if obs.close == 4003 and oracle.VERSION in allowed and codes == ["protocol/version"]:
            return None
        return f"closed with {obs.close} (errors {codes}); allowed: {sorted(allowed)}"
    if oracle.BAD in allowed and codes == ["protocol/bad_message"]:
        return None
    if oracle.UNKNOWN in allowed and codes == ["protocol/unknown_type"]:
        return None
    if oracle.REFUSED in allowed and len(codes) == 1:
        return None
    if oracle.SERVED in allowed and len(codes) <= 1 and not any(str(c).startswith("protocol/") for c in codes):
        return None if obs.replies else "no answer at all"
    return f"answered {codes or [m.get('type') for m in obs.replies]}; allowed: {sorted(allowed)}"


def allowed_for(frame: bytes | str) -> frozenset[str]:
    """The outcomes the oracle allows for a raw frame."""
    read = oracle.read_frame(frame)
    if read.close is not None:
        return frozenset({f"close{read.close}"})
    assert read.value is not None
    return oracle.expect_message(read.value)


class World:
    """See the module docstring. Build with :meth:`open`; :meth:`close` when done."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self._ids = itertools.count(1)
        self.stranger: Client | None = None
        self.ann: Client
        self.bob: Client
        self.spectator: Client
        self.cat: Client
        self.dan: Client
        self.snapshot: tuple[Any, ...] = ()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    @classmethod
    def open(cls, server: ServerProcess) -> World:
        world = cls(server)
        world.run(world._setup())
        return world

    async def _setup(self) -> None:
        url = self.server.url
        self.ann = await connect(url)
        joined = await self.ann.host(name="Ann", seats=2, grace_s=600)
        self.bob = await connect(url)
        await self.bob.join(code=joined["code"], name="Bob")
        self.spectator = await connect(url)
        await self.spectator.watch(table=joined["table"])
        await self.ann.start()
        await self.bob.wait_for(lambda c: c.view is not None)
        self.cat = await connect(url)
        other = await self.cat.host(name="Cat", seats=2, grace_s=600)
        self.dan = await connect(url)
        await self.dan.join(code=other["code"], name="Dan")
        await self.cat.start()
        await self.spectator.ping()
        self.snapshot = self.picture()

    @property
    def target_id(self) -> str:
        return str(self.ann.table_id)

    @property
    def target_code(self) -> str:
        return str(self.ann.code)

    @property
    def other_id(self) -> str:
        return str(self.cat.table_id)

    def picture(self) -> tuple[Any, ...]:
        """What must not change: versions and views of the target, and no update since."""
        s = self.spectator
        return (s.version, s.view, self.ann.view, self.bob.view, len(s.updates))

    async def _fresh_stranger(self) -> Client:
        if self.stranger is None or self.stranger.closed:
            if self.stranger is not None:
                with contextlib.suppress(Exception):
                    await self.stranger.close()
            self.stranger = await connect(self.server.url)
        return self.stranger

    async def observe(self, frame: bytes | str, client: Client | None = None) -> Observation:
        """Send ``frame`` (on ``client``, else a stranger's connection), then a ping barrier."""
        if client is None:
            client = await self._fresh_stranger()
        client.messages.clear()  # no request is pending on it: start a clean record
        barrier = f"barrier-{next(self._ids)}"
        try:
            await client.send_raw(frame)
            await client.send(ping_message(barrier))
            await client.wait_for(
                lambda c: any(m.get("type") == "pong" and m.get("re") == barrier for m in c.messages), timeout=30
            )
        except ConnectionClosed:
            await client.wait_closed(10)
            replies = list(client.messages)
            return Observation(client.close_code, replies)
        replies = [m for m in client.messages if not (m.get("type") == "pong" and m.get("re") == barrier)]
        return Observation(None, replies)

    async def unchanged(self) -> str | None:
        """``None`` if the target table is as it was (checked after a round trip to the spectator)."""
        await self.spectator.ping()
        now = self.picture()
        return None if now == self.snapshot else f"the target table changed: {now[0]} vs {self.snapshot[0]}"

    def close(self) -> None:
        async def shut() -> None:
            for c in (self.stranger, self.ann, self.bob, self.spectator, self.cat, self.dan):
                if c is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(c.close(), 5)

        with contextlib.suppress(Exception):
            self.run(shut())
        self.loop.close()


def connect(url: str) -> Any:
    """A client without keepalive pings (see FUZZ_ENV: the loop sleeps between examples)."""
    return _connect(url, ping_interval=None)


def ping_message(rid: str) -> dict[str, Any]:
    return {"type": "ping", "id": rid}


__all__ = ["FUZZ_ENV", "LONG", "Observation", "ServerProcess", "World", "allowed_for", "encode", "judge"]
