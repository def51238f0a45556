"""The bot interface and the conversions between engine values and the bots' ints.

A bot is a policy: ``choose(view, history, rng) -> Move``, a pure function of
what one seat has seen (:class:`~meja.rules.crazy_eights.CrazyEightsView`, whose
``legal`` lists the legal actions, and the wire dicts of the events the seat saw
this round) and an :class:`~meja.rules.rng.Rng` that the server derives per
(round, seat, decision). A bot keeps no memory between calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..rules.cards import CARDS, Suit
from ..rules.crazy_eights import DRAW, PASS, READY, CrazyEightsView, Kind, Move
from ..rules.rng import Rng

__all__ = [
    "Bot",
    "History",
    "fallback",
    "hand_mask",
    "move_of",
    "playable_mask",
]

History = Sequence[Mapping[str, Any]]


@runtime_checkable
class Bot(Protocol):
    """A Crazy Eights policy over one seat's information (see the module docstring).

    ``choose`` is called only for a seat the game awaits (``view.legal`` is not
    empty) and returns one of ``view.legal``.
    """

    name: str
    #: whether ``choose`` reads ``history`` (a server reads the round's log only for bots that do)
    needs_history: bool
    #: whether ``choose`` takes long enough (a search) to be run off a server's event loop
    blocking: bool

    def choose(self, view: CrazyEightsView, history: History, rng: Rng) -> Move: ...


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
