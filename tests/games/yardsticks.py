"""Every game's yardsticks are frozen: their decisions on fixed deals hash to pinned digests.

If a pinned test fails, a yardstick (or the rules it plays) changed, and every
figure measured against it is no longer comparable: restore it, or bump the
game's ``YARDSTICK_VERSION`` and its digests together and say why in the commit.
A game's test module declares its pins and how it plays its fixed deals, and
takes the two tests from :func:`pinned_tests`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def pinned_tests(version: int, pins: dict[str, str], digest: Callable[[str], str]) -> tuple[Any, Any]:
    """The version test and the pinned-decisions test (parametrised over ``pins``) of one game."""

    def test_yardstick_version() -> None:
        assert version == 1

    @pytest.mark.parametrize("name", sorted(pins))
    def test_yardstick_decisions_are_pinned(name: str) -> None:
        assert digest(name) == pins[name]

    return test_yardstick_version, test_yardstick_decisions_are_pinned
