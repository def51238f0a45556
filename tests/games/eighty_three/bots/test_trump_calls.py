"""Naming trumps on worlds weighed by the calls (``trump_calls``, off by default).

With it, the trump search's worlds are drawn as the auction's are (:func:`.auction.weighted_worlds`):
an opponent who bid high holds a strong hand there, a seat that passed a weak one; without it the
36 unseen cards are dealt uniformly.
"""

from __future__ import annotations

import random
from typing import Any

from meja.games.eighty_three.bots.auction import strength
from meja.games.eighty_three.bots.common import Seen
from meja.games.eighty_three.bots.search import SearchBot
from meja.games.eighty_three.rules import Action

from ..test_bots_auction import WEAK

# The bidder's 17 cards: its 12 and a kitty of fair trumps-to-be.
HAND = sorted({*WEAK, *range(40, 45)})
# Seat 3 passed, the partner (seat 0) passed, seat 1 bid 65, this seat (2) 66, seat 1 passed.
CALLS = [(3, 0), (0, 0), (1, 65), (2, 66), (1, 0)]


class _Spy(SearchBot):
    """Keeps the hooks of its last search (to look at the worlds it was given)."""

    hooks: Any = None

    def run(self, game: Any, candidates: Any, rnd: random.Random, budget: Any = None, stop: Any = None) -> Any:
        self.hooks = game
        return super().run(game, candidates, rnd, budget, stop)


def _mean_strengths(**options: Any) -> list[float]:
    seen = Seen(
        seat=2, phase="trump", hand=list(HAND), trump=-1, bidder=2, bid=66, dealer=3, high_bid=66,
        hand_counts=[12, 12, 17, 12], calls=list(CALLS),
    )  # fmt: skip
    bot = _Spy(deadline=None, **options)
    suit = bot.name_trump(seen, random.Random(5))
    assert Action.trump(suit) is not None
    rnd = random.Random(9)
    worlds = [bot.hooks.sample(rnd) for _ in range(60)]
    for w in worlds:
        assert sorted(w[2]) == HAND and sorted(c for h in w for c in h) == list(range(53))
    return [sum(strength(w[s]) for w in worlds) / len(worlds) for s in range(4)]


def test_with_trump_calls_the_bidding_opponent_is_strong_and_the_passers_weak() -> None:
    plain = _mean_strengths()
    read = _mean_strengths(trump_calls=True)
    # (on these seeds: plain 52.2, 51.1, -, 50.1; read 41.5, 54.0, -, 45.0)
    assert read[1] > plain[1] + 2  # bid 65: its estimate + boldness covered it
    assert read[0] < plain[0] - 5 and read[3] < plain[3] - 3  # passed at the first chance
