"""How ``meja demo`` tells a round of Kartu Terakhir (:class:`meja.games.plugin.Narration`)."""

from __future__ import annotations

from typing import Any

from meja.rules.game import Event

from .rules import COLOUR_WORDS, COLOURS, KartuTerakhirState, card_name, describe

__all__ = ["opening", "say"]

_WHY = {
    "draw": "draws",
    "penalty": "takes the penalty:",
    "catch": "is caught and draws",
    "challenge": "loses the challenge and draws",
}


def _colour(letter: object) -> str:
    return COLOUR_WORDS[COLOURS.index(str(letter))] if letter in COLOURS else str(letter)


def opening(state: KartuTerakhirState) -> list[str]:
    lines = [f"  seat {seat}: {' '.join(card_name(c) for c in hand)}" for seat, hand in enumerate(state.hands)]
    return [*lines, f"  starter {card_name(state.top)}; seat {state.turn} plays first"]


def say(event: Event, state: Any) -> str | None:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "play":
        text = f"seat {d['seat']} plays {describe(str(d['card']))}"
        if str(d["card"]).startswith("W"):
            text += f", naming {_colour(d['colour'])}"
        return text + (" (the card just drawn)" if d.get("drawn") else "")
    if kind == "draw":
        return f"seat {d['seat']} {_WHY.get(str(d.get('reason')), 'draws')} {d['count']}"
    if kind == "keep":
        return f"seat {d['seat']} keeps the drawn card"
    if kind == "pass":
        return f"seat {d['seat']} passes"
    if kind == "call":
        return f'seat {d["seat"]}: "Kartu terakhir!" ({d["when"]} playing)'
    if kind == "catch":
        return f"seat {d['seat']} catches seat {d['target']}"
    if kind == "challenge":
        return f"seat {d['seat']} challenges seat {d['target']}: {d['verdict']}"
    if kind == "reverse":
        return "   (the direction reverses)"
    if kind == "skip":
        return f"   (seat {d['seat']} is skipped)"
    if kind == "reshuffle":
        return f"-- the discard pile is shuffled into a new stock ({d['moved']} cards) --"
    if kind == "round_over":
        return f"seat {d['winner']} goes out and scores {d['points']}. Deal code {d['deal_code']}"
    return None
