"""The server bench's refused actions by kind: an out-of-turn action that lost a race to another
seat's (several players claiming the same window at once) is refused by design, and the bench
says which kinds of action were refused, beside the errors by code (h16)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from meja.bench import server as bench
from meja_client import ServerError


class _Refusing:
    """A scripted player's client whose every action is refused with ``code``; the table moves
    on (a new version) after each, so the player acts again."""

    def __init__(self, code: str, kinds: list[str], stop: asyncio.Event) -> None:
        self.code, self.kinds, self.stop = code, kinds, stop
        self.version = 10
        self.status = "playing"
        self.view: dict[str, Any] = {"version": 1, "phase": "play", "legal": [{"kind": k} for k in kinds]}
        self.frames: list[bytes] = []
        self.messages: list[Any] = []
        self.events: list[Any] = []
        self.event_versions: list[int] = []
        self.updates: list[Any] = []
        self.errors: list[Any] = []
        self.acted: list[str] = []

    async def wait_for(self, predicate: Any, timeout: float = 1.0) -> Any:
        return predicate(self)

    async def act(self, action: dict[str, Any], *, version: int | None = None, timeout: float = 1.0) -> None:
        self.acted.append(action["kind"])
        self.version += 1
        if len(self.acted) == 6:
            self.stop.set()
        raise ServerError({"type": "error", "code": self.code, "message": "refused"})


@pytest.mark.parametrize("code", ["action/illegal", "action/stale_version"])
async def test_a_refused_action_is_counted_by_its_code_and_its_kind(code: str) -> None:
    stop = asyncio.Event()
    client = _Refusing(code, ["claim", "pass"], stop)
    counters = bench._Counters()
    seat = bench._Seat(client, counters, counts_moves=False)  # type: ignore[arg-type]
    await asyncio.wait_for(bench._play(seat, is_host=False, seed=3, pace=None, stop=stop), 10)
    assert len(client.acted) == 6
    assert counters.errors == {code: 6}
    by_kind = {f"{code} {kind}": client.acted.count(kind) for kind in set(client.acted)}
    assert counters.refused == by_kind and sum(counters.refused.values()) == 6


def test_the_runs_of_a_form_sum_their_refused_kinds() -> None:
    def run(refused: dict[str, int]) -> dict[str, Any]:
        return {
            "connections": 10, "moves": 100, "window_s": 10.0, "moves_per_s": 10.0, "bytes_per_move": 1.0,
            "frames_per_move": 10.0, "server_cpu_ms_per_move": 1.0, "server_system_cpu_ms_per_move": 0.1,
            "server_cpu_percent": 50.0, "generator_cpu_percent": 80.0,
            "errors": {"action/illegal": sum(refused.values())}, "refused_by_kind": refused,
            "latency_ms": {"p50": 1.0, "p95": 2.0, "p99": 3.0}, "metrics": {"run": {"settled": True}},
        }  # fmt: skip

    doc = bench.over_runs(
        [run({"action/illegal claim": 3}), run({"action/illegal claim": 2, "action/illegal pass": 1})]
    )
    assert doc["refused_by_kind"] == {"action/illegal claim": 5, "action/illegal pass": 1}
    assert doc["errors"] == {"action/illegal": 6}
