"""The frozen yardsticks of docs/bots.md for Kartu Terakhir: ``random-any``, ``random`` and ``greedy``.

They measure the levels (``meja bench bots --game kartu_terakhir``), so they must
not drift: they are versioned with the rules (:data:`YARDSTICK_VERSION`, bumped
only with a rules change that changes what they can do), and
``tests/games/kartu_terakhir/test_kt_bots.py`` pins a digest of their decisions on
fixed deals. Change one and that test fails: bump the version and say why.

- **random-any** (:class:`meja.bots.base.RandomAnyBot`): uniform over every legal
  action, voluntary draws, calls and catches included. A floor.
- **random**: a uniformly random playable card (each card name once; a Wild's
  colour at random); a drawn card that plays is played; draws only with nothing
  to play; facing a challengeable Wild Draw Four, challenge or take at even odds;
  with stacking, a random answer or take. Out of turn: calls when its own catch
  window is open, catches whenever it can; never calls before playing.
- **greedy**: the seed's tips (docs/rules/kartu-terakhir.md 3.9.6) done simply, see
  :func:`.common.greedy_turn`: keep Wilds, shed expensive cards and actions
  first, hurt a near-out next seat, change the colour away from a near-out
  opponent, call "last card" on its own turn at 2 cards before playing, catch
  whenever it can. Challenge policy (3.5.6): challenge when the Wild Draw Four's
  player's previous play was a card of the colour in force before it; otherwise
  challenge with probability 1/4 (the rng it is given).

Each uses only the RNG it is given.
"""

from __future__ import annotations

from typing import Final

from meja.bots.base import RandomAnyBot
from meja.rules.rng import Rng

from ..rules import KartuTerakhirView, Move, Phase
from .common import (
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    KEEP,
    PASS,
    READY,
    TAKE,
    History,
    avoid_colour,
    greedy_turn,
    reflex,
    wd4_prior,
)

__all__ = ["CHALLENGE_ODDS", "YARDSTICK_VERSION", "GreedyBot", "RandomAnyBot", "RandomCardBot", "greedy_choice"]

#: Version of the yardsticks' behaviour, tied to the rules they play.
YARDSTICK_VERSION: Final = 1
#: greedy's chance of challenging a Wild Draw Four with no sign of a bluff (3.5.6)
CHALLENGE_ODDS: Final = 0.25
_SCALE: Final = 1 << 20


def _between(view: KartuTerakhirView) -> Move | None:
    """Between rounds, or with nothing legal: ready, or nothing."""
    if not view.legal:
        return None
    if view.phase >= Phase.ROUND_OVER:
        return READY if READY in view.legal else view.legal[0]
    return None


class RandomCardBot:
    """``random``: see the module docstring."""

    name = "random"
    needs_history = False
    blocking = False

    def choose(self, view: KartuTerakhirView, history: History, rng: Rng) -> Move | None:
        done = _between(view)
        if done is not None or not view.legal:
            return done
        legal = view.legal
        if CATCH in legal:
            return CATCH
        if CALL in legal and view.window is not None and view.window == view.seat:
            return CALL
        if view.seat != view.turn or view.phase != Phase.PLAY:
            return None
        names: list[int] = []
        for m in legal:
            if m < int(DRAW) and (not names or names[-1] != m // 5):
                names.append(m // 5)
        if CHALLENGE in legal and not names:
            roll, _ = rng.randbelow(2)
            return CHALLENGE if roll else TAKE
        if view.pending and names:
            options: list[Move] = [Move(m) for m in legal if m < int(DRAW)] + ([TAKE] if TAKE in legal else [])
            pick, _ = rng.choice(options)
            return pick
        if names:
            i, rng = rng.randbelow(len(names))
            name = names[i]
            slots = [m for m in legal if m < int(DRAW) and m // 5 == name]
            if len(slots) == 1:
                return Move(slots[0])
            j, _ = rng.randbelow(len(slots))
            return Move(slots[j])
        for move in (TAKE, DRAW, KEEP, PASS):
            if move in legal:
                return move
        return legal[0]


class GreedyBot:
    """``greedy``: the strength yardstick (see the module docstring)."""

    name = "greedy"
    needs_history = True
    blocking = False

    def choose(self, view: KartuTerakhirView, history: History, rng: Rng) -> Move | None:
        return greedy_choice(view, history, rng)


def challenge_policy(view: KartuTerakhirView, history: History, rng: Rng, odds: float = CHALLENGE_ODDS) -> bool:
    """3.5.6: challenge if the Wild Draw Four's player's previous play was a card of the colour in
    force before it; otherwise with probability ``odds``."""
    _, prior, previous = wd4_prior(history)
    if prior >= 0 and previous == prior:
        return True
    roll, _ = rng.randbelow(_SCALE)
    return roll < odds * _SCALE


def greedy_choice(view: KartuTerakhirView, history: History, rng: Rng) -> Move | None:
    """The greedy action for a view (also the ``normal`` level's)."""
    done = _between(view)
    if done is not None or not view.legal:
        return done
    quick = reflex(view)
    if quick is not None:
        return quick
    if view.seat != view.turn or view.phase != Phase.PLAY or view.seat is None or view.hand is None:
        return None
    legal = view.legal
    if CHALLENGE in legal and not any(m < int(DRAW) for m in legal):
        return CHALLENGE if challenge_policy(view, history, rng) else TAKE
    me = view.seat
    avoid = avoid_colour(history, view.seats, me, view.direction, view.hand_counts)
    return greedy_turn(view.hand, legal, view.seats, me, view.direction, view.hand_counts, avoid)
