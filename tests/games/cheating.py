"""A deliberately cheating bot for every game's honesty tests: a TEST YARDSTICK, never seated by the server.

A game's cheater is its ``hard`` search with one difference: the benchmark hands
it the true state (``sees_state = True``), and its worlds deal the other seats
their *true* cards. If it does not score clearly higher than the honest bot, the
honesty tests are blind. A game's cheater is this mixin before its search bot,
with :meth:`Cheating.cheat` (its worlds may read :attr:`Cheating.state`).
"""

from __future__ import annotations

from typing import Any

from meja.bots.base import History
from meja.rules import Rng


class Cheating:
    """Named ``cheater``, sees the true state, keeps it for the world hooks, and chooses by :meth:`cheat`."""

    sees_state = True
    state: Any = None

    def __init__(self, **params: Any) -> None:
        super().__init__(name="cheater", **params)  # type: ignore[call-arg]

    def choose(self, view: Any, history: History, rng: Rng, state: Any = None) -> Any:
        assert state is not None, "the cheater needs the true state"
        self.state = state
        return self.cheat(view, history, rng, state)

    def cheat(self, view: Any, history: History, rng: Rng, state: Any) -> Any:
        raise NotImplementedError
