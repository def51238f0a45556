"""Process-wide runtime settings of the long-running ``meja`` commands (no I/O, no imports of Meja).

The garbage collector
---------------------
CPython's cyclic collector runs a young collection every 700 container
allocations (``gc.get_threshold()[0]``) and, every so often, a full one that
walks every live object. A server holding hundreds of tables (immutable game
states, cached views) allocates thousands of short-lived dicts per move, so at
the defaults it spent about a fifth of its CPU in the collector: ``meja bench
server`` with 500 tables on one process measured 0.82 ms of server CPU per move
with the defaults, 0.65 with the collector off and 0.55 with
:data:`GC_THRESHOLDS` (one run each, same machine, 2026-11-30). Almost nothing
Meja allocates forms reference cycles (reference counting frees it at once), so
collecting less often costs little memory; :func:`tune` also freezes the objects
alive at start-up (modules, tables of constants) so that full collections skip
them.

``meja serve`` and the benchmarks call :func:`tune` (through :mod:`meja.cli`),
and the benchmark's echo server does the same, so that the ceiling it measures
runs under the same settings.
"""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["GC_THRESHOLDS", "tune"]

#: (young, middle, old): collect the young generation every 50,000 container allocations.
GC_THRESHOLDS: Final = (50_000, 20, 100)


def tune() -> None:
    """Apply :data:`GC_THRESHOLDS` and freeze what is alive now (call once, after imports)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
