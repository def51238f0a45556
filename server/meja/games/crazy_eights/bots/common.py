"""Conversions between the Crazy Eights engine's values and the bots' ints.

The bot interface itself is :mod:`meja.bots.base` (shared by every game); these
helpers turn a :class:`~meja.games.crazy_eights.rules.CrazyEightsView` into the
bitmasks of :mod:`.tables` and a simulator action back into an engine move.
"""

from __future__ import annotations

from meja.bots.base import History
from meja.rules.cards import CARDS, Suit

from ..rules import DRAW, PASS, READY, CrazyEightsView, Kind, Move

__all__ = [
    "History",
    "fallback",
    "hand_mask",
    "move_of",
    "playable_mask",
]


def hand_mask(view: CrazyEightsView) -> int:
    """The seat's hand as a bitmask of card ids."""
    m = 0
    for c in view.hand or ():
        m |= 1 << c
    return m


def playable_mask(view: CrazyEightsView) -> int:
    """The cards the seat may play now, from ``view.legal`` (so classic's drawn-card rule is kept)."""
    m = 0
    for a in view.legal:
        if a.kind == Kind.PLAY and a.card is not None:
            m |= 1 << a.card
    return m


def move_of(kind: int, card: int, suit: int) -> Move:
    """The engine's interned :class:`Move` for a simulator action ``(kind, card, suit)``."""
    if kind == Kind.PLAY:
        return Move.play(CARDS[card], None if suit < 0 else Suit(suit))
    if kind == Kind.SUIT:
        return Move.choose(Suit(suit))
    if kind == Kind.DRAW:
        return DRAW
    if kind == Kind.PASS:
        return PASS
    return READY


def fallback(view: CrazyEightsView) -> Move:
    """Draw, else pass, else the first legal action: what a policy does when it has no card to play."""
    legal = view.legal
    if DRAW in legal:
        return DRAW
    if PASS in legal:
        return PASS
    return legal[0]
