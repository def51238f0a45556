"""Bots for Crazy Eights: three levels for players, three frozen yardsticks to measure them.

Bots fill every empty seat, so for many players the bots are the game.

The interface (what the server calls)
-------------------------------------
``get_bot(name).choose(view, history, rng) -> Move``, where ``view`` is
``state.view(seat)`` (``view.legal`` lists the legal actions), ``history`` the
wire dicts (``Event.to_wire()``) of the events this seat saw since the current
round started (``round_start`` and its own ``hand`` first), and ``rng`` is
:func:`decision_rng` ``(state, seat)``, unique to (round, seat, decision). A bot
is a pure function of those three: it keeps no memory between calls (any
process may ask), never sees more than the seat may, and returns the same
action for the same inputs, so two people playing one deal code against bots
meet the same bot decisions for the same moves (crazy-eights.md 1.9.3).
Names: :data:`LEVELS` for players, :data:`YARDSTICKS` for measuring.

The levels (each a different kind of player, not one search with fewer playouts)
-------------------------------------------------------------------------------
``easy`` (:mod:`meja.bots.casual`)
    A casual player: follows suit or rank with whatever card comes to hand,
    plays an 8 early three times in ten, calls a random suit half the time.
``normal`` (:class:`NormalBot`)
    The greedy yardstick of bots.md, the seed's tips done right: keep 8s until
    nothing else plays, play the suit you hold most of, shed high cards first on
    ties, call your longest suit, never draw by choice.
``hard`` (:mod:`meja.bots.search`)
    A search: worlds sampled consistently with what the seat has seen (the pile,
    voids from passes, an opponent model that finds worlds where the others
    would have played as they did), every candidate compared on the same worlds
    (common random numbers) by greedy playouts to the end of the round, penalty
    margin as reward, no voluntary draws, a fixed work budget (about 40-75 ms of
    CPU here) and a CPU deadline as a safety cap. It blocks its thread while it
    thinks, so a server runs it off the event loop.

The yardsticks (:mod:`meja.bots.yardsticks`, frozen, ``YARDSTICK_VERSION``)
----------------------------------------------------------------------------
``random-any`` (uniform over legal actions), ``random-card`` (a random playable
card), ``greedy`` (as ``normal``, frozen).

How they were measured
----------------------
``meja bench bots`` (:mod:`meja.bench.bots`): duplicate deals (each deal played
with the measured bot in every seat and the yardstick in the others), one
round a game, 95% confidence intervals over deals, on the ``heldout`` seed set
(tuning used ``dev``). The table, on this project's 2-core machine:

MEASURED_TABLE

Determinism and the deadline
----------------------------
``easy``, ``normal`` and the yardsticks are deterministic functions of their
inputs. ``hard`` counts its work instead of timing it (see :mod:`meja.bots.search`):
same inputs, same action, on any machine, unless its CPU deadline (75 ms of the
calling thread's CPU time) cuts a search short, which happens only when the
machine is slow or heavily loaded: then that one decision may differ from an
unhurried one. ``make_bot("hard", deadline=None)`` is strictly deterministic.
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
