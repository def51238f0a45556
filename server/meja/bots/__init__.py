"""Bots for Crazy Eights: three levels for players, three frozen yardsticks to measure them.

(Placeholder docstring: replaced with the measured table once measured.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..rules.crazy_eights import CrazyEightsState
from ..rules.rng import Rng
from .base import Bot, History
from .casual import CasualBot
from .search import SearchBot
from .yardsticks import YARDSTICK_VERSION, GreedyBot, RandomAnyBot, RandomCardBot, greedy_choice

__all__ = [
    "LEVELS",
    "YARDSTICKS",
    "YARDSTICK_VERSION",
    "Bot",
    "History",
    "NormalBot",
    "decision_rng",
    "get_bot",
    "make_bot",
    "names",
]


class NormalBot(GreedyBot):
    """The ``normal`` level: today the greedy yardstick's policy (bots.md: the seed's tips done right).

    A separate class so that ``normal`` may improve while ``greedy`` stays frozen.
    """

    name = "normal"

    def choose(self, view: Any, history: History, rng: Any) -> Any:
        return greedy_choice(view)


LEVELS: Final = ("easy", "normal", "hard")
YARDSTICKS: Final = ("random-any", "random-card", "greedy")

_FACTORIES: Final[dict[str, Callable[..., Bot]]] = {
    "easy": CasualBot,
    "normal": NormalBot,
    "hard": SearchBot,
    "random-any": RandomAnyBot,
    "random-card": RandomCardBot,
    "greedy": GreedyBot,
}


def names() -> tuple[str, ...]:
    """Every bot name: the levels, then the yardsticks."""
    return LEVELS + YARDSTICKS


def make_bot(name: str, **params: Any) -> Bot:
    """A bot by name with parameters (``make_bot("hard", playouts=400)``); for tuning and tests."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {list(names())}") from None
    return factory(**params)


def get_bot(name: str) -> Bot:
    """The bot called ``name`` (a level or a yardstick), as the server seats it."""
    return make_bot(name)


def decision_rng(state: CrazyEightsState, seat: int) -> Rng:
    """The rng for ``seat``'s decision now: unique to (round, seat, version), as the server passes it.

    Kept here so that the server, the benchmark and the tests derive it the same way.
    """
    return state.bot_rng(seat).derive(f"decision/{state.version}")
