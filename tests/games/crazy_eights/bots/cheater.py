"""Crazy Eights' cheater (tests/games/cheating.py): its worlds deal the other seats their true hands
(only the stock order is sampled); everything else is the honest ``hard`` bot's."""

from __future__ import annotations

import random

from meja.bots.base import History
from meja.games.crazy_eights.bots.infoset import World
from meja.games.crazy_eights.bots.search import Sampler, SearchBot
from meja.games.crazy_eights.rules import CrazyEightsState, CrazyEightsView, Move
from meja.rules import Rng

from ...cheating import Cheating
from .helpers import mask


class CheatingBot(Cheating, SearchBot):
    def cheat(self, view: CrazyEightsView, history: History, rng: Rng, state: CrazyEightsState) -> Move:
        return SearchBot.choose(self, view, history, rng)

    def sampler(self, view: CrazyEightsView, history: History) -> Sampler:
        state: CrazyEightsState = self.state
        hands = [mask(h) for h in state.hands]
        stock = [int(c) for c in state.stock]
        disc = mask(state.discard[:-1])

        def sample(rnd: random.Random) -> World:
            order = list(stock)
            for i in range(len(order) - 1, 0, -1):
                j = int(rnd.random() * (i + 1))
                order[i], order[j] = order[j], order[i]
            return World(list(hands), order, disc)

        return sample
