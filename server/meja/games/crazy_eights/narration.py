"""How ``meja demo`` tells a round of Crazy Eights (:class:`meja.games.plugin.Narration`)."""

from __future__ import annotations

from typing import Any

from meja.rules import Card, Event, Suit

from .rules import CrazyEightsState

__all__ = ["opening", "say"]


def opening(state: CrazyEightsState) -> list[str]:
    lines = [f"  seat {seat}: {' '.join(str(c) for c in hand)}" for seat, hand in enumerate(state.hands)]
    return [*lines, f"  starter {state.top.name}; seat {state.turn} leads"]


def say(event: Event, state: Any) -> str | None:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "play":
        text = f"seat {d['seat']} plays {Card.parse(d['card']).name}"
        if "suit" in d:
            text += f" and names {Suit.parse(d['suit']).word.lower()}"
        return text
    if kind == "draw":
        return f"seat {d['seat']} draws ({d['draws_left']} left)"
    if kind == "pass":
        return f"seat {d['seat']} passes"
    if kind == "reshuffle":
        return f"-- the discard pile is reshuffled into the stock ({d['moved']} cards) --"
    if kind == "suit":
        return f"seat {d['seat']} names {Suit.parse(d['suit']).word.lower()}"
    if kind == "round_over":
        penalties = ", ".join(f"seat {s}: {p}" for s, p in enumerate(d["penalties"]))
        return f"seat {d['winner']} goes out. Penalty points: {penalties}. Deal code {d['deal_code']}"
    return None
