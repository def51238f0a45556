"""Kartu Terakhir's guide for newcomers (``GamePlugin.lessons``, :mod:`meja.rules.lessons`).

Each step is a position laid out with :meth:`KartuTerakhirGame.stacked` (three seats,
the learner at seat 0 on turn); the right answer is said in the engine's terms (a
play, a draw, a challenge, a call), and a refused card's words come from the state
(a penalty pending, or no play of that card). The words are in ``page/strings.js``
(``learn.*``).
"""

from __future__ import annotations

import functools
from typing import Any

from meja.rules.lessons import Guide, Lesson

from .rules import GAME, KartuTerakhirState, Kind

__all__ = ["guide"]

_STOCK = "B9 Y1 G2 R3 R1 R2 G5 G6 G8 Y5 Y6"
_OTHERS = ("R5 G1 B2 Y3", "G3 G4 B6 R4")


def _state(hand: str, **kw: Any) -> KartuTerakhirState:
    kw.setdefault("discard", "B7 R7")
    return GAME.stacked(hands=[hand, *_OTHERS], stock=_STOCK, **kw)


def _kind(kind: Kind) -> Any:
    return lambda state, action: action.kind == kind


def _card_refusal(state: KartuTerakhirState, seat: int, card: str) -> str | None:
    # The engine lists no play of this card: with a penalty pending no card answers it (stacking is
    # off), otherwise the card matches neither the colour nor the symbol (3.3.1-3.3.2).
    return "learn.why.pending" if state.pending else "learn.why.no_match"


def _refusal(state: KartuTerakhirState, seat: int, action: Any) -> str | None:
    if action.kind == Kind.PLAY and action.card is not None:
        return _card_refusal(state, seat, action.card)
    return None


@functools.cache
def guide() -> Guide:
    """The steps: match the top card, a Wild, draw, a Wild Draw Four's challenge, Last card."""
    steps = (
        Lesson("match", _state("Y2 G7 B4 R9"), 0, _kind(Kind.PLAY)),
        Lesson("wild", _state("W B4 Y9 G2"), 0, _kind(Kind.PLAY)),
        Lesson("draw", _state("B4 Y9 G2"), 0, _kind(Kind.DRAW)),
        # Seat 2 played the Wild Draw Four while it held a red card (R4): a bluff, so the challenge wins.
        Lesson("challenge", _state("B4 Y9 G2", discard="R7 WD4", colour="B", pending=4), 0, _kind(Kind.CHALLENGE)),
        # Playing first is allowed (a call right after it counts), but drawing is another matter:
        # it leaves three cards, nothing to call (a new user was told "one card left" after a draw).
        Lesson(
            "last_card",
            _state("R4 B9"),
            0,
            _kind(Kind.CALL),
            other=lambda state, action: "learn.last_card.draw" if action.kind == Kind.DRAW else None,
        ),
    )
    return Guide(steps=steps, refusal=_refusal, card_refusal=_card_refusal)
