"""How ``meja demo`` tells a round of Kartu Terakhir (:class:`meja.games.plugin.Narration`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .rules import COLOUR_WORDS, COLOURS, KartuTerakhirState, card_name, describe

__all__ = ["LINES", "opening"]

_WHY: Final = {
    "draw": "draws",
    "penalty": "takes the penalty:",
    "catch": "is caught and draws",
    "challenge": "loses the challenge and draws",
}


def opening(state: KartuTerakhirState) -> list[str]:
    lines = [f"  seat {seat}: {' '.join(card_name(c) for c in hand)}" for seat, hand in enumerate(state.hands)]
    return [*lines, f"  starter {card_name(state.top)}; seat {state.turn} plays first"]


def _play(d: dict[str, Any], state: Any) -> str:
    card = str(d["card"])
    colour = d.get("colour")
    named = f", naming {COLOUR_WORDS[COLOURS.index(str(colour))]}" if card.startswith("W") and colour in COLOURS else ""
    drawn = " (the card just drawn)" if d.get("drawn") else ""
    return f"seat {d['seat']} plays {describe(card)}{named}{drawn}"


#: What ``meja demo`` says of each public event.
LINES: Final[dict[str, str | Callable[[dict[str, Any], Any], str]]] = {
    "play": _play,
    "draw": lambda d, state: f"seat {d['seat']} {_WHY.get(str(d.get('reason')), 'draws')} {d['count']}",
    "keep": "seat {seat} keeps the drawn card",
    "pass": "seat {seat} passes",
    "call": 'seat {seat}: "Kartu terakhir!" ({when} playing)',
    "catch": "seat {seat} catches seat {target}",
    "challenge": "seat {seat} challenges seat {target}: {verdict}",
    "reverse": "   (the direction reverses)",
    "skip": "   (seat {seat} is skipped)",
    "reshuffle": "-- the discard pile is shuffled into a new stock ({moved} cards) --",
    "round_over": "seat {winner} goes out and scores {points}. Deal code {deal_code}",
}
