"""The ``easy`` and ``normal`` levels of Eighty-Three: two players of different care, both quick.

``normal`` (:class:`NormalBot`)
    Bids from the hand-points estimate of the yardstick (:func:`.yardstick.estimate`)
    plus ``kitty`` points for the five kitty cards it will take, never raising
    its partner's bid unless its own estimate is ``partner_gap`` higher; names
    the suit with the best estimate; auto-arranges; and plays the cooperative
    policy of :mod:`.sim` with what its seat saw in the history (the cards
    played and shown), so it knows when a trump is the highest still out.
``easy`` (:class:`EasyBot`)
    A casual player: bids on its estimate give or take ``noise`` points, names
    its best suit, auto-arranges, and plays a uniformly random legal card
    ``wild`` of the time, the yardstick's card otherwise.

Both are deterministic for a given view, history and rng.
"""

from __future__ import annotations

import random
from typing import Any

from meja.bots.base import History
from meja.rules.rng import Rng

from ..rules import Action, Kind
from .common import AUTO, PASS, READY, cards_of, read_seen
from .sim import play_policy
from .yardstick import YardstickBot, best_suit, estimate

__all__ = ["EasyBot", "NormalBot"]


class NormalBot:
    """The ``normal`` level (see the module docstring)."""

    name = "normal"
    needs_history = True
    blocking = False

    def __init__(self, kitty: float = 22.0, partner_gap: float = 10.0, name: str = "normal") -> None:
        self.kitty = kitty
        self.partner_gap = partner_gap
        self.name = name

    def choose(self, view: Any, history: History, rng: Rng) -> Action | None:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            return None
        phase = view.data["phase"]
        if phase in ("discard", "trim"):
            return AUTO
        if phase not in ("auction", "trump", "play"):
            return READY if READY in legal else legal[0]
        if len(legal) == 1:
            return legal[0]
        seen = read_seen(view, history)
        if phase == "auction":
            bids = [a for a in legal if a.kind == Kind.BID]
            if PASS not in legal:
                return bids[0]
            if not bids:
                return PASS
            value = max(estimate(seen.hand, s) for s in range(4)) + self.kitty
            high_seat = next((s for s, b in reversed(seen.calls) if b), -1)
            if high_seat == seen.partner:
                passed = {s for s, b in seen.calls if not b}
                if {(seen.seat + 1) % 4, (seen.seat + 3) % 4} <= passed:
                    return PASS  # the partner has the contract and no opponent can take it
                value -= self.partner_gap
            return bids[0] if bids[0].arg <= value else PASS
        if phase == "trump":
            return Action.trump(best_suit(seen.hand))
        cards = [a.arg for a in legal]
        card = play_policy(seen.hand, cards, seen.trick, seen.seat, seen.trump, seen.gone())
        return Action.card(Kind.PLAY, card)


class EasyBot:
    """The ``easy`` level (see the module docstring)."""

    name = "easy"
    needs_history = False
    blocking = False

    def __init__(self, noise: float = 12.0, wild: float = 0.4, name: str = "easy") -> None:
        self.noise = noise
        self.wild = wild
        self.name = name
        self._plain = YardstickBot()

    def choose(self, view: Any, history: History, rng: Rng) -> Action | None:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            return None
        phase = view.data["phase"]
        seed, _ = rng.bits(64)
        rnd = random.Random(seed)
        if phase == "auction" and PASS in legal:
            bids = [a for a in legal if a.kind == Kind.BID]
            mine = cards_of(view.data.get("hand"))
            value = max(estimate(mine, s) for s in range(4)) + (rnd.random() * 2 - 1) * self.noise
            return bids[0] if bids and bids[0].arg <= value else PASS
        if phase == "play" and len(legal) > 1 and rnd.random() < self.wild:
            return legal[int(rnd.random() * len(legal))]
        return self._plain.choose(view, history, rng)
