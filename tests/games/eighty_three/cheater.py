"""Eighty-Three's cheater (tests/games/cheating.py): every world it imagines is the true deal (the other
hands and the kitty as they are)."""

from __future__ import annotations

import random
from typing import Any

from meja.bots.base import History
from meja.games.eighty_three.bots.common import Seen
from meja.games.eighty_three.bots.search import SearchBot
from meja.games.eighty_three.rules import Action
from meja.rules import Rng

from ..cheating import Cheating


class CheatingBot(Cheating, SearchBot):
    def cheat(self, view: Any, history: History, rng: Rng, state: Any) -> Action | None:
        return SearchBot.choose(self, view, history, rng)

    def auction_world(self, seen: Seen, rnd: random.Random) -> tuple[list[list[int]], list[int]]:
        return [list(h) for h in self.state.hands], list(self.state.kitty)

    def trump_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        return [list(h) for h in self.state.hands]

    def play_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        return [list(h) for h in self.state.hands]
