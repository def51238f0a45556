"""The ``easy`` level: a casual player who knows the rules and makes natural slips.

It follows the suit or the rank like anyone at a kitchen table, picking among
its playable cards without a plan, and:

- plays an 8 early (with other cards playable) with probability
  :data:`EARLY_EIGHT`, though the seed's first tip says to keep it (1.8.1);
- calls a random suit instead of its longest one with probability
  :data:`RANDOM_CALL` (tip 2 forgotten);
- otherwise sheds a high card first about as often as a low one.

It never draws voluntarily and never passes when it could play: the slips are
strategic, not illegal or absurd. Measured (``meja bench bots``, held out):
``normal`` wins 58% of rounds against it at 2 seats, and it wins 42% against
``greedy``, a little more than ``random-card`` does; the table is in :mod:`meja.bots`.
"""

from __future__ import annotations

from typing import Final

from meja.rules.cards import CARDS, Suit
from meja.rules.rng import Rng

from ..rules import READY, CrazyEightsView, Move, Phase
from .common import History, fallback, hand_mask, playable_mask
from .sim import greedy_suit
from .tables import EIGHTS, bits

__all__ = ["EARLY_EIGHT", "RANDOM_CALL", "CasualBot"]

#: Chance of playing an 8 while another card is playable.
EARLY_EIGHT: Final = 0.30
#: Chance of calling a random suit rather than the longest one.
RANDOM_CALL: Final = 0.50
_SCALE: Final = 1 << 20


class CasualBot:
    """See the module docstring."""

    name = "easy"
    needs_history = False
    blocking = False

    def choose(self, view: CrazyEightsView, history: History, rng: Rng) -> Move:
        if view.phase == Phase.CHOOSE_SUIT:
            return Move.choose(Suit(self._call(hand_mask(view), rng)[0]))
        if view.phase != Phase.PLAY:
            return READY if READY in view.legal else view.legal[0]
        playable = playable_mask(view)
        if not playable:
            return fallback(view)
        hand = hand_mask(view)
        non8 = playable & ~EIGHTS
        eights = playable & EIGHTS
        if eights and non8:
            roll, rng = rng.randbelow(_SCALE)
            if roll < EARLY_EIGHT * _SCALE:
                non8 = 0
        if non8:
            cards = bits(non8)
            i, _ = rng.randbelow(len(cards))
            return Move.play(CARDS[cards[i]])
        c = (eights & -eights).bit_length() - 1
        rest = hand & ~(1 << c)
        if not rest:
            return Move.play(CARDS[c])
        suit, _ = self._call(rest, rng)
        return Move.play(CARDS[c], Suit(suit))

    @staticmethod
    def _call(hand: int, rng: Rng) -> tuple[int, Rng]:
        roll, rng = rng.randbelow(_SCALE)
        if roll < RANDOM_CALL * _SCALE:
            return rng.randbelow(4)
        return greedy_suit(hand), rng
