"""Crazy Eights' cheater (tests/games/cheating.py): its worlds deal the other seats their true hands
(only the stock order is sampled)."""

from __future__ import annotations

import random

from meja.bots.base import History
from meja.games.crazy_eights.bots.common import hand_mask, move_of
from meja.games.crazy_eights.bots.infoset import World
from meja.games.crazy_eights.bots.search import SearchBot, candidates
from meja.games.crazy_eights.bots.yardsticks import greedy_choice
from meja.games.crazy_eights.rules import CrazyEightsState, CrazyEightsView, Move, Phase
from meja.rules import Rng

from ...cheating import Cheating
from .helpers import mask


class CheatingBot(Cheating, SearchBot):
    def cheat(self, view: CrazyEightsView, history: History, rng: Rng, state: CrazyEightsState) -> Move:
        if view.phase not in (Phase.PLAY, Phase.CHOOSE_SUIT):
            return view.legal[0]
        cands = candidates(view)
        if len(cands) <= 1:
            return move_of(*cands[0]) if cands else greedy_choice(view)
        hand = hand_mask(view)
        for a in cands:
            if a[0] == 0 and hand == 1 << a[1]:
                return move_of(*a)
        hands = [mask(h) for h in state.hands]
        stock = [int(c) for c in state.stock]
        disc = mask(state.discard[:-1])

        def sample(rnd: random.Random) -> World:
            order = list(stock)
            for i in range(len(order) - 1, 0, -1):
                j = int(rnd.random() * (i + 1))
                order[i], order[j] = order[j], order[i]
            return World(list(hands), order, disc)

        seed, _ = rng.bits(64)
        return move_of(*self.search(view, cands, sample, random.Random(seed)))
