"""What a seat knows, as every game's searching bot sees it: an information state that can be resampled.

The model is OpenSpiel's information state and ``ResampleFromInfostate``: a game
folds what one seat has seen (its view and the events delivered to it) into an
:class:`InfoState`, and :meth:`InfoState.sample` draws a full world consistent
with it: the other hands, the stock, whatever the seat cannot see. The shared
search (:mod:`meja.bots.search`) compares candidates on such worlds.

Where the game says some consistent worlds are less likely than others (an
opponent who would have played otherwise in them; a bid that says a lot about a
hand), it weights them: :func:`weighted_draw` keeps a drawn world with
probability ``eps ** surprise`` (a soft opponent model: a person who plays
otherwise only blunts the inference, never makes a world impossible), and after
``tries`` draws keeps the least surprising one. The count of draws is returned,
so that the search can charge for them (:meth:`meja.bots.search.SearchGame.world_cost`).

Each game keeps the reading itself (which event says what about which hand) in
its own ``bots/infoset.py``: what a pass, a draw, a shown hand or a call reveals
is the game's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, TypeVar

__all__ = ["InfoState", "weighted_draw"]

W_co = TypeVar("W_co", covariant=True)
D = TypeVar("D")


class InfoState(Protocol[W_co]):
    """One seat's knowledge of what it cannot see, able to deal worlds consistent with it."""

    def sample(self, rnd: random.Random) -> W_co:
        """A world consistent with what the seat saw, every consistent world possible."""
        ...


def weighted_draw(
    draw: Callable[[random.Random], D],
    surprise: Callable[[D], int] | None,
    rnd: random.Random,
    eps: float,
    tries: int,
) -> tuple[D, int]:
    """A draw kept with probability ``eps ** surprise(draw)``, else drawn again; after ``tries`` draws,
    the least surprising (the first of those). Returns it and the number of draws.

    ``surprise`` counts what the draw makes unlikely (0: nothing; the game decides, e.g. how many
    of the other seats' past choices its model would not have made there); ``None``: nothing to
    weigh, the first draw is kept. Chance comes from ``rnd`` only: one ``random()`` per surprising draw.
    """
    best: D | None = None
    best_m = 1 << 30
    t = 0
    while t < tries:
        t += 1
        drawn = draw(rnd)
        if surprise is None:
            return drawn, t
        m = surprise(drawn)
        if m == 0 or rnd.random() < eps**m:
            return drawn, t
        if m < best_m:
            best, best_m = drawn, m
    assert best is not None
    return best, t
