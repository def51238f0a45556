"""Fixtures of the fault tests: a private Redis with append-only persistence, per test.

Cost: each test starts its own redis-server (``appendonly yes``, ``appendfsync
always``: every write is on disk before Redis answers, so a Redis restarted
mid-round loses nothing) and two or three ``meja serve`` processes; the whole
suite takes about two minutes at the CI size. ``MEJA_LONG=1`` runs the long
versions (more tables, whole matches).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def aof_redis(redis_servers: Callable[..., Any]) -> Any:
    """A private redis-server (tests/conftest.py) with ``appendonly yes`` and ``appendfsync always``."""
    return redis_servers(appendonly=True, appendfsync="always")
