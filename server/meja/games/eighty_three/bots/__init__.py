"""Bots for Eighty-Three: three levels for players, a frozen yardstick to measure them, and random-any.

The interface is :mod:`meja.bots.base`: ``choose(view, history, rng)``, where
``view`` is ``state.view(seat)``, ``history`` the wire events the seat saw since
the hand began (``hand_start`` on) and ``rng`` :func:`meja.bots.base.decision_rng`.
Every bot reads only that: it knows its partner from its seat number (partners
sit opposite, 4.1.1), and nothing passes between partners but the table's own
events. In the discard and trim phases every bot takes ``auto_arrange`` (4.10.6).

Levels (:data:`LEVELS`)
-----------------------
``easy`` (:class:`.levels.EasyBot`)
    A casual player: bids its hand-points estimate give or take 12, plays the
    yardstick's card but a random legal card 40% of the time.
``normal`` (:class:`.levels.NormalBot`)
    Bids its estimate plus 22 for the kitty (not over its partner unless 10
    stronger, never once both opponents passed), and plays a cooperative policy (:mod:`.sim`): throws point cards
    on its partner's sure winner, never trumps it, wins tricks worth fighting
    for, leads the highest trump still out.
``hard`` (:class:`.search.SearchBot`)
    Bids from simulated outcomes of its hand, names trumps and plays by
    determinized search over worlds consistent with what its seat saw, every
    candidate on the same worlds; a CPU deadline caps a decision.

Yardsticks (:data:`YARDSTICKS`)
-------------------------------
``yardstick`` (:class:`.yardstick.YardstickBot`, frozen, ``YARDSTICK_VERSION``):
bids from a stated hand-points estimate, names the suit it holds best,
auto-arranges, plays the highest trump that wins the trick, else its lowest
card. ``random-any``: uniform over the legal actions (the floor).

Measured with ``meja bench bots --game eighty_three`` (see
:mod:`meja.games.eighty_three.bench_bots` for the held-out table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from meja.bots.base import Bot, RandomAnyBot

from .levels import EasyBot, NormalBot
from .search import SearchBot
from .yardstick import YARDSTICK_VERSION, YardstickBot

__all__ = ["LEVELS", "YARDSTICKS", "YARDSTICK_VERSION", "make_bot", "names"]

#: What a host chooses for empty seats, easiest first.
LEVELS: Final = ("easy", "normal", "hard")
#: Frozen bots to measure the levels against.
YARDSTICKS: Final = ("yardstick", "random-any")

_FACTORIES: Final[dict[str, Callable[..., Bot]]] = {
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": SearchBot,
    "yardstick": YardstickBot,
    "random-any": RandomAnyBot,
}


def names() -> tuple[str, ...]:
    """Every bot name: the levels, then the yardsticks."""
    return LEVELS + YARDSTICKS


def make_bot(name: str, **params: Any) -> Bot:
    """The bot called ``name``, with parameters for tuning and tests (``make_bot("hard", deadline=None)``)."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"eighty-three has no bot {name!r}; known: {list(names())}") from None
    return factory(**params)
