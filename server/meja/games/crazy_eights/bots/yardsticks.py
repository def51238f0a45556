"""The frozen yardsticks of docs/bots.md: ``random-any``, ``random-card`` and ``greedy``.

They measure the levels (``meja bench bots``), so they must not drift: they are
versioned together with the rules (:data:`YARDSTICK_VERSION`, bumped only with
a rules change that changes what they can do), and
``tests/games/crazy_eights/bots/test_yardsticks.py`` pins a digest of their decisions on fixed
deals. Change one of them and that test fails: bump the version and say why.

- **random-any**: uniform over every legal action, voluntary draws included. A floor.
- **random-card**: a uniformly random playable card (each 8 counted once, its
  suit called at random); draws only with nothing playable; passes when forced.
- **greedy**: a non-8 if one is playable, the one whose suit the hand holds most
  of (ties: higher penalty, then lower card id); else the lowest 8, calling the
  suit held most (non-8 cards; ties: higher penalty total, then S, H, D, C);
  else draw; else pass. Never draws voluntarily. See :func:`.sim.greedy_play`.

Each uses the RNG it is given (only the random ones draw from it).
"""

from __future__ import annotations

from typing import Final

from meja.bots.base import RandomAnyBot
from meja.rules.cards import CARDS, Suit
from meja.rules.rng import Rng

from ..rules import READY, CrazyEightsView, Move, Phase
from .common import History, fallback, hand_mask, playable_mask
from .sim import greedy_play, greedy_suit
from .tables import EIGHT, RANK, bits

__all__ = ["YARDSTICK_VERSION", "GreedyBot", "RandomAnyBot", "RandomCardBot"]

#: Version of the yardsticks' behaviour, tied to the rules they play.
YARDSTICK_VERSION: Final = 1


class RandomCardBot:
    """A uniformly random playable card, each 8 once with a random suit; else draw; else pass."""

    name = "random-card"
    needs_history = False
    blocking = False

    def choose(self, view: CrazyEightsView, history: History, rng: Rng) -> Move:
        if view.phase == Phase.CHOOSE_SUIT:
            s, _ = rng.randbelow(4)
            return Move.choose(Suit(s))
        cards = bits(playable_mask(view))
        if not cards:
            return fallback(view)
        i, rng = rng.randbelow(len(cards))
        c = cards[i]
        if RANK[c] == EIGHT and len(view.hand or ()) > 1:
            s, _ = rng.randbelow(4)
            return Move.play(CARDS[c], Suit(s))
        return Move.play(CARDS[c])


class GreedyBot:
    """docs/bots.md greedy: the strength yardstick (deterministic; the RNG is unused)."""

    name = "greedy"
    needs_history = False
    blocking = False

    def choose(self, view: CrazyEightsView, history: History, rng: Rng) -> Move:
        return greedy_choice(view)


def greedy_choice(view: CrazyEightsView) -> Move:
    """The greedy action for a view (also the ``normal`` level's policy)."""
    if view.phase == Phase.CHOOSE_SUIT:
        return Move.choose(Suit(greedy_suit(hand_mask(view))))
    if view.phase != Phase.PLAY:
        return READY if READY in view.legal else view.legal[0]
    playable = playable_mask(view)
    if not playable:
        return fallback(view)
    c, s = greedy_play(hand_mask(view), playable)
    return Move.play(CARDS[c], None if s < 0 else Suit(s))
