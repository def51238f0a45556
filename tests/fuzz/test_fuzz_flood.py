"""Issue 6, floods: one connection sending as fast as it can is throttled, then closed with 4002.

A real ``meja serve`` (embedded store) with the default rate limit (20
messages/s, bursts of 40, closed after 3 s over it). Table 1: Gus (host) and
Flo, the flooder, who runs in a process of her own (flooder.py) so that her
sending loop does not slow the measuring clients. Table 2: Hal and Ivy with a
bot, playing.

The server reads a client over its rate no faster than the rate (backpressure),
so the flood fills the flooder's own socket buffers, not the server's CPU.

Before and during the flood: Gus (the flooder's own table) times ``ping``
round trips, Hal and Ivy time their actions. The flood must end with close
4002 after ``protocol/rate_limited`` errors; every one of Gus's pings and every
action of Hal and Ivy must be answered, and table 2 must go on moving, during
the flood. Their latencies before and during are printed, not asserted.

A server whose rate limit is, in effect, off (the planted case) does not
close the flooder: the same check fails.

Cost: about 15 s.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fuzz_world import ServerProcess
from meja_client import Client, ServerError, connect, random_policy

FLOODER = Path(__file__).resolve().parent / "flooder.py"
ENV = {"MEJA_BOT_DELAY_MIN_MS": "20", "MEJA_BOT_DELAY_MAX_MS": "60", "MEJA_READY_DELAY_MS": "20",
       "MEJA_HOLD_DELAY_MS": "20", "MEJA_LOG_LEVEL": "WARNING",
       # The default keepalive (the fault harness shortens it): the server reads a flooder only at
       # its rate limit (backpressure), so a keepalive pong waits behind the flood, and a ping
       # timeout shorter than flood_close_s (3 s) would close the flooder first, with 1011.
       "MEJA_PING_INTERVAL_S": "20", "MEJA_PING_TIMEOUT_S": "20"}


class FloodNotStopped(AssertionError):
    """The flooder was not closed with 4002 after rate-limit errors."""


def check_flood(result: dict[str, Any]) -> None:
    if result["close"] != 4002:
        raise FloodNotStopped(f"the flooder was closed with {result['close']}, not 4002: {result}")
    if result["rate_limited"] < 1:
        raise FloodNotStopped(f"no protocol/rate_limited error before the close: {result}")


def p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


async def pinger(client: Client, samples: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        began = time.perf_counter()
        await client.ping(timeout=30)
        samples.append(time.perf_counter() - began)
        await asyncio.sleep(0.05)


async def player(client: Client, seed: int, samples: list[float], stop: asyncio.Event) -> None:
    """Act on every decision (a rematch when the match is over, for the host) and time each answer."""
    policy = random_policy(seed)
    acted_at = None
    while not stop.is_set():

        def ready(c: Client, acted_at: int | None = acted_at) -> bool:
            if stop.is_set() or (c.view is not None and c.view.get("phase") == "match_over" and c.seat == 0):
                return True
            return bool(c.view and c.view.get("legal") and c.status == "playing" and c.version != acted_at)

        try:
            await client.wait_for(ready, timeout=0.5)
        except TimeoutError:
            continue
        if stop.is_set():
            return
        view = client.view
        assert view is not None
        if view.get("phase") == "match_over":
            await client.rematch(timeout=30)
            continue
        acted_at = client.version
        began = time.perf_counter()
        try:
            await client.act(policy(view), version=acted_at, timeout=30)
        except ServerError as exc:
            assert exc.code == "action/stale_version", exc
            continue
        samples.append(time.perf_counter() - began)


async def flood_world(server: ServerProcess, max_flood_s: float) -> dict[str, Any]:
    url = server.url
    gus = await connect(url)
    hal = await connect(url)
    ivy = await connect(url)
    flooder = None
    try:
        first = await gus.host(name="Gus", seats=3, grace_s=600)
        flooder = subprocess.Popen(
            [sys.executable, str(FLOODER), url, first["table"], str(max_flood_s)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        assert flooder.stdout is not None and flooder.stdin is not None
        line = await asyncio.to_thread(flooder.stdout.readline)
        assert line.strip() == "joined", line
        await gus.seat_to(2, "bot")
        await gus.start()
        second = await hal.host(name="Hal", seats=3, grace_s=600)
        await ivy.join(table=second["table"], name="Ivy")
        await hal.seat_to(2, "bot")
        await hal.start()

        phases: dict[str, dict[str, list[float]]] = {}
        for phase in ("before", "during"):
            samples: dict[str, list[float]] = {"gus ping": [], "table 2 act": []}
            stop = asyncio.Event()
            tasks = [
                asyncio.create_task(pinger(gus, samples["gus ping"], stop)),
                asyncio.create_task(player(hal, 1, samples["table 2 act"], stop)),
                asyncio.create_task(player(ivy, 2, samples["table 2 act"], stop)),
            ]
            if phase == "before":
                await asyncio.sleep(2.0)
            else:
                flooder.stdin.write("go\n")
                flooder.stdin.flush()
                line = await asyncio.to_thread(flooder.stdout.readline)
            stop.set()
            await asyncio.gather(*tasks)
            phases[phase] = samples
        result = json.loads(line)
        result["phases"] = phases
        result["others_open"] = not (gus.closed or hal.closed or ivy.closed)
        return result
    finally:
        if flooder is not None and flooder.poll() is None:
            flooder.kill()
            flooder.wait(10)
        for c in (gus, hal, ivy):
            await c.close()


def summary(result: dict[str, Any]) -> str:
    parts = [f"flood: {result['sent']} frames in {result['seconds']} s, closed {result['close']}, "
             f"{result['rate_limited']} rate_limited errors"]
    for phase, samples in result["phases"].items():
        for name, values in samples.items():
            ms = [v * 1000 for v in values]
            parts.append(f"{phase} {name}: n={len(ms)} p50={statistics.median(ms) if ms else float('nan'):.1f} ms "
                         f"p95={p(ms, 95):.1f} ms")
    return "\n  ".join(parts)


async def test_a_flooding_connection_is_closed_4002_and_the_others_keep_going() -> None:
    server = ServerProcess("memory", name="flood", env=ENV).start()
    try:
        result = await flood_world(server, max_flood_s=60)
        print("\n" + summary(result))
        check_flood(result)
        assert result["others_open"], "a connection other than the flooder's was closed"
        during = result["phases"]["during"]
        assert during["gus ping"], "the flooder's table mate got no answer during the flood"
        assert during["table 2 act"], "the other table did not move during the flood"
        assert server.running and not server.tracebacks(), server.tracebacks()[:2]
    finally:
        server.close()


async def test_without_a_rate_limit_the_flood_check_fails() -> None:
    env = {**ENV, "MEJA_RATE_PER_S": "1000000", "MEJA_RATE_BURST": "1000000"}
    server = ServerProcess("memory", name="flood-planted", env=env).start()
    try:
        result = await flood_world(server, max_flood_s=5)
        with pytest.raises(FloodNotStopped):
            check_flood(result)
    finally:
        server.close()
