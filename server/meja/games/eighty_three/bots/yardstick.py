"""The frozen yardstick of Eighty-Three (``yardstick``, :data:`YARDSTICK_VERSION`): what levels are measured by.

Frozen: do not change its play. A change of the rules that changes what it
does bumps :data:`YARDSTICK_VERSION`, and the published figures are measured
again.

It reads only its view (no history) and is deterministic (it draws nothing).

- **Hand-points estimate** of a hand for trump suit ``s`` (:func:`estimate`)::

      estimate(s) = 10 + sum over the hand's trumps under s of (rank value + points / 2)

  with rank value A 10, K 8, Q 6, J 4, and 2 for every other trump (10 down to
  the joker), and ``points`` the card's value in the rules' point table (4.4).
  Example: A K 10 9 and the joker of trumps: 10 + (10 + 0.5) + (8 + 15) +
  (2 + 5) + (2 + 4.5) + (2 + 9) = 68.
- **Auction**: with ``E`` the best estimate over the four suits, it bids the
  lowest legal bid if that is at most ``E``, else passes; a forced dealer
  (4.5.5) bids the lowest legal bid.
- **Trumps**: the suit with the best estimate of the 17 cards (ties: S H D C order).
- **Discard phase**: ``auto_arrange`` (4.10.6), in the trim too.
- **Tricks**: the highest trump that wins the trick if it holds one (leading,
  any trump wins the empty trick), else its lowest card: plain cards before
  trumps, then the lowest in power (so its lowest trump is the joker).
- Between hands: ``ready``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from meja.bots.base import History
from meja.rules.rng import Rng

from ..rules import Action, Kind
from .common import AUTO, ESUIT, PASS, PLAIN, POINTS, POWER, READY, cards_of, trick_winner

__all__ = ["YARDSTICK_VERSION", "YardstickBot", "best_suit", "estimate", "yardstick_card"]

YARDSTICK_VERSION: Final = 1
#: The rank value of a trump in the estimate, by POWER (15 the A, 14 the K, 13 the Q, 12 the J).
RANK_VALUE: Final = {15: 10.0, 14: 8.0, 13: 6.0, 12: 4.0}
OTHER_TRUMP: Final = 2.0
BASE: Final = 10.0


def estimate(hand: Sequence[int], trump: int) -> float:
    """The hand-points estimate of ``hand`` with ``trump`` named (the formula in the module docstring)."""
    es, pw, pts = ESUIT[trump], POWER[trump], POINTS[trump]
    total = BASE
    for c in hand:
        if es[c] == PLAIN:
            total += RANK_VALUE.get(pw[c], OTHER_TRUMP) + pts[c] / 2
    return total


def best_suit(hand: Sequence[int]) -> int:
    """The trump suit with the best estimate (ties: the first of S H D C)."""
    return max(range(4), key=lambda s: (estimate(hand, s), -s))


def yardstick_card(cards: Sequence[int], trick: Sequence[tuple[int, int]], seat: int, trump: int) -> int:
    """The card the yardstick plays from the legal ``cards``: the highest trump that wins ``trick``, else its lowest."""
    es, pw = ESUIT[trump], POWER[trump]
    winning = [c for c in cards if es[c] == PLAIN and trick_winner((*trick, (seat, c)), trump) == seat]
    if winning:
        return max(winning, key=lambda c: pw[c])
    return min(cards, key=lambda c: (es[c] == PLAIN, pw[c], c))


class YardstickBot:
    """The frozen yardstick (see the module docstring)."""

    name = "yardstick"
    needs_history = False
    blocking = False

    def choose(self, view: Any, history: History, rng: Rng) -> Action | None:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            return None
        d = view.data
        phase = d["phase"]
        hand = cards_of(d.get("hand"))
        if phase == "auction":
            bids = [a for a in legal if a.kind == Kind.BID]
            if PASS not in legal:
                return bids[0]
            best = max(estimate(hand, s) for s in range(4))
            return bids[0] if bids and bids[0].arg <= best else PASS
        if phase == "trump":
            return Action.trump(best_suit(hand))
        if phase in ("discard", "trim"):
            return AUTO
        if phase == "play":
            trump = "SHDC".index(d["trump"])
            trick = [(x["seat"], cards_of([x["card"]])[0]) for x in d["trick"]]
            cards = [a.arg for a in legal if a.kind == Kind.PLAY]
            return Action.card(Kind.PLAY, yardstick_card(cards, trick, d["seat"], trump))
        return READY if READY in legal else legal[0]
