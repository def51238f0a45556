"""How ``meja demo`` tells a hand of Eighty-Three (:class:`meja.games.plugin.Narration`): every hand
at the deal, with the kitty, and again when the tricks start."""

from __future__ import annotations

from typing import Any

from meja.rules import Event

from .rules import NAMES, EightyThreeState

__all__ = ["opening", "say"]

_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _hands(state: EightyThreeState) -> list[str]:
    return [
        f"  seat {seat} (team {seat % 2}): {' '.join(NAMES[c] for c in hand)}" for seat, hand in enumerate(state.hands)
    ]


def opening(state: EightyThreeState) -> list[str]:
    teams = f"  seat {state.dealer} deals; seats 0 and 2 play seats 1 and 3"
    return [teams, *_hands(state), f"  kitty: {' '.join(NAMES[c] for c in state.kitty)}"]


def say(event: Event, state: Any) -> str | None:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "bid":
        return f"seat {d['seat']} bids {d['value']}"
    if kind == "pass":
        return f"seat {d['seat']} passes"
    if kind == "contract":
        return f"seat {d['bidder']} wins the auction at {d['bid']} and takes the kitty"
    if kind == "trump":
        return f"seat {d['seat']} names {_SUITS[d['suit']]}"
    if kind == "exchange":
        shown = ", ".join(f"seat {x['seat']} {x['card']}" for x in d["shown"]) or "none"
        start = "\n".join(["the tricks start with:", *_hands(state)])
        return f"trumps passed to partners: {d['passed']}; trumps shed face up: {shown}\n{start}"
    if kind == "trick":
        cards = " ".join(f"{x['seat']}:{x['card']}" for x in d["cards"])
        return f"trick {d['number']}: {cards} -> seat {d['winner']} (team {d['team']}) takes {d['points']} points"
    if kind == "hand_over":
        made = "made" if d["made"] else "missed"
        return (
            f"hand over: seat {d['bidder']} {made} {d['bid']}; captured {d['captured']}, scores {d['delta']}"
            f" -> totals {d['scores']}. Deal code {d['deal_code']}"
        )
    return None
