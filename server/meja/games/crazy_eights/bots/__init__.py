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
meet the same bot decisions for the same moves (docs/rules/crazy-eights.md 1.9.3).
Names: :data:`LEVELS` for players, :data:`YARDSTICKS` for measuring.

The levels (each a different kind of player, not one search with fewer playouts)
-------------------------------------------------------------------------------
``easy`` (:mod:`.casual`)
    A casual player: follows suit or rank with whatever card comes to hand,
    plays an 8 early three times in ten, calls a random suit half the time.
``normal`` (:class:`NormalBot`)
    The greedy yardstick of docs/bots.md, the seed's tips done right: keep 8s until
    nothing else plays, play the suit you hold most of, shed high cards first on
    ties, call your longest suit, never draw by choice.
``hard`` (:mod:`.search`: Crazy Eights' hooks for the shared :mod:`meja.bots.search`, docs/bots.md 5)
    A search: worlds sampled consistently with what the seat has seen (the pile,
    voids from passes, an opponent model that finds worlds where the others
    would have played as they did), every candidate compared on the same worlds
    (common random numbers) by greedy playouts to the end of the round, penalty
    margin as reward, no voluntary draws, a fixed work budget (about 40-75 ms of
    CPU here) and a CPU deadline as a safety cap. It blocks its thread while it
    thinks, so a server runs it off the event loop.

The yardsticks (:mod:`.yardsticks`, frozen, ``YARDSTICK_VERSION``)
------------------------------------------------------------------
``random-any`` (uniform over legal actions), ``random-card`` (a random playable
card), ``greedy`` (as ``normal``, frozen).

How they were measured
----------------------
``meja bench bots`` (:mod:`meja.bench.bots`): duplicate deals (each deal played
with the measured bot in every seat and the yardstick in the others), one
round a game, 95% confidence intervals over deals, on the ``heldout`` seed set
(tuning used ``dev``). The table, on this project's 2-core machine:

Held out, 2026-11-30, ``house``, one round a game, ``--jobs 2`` (share: A's
round-win share with its 95% CI; margin: the others' mean penalty minus A's,
points per round; CPU: A's milliseconds per decision with more than one legal
action, p50 / p99 / max)::

    A vs B                  seats  deals  share [95% CI]       margin [95% CI]        CPU p50/p99/max
    hard vs greedy            2    1000   60.3% [58.4, 62.2]   +3.78 [+2.74, +4.81]   5.6 / 60.5 / 76.8
    hard vs greedy            3     700   39.0% [37.3, 40.8]   +1.68 [+0.97, +2.40]   0.02 / 76.0 / 79.8
    normal vs easy            2    2000   58.2% [56.8, 59.7]   +6.13 [+5.34, +6.92]
    normal vs easy            3    1000   39.7% [38.2, 41.3]   +4.47 [+3.82, +5.12]
    easy vs greedy            2    2000   41.8% [40.3, 43.2]   -6.13 [-6.92, -5.34]
    easy vs greedy            3    1000   28.6% [27.1, 30.1]   -4.01 [-4.66, -3.36]
    hard vs random-card       2     400   71.1% [68.1, 74.2]  +12.91 [+11.1, +14.7]   6.2 / 59.0 / 76.7
    hard vs random-card       3     300   48.0% [44.9, 51.1]   +6.68 [+5.34, +8.01]   0.02 / 64.1 / 78.2
    hard vs random-any        2     300   96.7% [95.3, 98.1]  +35.90 [+34.2, +37.6]   2.3 / 49.6 / 75.9
    hard vs random-any        3     300   92.3% [90.5, 94.1]  +32.08 [+31.1, +33.1]   0.02 / 54.6 / 76.8
    greedy vs random-card     2    2000   62.0% [60.5, 63.5]   +8.62 [+7.82, +9.43]
    greedy vs random-card     3    1000   42.7% [41.1, 44.3]   +5.73 [+5.08, +6.38]
    greedy vs random-any      2    1000   94.8% [93.9, 95.8]  +35.10 [+34.1, +36.1]
    greedy vs random-any      3    1000   88.0% [86.9, 89.1]  +31.11 [+30.5, +31.8]

``normal`` plays exactly as ``greedy`` today, so "normal vs greedy" is even by
construction. Illegal actions: 0 in every run. Reproduce a line with, e.g.::

    meja bench bots --a hard --b greedy --seats 2 --deals 1000 --seed-set heldout --jobs 2

Determinism and the deadline
----------------------------
``easy``, ``normal`` and the yardsticks are deterministic functions of their
inputs. ``hard`` counts its work instead of timing it (see :mod:`meja.bots.search`):
same inputs, same action, on any machine, unless its CPU deadline (75 ms of the
calling thread's CPU time) cuts a search short: then that one decision may
differ from an unhurried one. That happens when the machine is slow or busy (a
busy sibling hyperthread nearly doubles the CPU time of the same work): in the
held-out runs above, about one search in a hundred at 3 seats (p99 76 ms) and
fewer at 2 seats (p99 61 ms). ``make_bot("hard", deadline=None)`` is strictly
deterministic; a smaller ``work`` keeps more decisions clear of the deadline.
"""

from __future__ import annotations

from typing import Any, Final

from meja.bots.base import Bot, History, Roster, decision_rng

from .casual import CasualBot
from .search import SearchBot
from .yardsticks import YARDSTICK_VERSION, GreedyBot, RandomAnyBot, RandomCardBot, greedy_choice

__all__ = [
    "LEVELS",
    "ROSTER",
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
    """The ``normal`` level: today the greedy yardstick's policy (docs/bots.md: the seed's tips done right).

    A separate class so that ``normal`` may improve while ``greedy`` stays frozen.
    """

    name = "normal"

    def choose(self, view: Any, history: History, rng: Any) -> Any:
        return greedy_choice(view)


ROSTER: Final = Roster.of(
    levels={"easy": CasualBot, "normal": NormalBot, "hard": SearchBot},
    yardsticks={"random-any": RandomAnyBot, "random-card": RandomCardBot, "greedy": GreedyBot},
)
LEVELS, YARDSTICKS, names, make_bot = ROSTER.exports()


def get_bot(name: str) -> Bot:
    """The bot called ``name`` (a level or a yardstick), as the server seats it."""
    return make_bot(name)
