"""Fixtures of the fuzzers: one real ``meja serve`` (embedded store) per test module, and its World.

The protocol fuzzers are plain (synchronous) hypothesis tests: each example
runs on the World's own event loop (fuzz_world.py). ``MEJA_LONG=1`` gives every
fuzzer many more examples (see each module for its CI size and cost).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fuzz_world import FUZZ_ENV, ServerProcess, World


@pytest.fixture(scope="module")
def fuzz_server() -> Iterator[ServerProcess]:
    server = ServerProcess("memory", name="fuzz", env=FUZZ_ENV)
    server.start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def world(fuzz_server: ServerProcess) -> Iterator[World]:
    w = World.open(fuzz_server)
    try:
        yield w
    finally:
        w.close()
