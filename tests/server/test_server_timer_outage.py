"""The timer loop through a store outage (a failover, a partition): one plain warning line, the
failed polls counted in ``meja_redis_errors_total``, no traceback; a bug still logs its traceback."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from meja.server.metrics import Metrics
from meja.server.settings import Settings
from meja.server.timers import DueRunner
from meja.store import Due, MemoryStore
from redis.exceptions import ConnectionError as RedisConnectionError


class _Flaky(MemoryStore):
    """A store whose first ``fails`` polls raise ``error``, then answer."""

    def __init__(self, fails: int, error: Exception) -> None:
        super().__init__()
        self.fails = fails
        self.error = error
        self.polls = 0

    async def poll_due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[list[Due], int | None]:
        self.polls += 1
        if self.fails > 0:
            self.fails -= 1
            raise self.error
        return await super().poll_due(now_ms, lease_ms, limit)


async def _run_until_answered(store: _Flaky, metrics: Metrics) -> None:
    runner = DueRunner(store, None, Settings(due_poll_s=0.01), metrics=metrics)  # type: ignore[arg-type]
    task = asyncio.create_task(runner.run())
    async with asyncio.timeout(30):
        while store.fails or store.polls < 8:
            await asyncio.sleep(0.01)
    await runner.stop()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def _redis_errors(metrics: Metrics) -> float:
    return sum(
        s.value
        for family in metrics.registry.collect()
        for s in family.samples
        if s.name == "meja_redis_errors_total" and s.labels["logger"] == "server.timers"
    )


async def test_an_outage_is_one_warning_and_counted(caplog: Any) -> None:
    store, metrics = _Flaky(5, RedisConnectionError("Error 111 connecting to 10.250.24.11:7000")), Metrics()
    with caplog.at_level(logging.INFO, logger="meja.server.timers"):
        await _run_until_answered(store, metrics)
    records = [r for r in caplog.records if r.name == "meja.server.timers"]
    assert [(r.levelname, r.getMessage()) for r in records] == [
        ("WARNING", "the timer loop cannot reach the store (Error 111 connecting to 10.250.24.11:7000); retrying"),
        ("INFO", "the timer loop reaches the store again"),
    ]
    assert not any(r.exc_info for r in records)
    assert _redis_errors(metrics) == 5


async def test_a_bug_in_the_loop_still_logs_its_traceback(caplog: Any) -> None:
    store, metrics = _Flaky(2, ValueError("a bug")), Metrics()
    with caplog.at_level(logging.INFO, logger="meja.server.timers"):
        await _run_until_answered(store, metrics)
    failed = [r for r in caplog.records if r.name == "meja.server.timers" and r.levelname == "ERROR"]
    assert len(failed) == 2 and all(r.exc_info for r in failed)
    assert _redis_errors(metrics) == 0
