"""Real ``meja serve`` processes for the fault tests: start, SIGTERM, SIGKILL, SIGSTOP/SIGCONT.

A :class:`ServerProcess` (tests/server_process.py, shared with the end-to-end
tests) runs ``meja serve --redis URL`` on a free port with :data:`FAULT_ENV`, waits for ``/healthz``, and can be stopped
as an operator would (SIGTERM), killed as in a crash (SIGKILL), or frozen and
thawed (SIGSTOP, SIGCONT: a process the kernel stops scheduling, as under a
long GC pause or a VM migration). Its output goes to a log file that a failing
test prints.

``plant="..."`` starts the process through ``planted_serve.py``, which
monkeypatches a known bug into the server before it runs (only the tests that
prove the checkers can fail use it).

Timers are short so that a fault and its recovery take seconds, and every
bound the tests wait for is derived from them (:func:`stall_bound_s`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import server_process
from meja.bench.procs import FAULT_TIMING_ENV, LOOPBACK_ENV

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).resolve().parent / "planted_serve.py"

#: Whether to run the long versions (MEJA_LONG=1): more tables, whole matches to 100 points.
LONG = os.environ.get("MEJA_LONG", "") not in ("", "0")

#: Server settings of every fault test (MEJA_* variables, see meja.server.settings).
FAULT_ENV: dict[str, str] = {
    # Fast bots: whole rounds in seconds. Still above zero, so the timer path is the real one.
    "MEJA_BOT_DELAY_MIN_MS": "20",
    "MEJA_BOT_DELAY_MAX_MS": "60",
    "MEJA_HOLD_DELAY_MS": "20",
    "MEJA_READY_DELAY_MS": "20",
    # Every test client comes from 127.0.0.1.
    **LOOPBACK_ENV,
    # Scripted players act as soon as they may: above the human rate limit, below a flood.
    "MEJA_RATE_PER_S": "200",
    "MEJA_RATE_BURST": "400",
    # Short leases and heartbeats: a dead or frozen process is noticed in seconds (as meja bench chaos).
    **FAULT_TIMING_ENV,
    "MEJA_DUE_POLL_S": "0.1",
    "MEJA_LOG_LEVEL": "INFO",
}


def stall_bound_s(env: Mapping[str, str] = FAULT_ENV, *, grace_s: float = 0.0) -> float:
    """The longest a table may go without a game action after a fault, by the documented settings.

    A bot's move scheduled or claimed by a process that died comes due again after
    ``due_lease_s`` (plus a poll and the bot's pause, longer after a reshuffle); a
    player held through a dead process is noticed within ``presence_check_s`` of
    being awaited once its heartbeat (``heartbeat_ttl_s``) is stale; a player who
    does not come back keeps the seat for ``grace_s`` before a bot plays for them
    (PROTOCOL.md 4, meja.server.settings). Pass the table's ``grace_s`` when a
    seat may be abandoned.
    """
    f = {k: float(v) for k, v in env.items() if k.endswith(("_S", "_MS"))}
    bot_s = (f["MEJA_BOT_DELAY_MAX_MS"] + f["MEJA_HOLD_DELAY_MS"] + f["MEJA_READY_DELAY_MS"]) / 1000
    return (
        f["MEJA_DUE_LEASE_S"] + f["MEJA_DUE_POLL_S"] + bot_s
        + f["MEJA_PRESENCE_CHECK_S"] + f["MEJA_HEARTBEAT_TTL_S"] + f["MEJA_PING_INTERVAL_S"]
        + f["MEJA_PING_TIMEOUT_S"] + grace_s
    )


class ServerProcess(server_process.ServerProcess):
    """One ``meja serve --redis store`` process (tests/server_process.py) with :data:`FAULT_ENV`
    (``store="memory"``: the embedded store); ``plant`` runs it through ``planted_serve.py``."""

    start_timeout_s = 60.0
    close_timeout_s = 10.0

    def __init__(
        self,
        store: str,
        *,
        name: str = "server",
        env: Mapping[str, str] | None = None,
        plant: str | None = None,
    ) -> None:
        extra = dict(env or {})
        if plant is not None:
            extra["MEJA_TEST_PLANT"] = plant
        entry = [sys.executable, str(PLANTED)] if plant is not None else None
        super().__init__(store, name=name, base_env=FAULT_ENV, env=extra, entry=entry, log_prefix="meja-faults")
        self.plant = plant


running = server_process.running  # the process harness the e2e tests share (as running_async)
