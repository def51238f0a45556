"""Crazy Eights' guide for newcomers (``GamePlugin.lessons``, :mod:`meja.rules.lessons`).

Each step is a position laid out with :meth:`CrazyEightsGame.stacked` (house rules,
two seats, the learner at seat 0 on turn); what counts as the right answer is said
in the engine's terms (a play, a play that names a suit: only an 8 does, a draw, a
pass), and a refusal's words come from the engine's own predicates
(``is_playable``, the view's ``draw_blocked`` and ``pass_blocked``). The words
themselves are in ``page/strings.js`` (``learn.*``).
"""

from __future__ import annotations

import functools
from typing import Any

from meja.rules.cards import Card
from meja.rules.lessons import Guide, Lesson

from .rules import GAME, CrazyEightsState, Kind, Move

__all__ = ["guide"]

_OPPONENT = "4S 5S 6S 9C 10C"


def _state(hand: str, *, stock: str = "9D JD 2C 3C", draws: int = 0) -> CrazyEightsState:
    return GAME.stacked("house", hands=[hand, _OPPONENT], discard="4D 7H", stock=stock, draws=draws)


def _kind(kind: Kind) -> Any:
    return lambda state, action: action.kind == kind


def _names_suit(state: CrazyEightsState, action: Move) -> bool:
    """An 8: the engine offers a play that names the next suit for an 8 alone (crazy-eights.md 1.3.3)."""
    return action.kind == Kind.PLAY and action.suit is not None


def _card_refusal(state: CrazyEightsState, seat: int, card: str) -> str | None:
    if not state.is_playable(Card.parse(card)):
        return "learn.why.no_match"
    return None


def _refusal(state: CrazyEightsState, seat: int, action: Any) -> str | None:
    view = state.view(seat).to_wire()
    if action.kind == Kind.DRAW and view["draw_blocked"] in ("draw_limit", "nothing_to_draw", "has_playable"):
        return f"reason.{view['draw_blocked']}"
    if action.kind == Kind.PASS:
        return "reason.has_playable" if view["pass_blocked"] == "has_playable" else "learn.why.must_draw"
    if action.kind == Kind.PLAY and action.card is not None:
        return _card_refusal(state, seat, str(action.card))
    return None


@functools.cache
def guide() -> Guide:
    """The steps: match the top card, an 8, draw, play what you drew, pass."""
    steps = (
        Lesson("match", _state("7S 3H KC 2D QH"), 0, _kind(Kind.PLAY)),
        Lesson("eight", _state("8C KS 2D 4C"), 0, _names_suit),
        Lesson("draw", _state("KS 2D 4C", stock="9H 5C 6C"), 0, _kind(Kind.DRAW)),
        Lesson("drawn", _state("KS 2D 4C 9H", stock="5C 6C", draws=1), 0, _kind(Kind.PLAY)),
        Lesson("pass", _state("KS 2D 4C 5C 6C JC", stock="JD 2C", draws=3), 0, _kind(Kind.PASS)),
    )
    return Guide(steps=steps, refusal=_refusal, card_refusal=_card_refusal)
