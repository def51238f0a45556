"""The ``easy`` and ``normal`` levels.

``normal`` (:class:`NormalBot`) is the greedy yardstick's policy (the seed's tips,
:func:`.yardsticks.greedy_choice`), a separate class so that it may improve while
``greedy`` stays frozen.

``easy`` (:class:`CasualBot`) is a casual player who knows the rules and makes
natural slips, each decided by the rng the server gives it (so the same
decision, asked twice, slips the same way):

- it forgets to call "last card" before playing its second-to-last card with
  probability :data:`FORGET_CALL`, and then, with its catch window open, forgets
  to call after with probability :data:`FORGET_CALL` too (a slow reflex);
- it misses a catch it could make with probability :data:`FORGET_CATCH`
  (out of turn it then says "not now", as a person who did not notice);
- it plays whatever card comes to hand: a random playable card, a Wild early (with
  other cards playable) with probability :data:`EARLY_WILD`, a random colour for
  a Wild with probability :data:`RANDOM_COLOUR`;
- it challenges a Wild Draw Four at even odds.

It never draws voluntarily and never passes when it could play: its slips are
strategic or a lapse of attention, never illegal.
"""

from __future__ import annotations

from typing import Final

from meja.rules.rng import Rng

from ..rules import KartuTerakhirView, Move, Phase
from .common import CALL, CATCH, CHALLENGE, DRAW, KEEP, NAME_COLOUR, NAMEIX, PASS, READY, TAKE, History, greedy_colour
from .yardsticks import greedy_choice

__all__ = ["EARLY_WILD", "FORGET_CALL", "FORGET_CATCH", "RANDOM_COLOUR", "CasualBot", "NormalBot"]

#: Chance of not calling in time (before playing; then again after, while the window is open).
FORGET_CALL: Final = 0.5
#: Chance of not noticing a catch it could make.
FORGET_CATCH: Final = 0.5
#: Chance of playing a Wild while another card is playable.
EARLY_WILD: Final = 0.3
#: Chance of naming a random colour rather than the one held most.
RANDOM_COLOUR: Final = 0.5
_SCALE: Final = 1 << 20
_STEP: Final = int(DRAW)


def _roll(rng: Rng, p: float) -> tuple[bool, Rng]:
    roll, rng = rng.randbelow(_SCALE)
    return roll < p * _SCALE, rng


class NormalBot:
    """``normal``: the greedy yardstick's policy with its full-attention reflexes."""

    name = "normal"
    needs_history = True
    blocking = False

    def choose(self, view: KartuTerakhirView, history: History, rng: Rng) -> Move | None:
        return greedy_choice(view, history, rng)


class CasualBot:
    """``easy``: see the module docstring."""

    name = "easy"
    needs_history = False
    blocking = False

    def __init__(
        self,
        forget_call: float = FORGET_CALL,
        forget_catch: float = FORGET_CATCH,
        early_wild: float = EARLY_WILD,
        random_colour: float = RANDOM_COLOUR,
    ) -> None:
        self.forget_call = forget_call
        self.forget_catch = forget_catch
        self.early_wild = early_wild
        self.random_colour = random_colour

    def choose(self, view: KartuTerakhirView, history: History, rng: Rng) -> Move | None:
        legal = view.legal
        if not legal:
            return None
        if view.phase >= Phase.ROUND_OVER:
            return READY if READY in legal else legal[0]
        rng = rng.derive("easy")
        mine = view.seat is not None and view.seat == view.turn and view.phase == Phase.PLAY
        if CATCH in legal:
            missed, rng = _roll(rng, self.forget_catch)
            if not missed:
                return CATCH
        own_window = view.window is not None and view.window == view.seat
        if CALL in legal and own_window:
            missed, rng = _roll(rng, self.forget_call)
            if not missed:
                return CALL
        if not mine or view.hand is None:
            return None
        plays = [m for m in legal if m < _STEP]
        if CALL in legal and plays and not own_window:
            missed, rng = _roll(rng, self.forget_call)
            if not missed:
                return CALL
        if CHALLENGE in legal and not plays:
            bold, _ = _roll(rng, 0.5)
            return CHALLENGE if bold else TAKE
        if not plays:
            for move in (TAKE, DRAW, KEEP, PASS):
                if move in legal:
                    return move
            return legal[0]
        names: list[int] = []
        for m in plays:
            if not names or names[-1] != m // 5:
                names.append(m // 5)
        coloured = [n for n in names if NAME_COLOUR[n] < 4]
        wilds = [n for n in names if NAME_COLOUR[n] == 4]
        pool = coloured
        if wilds and coloured:
            early, rng = _roll(rng, self.early_wild)
            if early:
                pool = wilds
        elif not coloured:
            pool = wilds
        i, rng = rng.randbelow(len(pool))
        name = pool[i]
        slots = [m for m in plays if m // 5 == name]
        if len(slots) == 1:
            return Move(slots[0])
        odd, rng = _roll(rng, self.random_colour)
        if odd:
            j, _ = rng.randbelow(len(slots))
            return Move(slots[j])
        card = next(c for c in view.hand if NAMEIX[c] == name)
        return Move(name * 5 + greedy_colour(view.hand, card))
