"""How ``meja demo`` tells a hand of Eighty-Three (:class:`meja.games.plugin.Narration`): every hand
at the deal, with the kitty, and again when the tricks start."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .rules import NAMES, EightyThreeState

__all__ = ["LINES", "opening"]

_SUITS: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _hands(state: EightyThreeState) -> list[str]:
    return [
        f"  seat {seat} (team {seat % 2}): {' '.join(NAMES[c] for c in hand)}" for seat, hand in enumerate(state.hands)
    ]


def opening(state: EightyThreeState) -> list[str]:
    teams = f"  seat {state.dealer} deals; seats 0 and 2 play seats 1 and 3"
    return [teams, *_hands(state), f"  kitty: {' '.join(NAMES[c] for c in state.kitty)}"]


def _exchange(d: dict[str, Any], state: Any) -> str:
    shown = ", ".join(f"seat {x['seat']} {x['card']}" for x in d["shown"]) or "none"
    start = "\n".join(["the tricks start with:", *_hands(state)])
    return f"trumps passed to partners: {d['passed']}; trumps shed face up: {shown}\n{start}"


def _trick(d: dict[str, Any], state: Any) -> str:
    cards = " ".join(f"{x['seat']}:{x['card']}" for x in d["cards"])
    return f"trick {d['number']}: {cards} -> seat {d['winner']} (team {d['team']}) takes {d['points']} points"


def _over(d: dict[str, Any], state: Any) -> str:
    made = "made" if d["made"] else "missed"
    return (
        f"hand over: seat {d['bidder']} {made} {d['bid']}; captured {d['captured']}, scores {d['delta']}"
        f" -> totals {d['scores']}. Deal code {d['deal_code']}"
    )


#: What ``meja demo`` says of each public event.
LINES: Final[dict[str, str | Callable[[dict[str, Any], Any], str]]] = {
    "bid": "seat {seat} bids {value}",
    "pass": "seat {seat} passes",
    "contract": "seat {bidder} wins the auction at {bid} and takes the kitty",
    "trump": lambda d, state: f"seat {d['seat']} names {_SUITS[d['suit']]}",
    "exchange": _exchange,
    "trick": _trick,
    "hand_over": _over,
}
