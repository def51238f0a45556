"""How ``meja demo`` tells a round of Crazy Eights (:class:`meja.games.plugin.Narration`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from meja.rules import Card, Suit

from .rules import CrazyEightsState

__all__ = ["LINES", "opening"]


def opening(state: CrazyEightsState) -> list[str]:
    lines = [f"  seat {seat}: {' '.join(str(c) for c in hand)}" for seat, hand in enumerate(state.hands)]
    return [*lines, f"  starter {state.top.name}; seat {state.turn} leads"]


def _suit(letter: str) -> str:
    return Suit.parse(letter).word.lower()


def _play(d: dict[str, Any], state: Any) -> str:
    named = f" and names {_suit(d['suit'])}" if "suit" in d else ""
    return f"seat {d['seat']} plays {Card.parse(d['card']).name}{named}"


def _over(d: dict[str, Any], state: Any) -> str:
    penalties = ", ".join(f"seat {s}: {p}" for s, p in enumerate(d["penalties"]))
    return f"seat {d['winner']} goes out. Penalty points: {penalties}. Deal code {d['deal_code']}"


#: What ``meja demo`` says of each public event.
LINES: Final[dict[str, str | Callable[[dict[str, Any], Any], str]]] = {
    "play": _play,
    "draw": "seat {seat} draws ({draws_left} left)",
    "pass": "seat {seat} passes",
    "reshuffle": "-- the discard pile is reshuffled into the stock ({moved} cards) --",
    "suit": lambda d, state: f"seat {d['seat']} names {_suit(d['suit'])}",
    "round_over": _over,
}
