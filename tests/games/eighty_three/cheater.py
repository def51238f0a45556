"""A deliberately cheating ``hard`` bot: a TEST BOT, never seated by the server.

It is the ``hard`` search with one difference: every world it imagines is the
true deal (the other hands and the kitty as they are), because the benchmark
hands it the true state (``sees_state = True``). If it does not score clearly
higher than the honest bot, the honesty tests are blind.
"""

from __future__ import annotations

import random
from typing import Any

from meja.bots.base import History
from meja.games.eighty_three.bots.common import Seen
from meja.games.eighty_three.bots.search import SearchBot
from meja.games.eighty_three.rules import Action, EightyThreeState
from meja.rules import Rng


class CheatingBot(SearchBot):
    sees_state = True

    def __init__(self, **params: Any) -> None:
        super().__init__(name="cheater", **params)
        self._state: EightyThreeState | None = None

    def choose(  # type: ignore[override]
        self, view: Any, history: History, rng: Rng, state: EightyThreeState | None = None
    ) -> Action | None:
        assert state is not None, "the cheater needs the true state"
        self._state = state
        return super().choose(view, history, rng)

    def auction_world(self, seen: Seen, rnd: random.Random) -> tuple[list[list[int]], list[int]]:
        assert self._state is not None
        return [list(h) for h in self._state.hands], list(self._state.kitty)

    def trump_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        assert self._state is not None
        return [list(h) for h in self._state.hands]

    def play_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        assert self._state is not None
        return [list(h) for h in self._state.hands]
