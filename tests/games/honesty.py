"""What the honesty tests of every game's bots share: the cards a seat cannot see, moved.

A bot must choose from its seat's view alone: with the other hands and the
stock permuted among those places (every count kept), the seat's view is the
same, and so must its choice be.
"""

from __future__ import annotations

import random
from typing import Any


def permuted(state: Any, seat: int, rnd: random.Random) -> dict[str, Any]:
    """``state.to_data()`` with the cards ``seat`` cannot see (the other seats' ``hands`` and the
    ``stock``) shuffled among those places, each hand sorted (a game's record may need more fixing)."""
    data = state.to_data()
    places = [s for s in range(state.seats) if s != seat]
    hidden = [c for s in places for c in data["hands"][s]] + list(data["stock"])
    rnd.shuffle(hidden)
    i = 0
    for s in places:
        k = len(data["hands"][s])
        data["hands"][s] = sorted(hidden[i : i + k])
        i += k
    data["stock"] = hidden[i:]
    return data
