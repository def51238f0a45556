"""Bots for Kartu Terakhir: three levels for players, three frozen yardsticks to measure them.

The interface (what the server calls)
-------------------------------------
``make_bot(name).choose(view, history, rng) -> Move | None`` (:mod:`meja.bots.base`):
``view`` is ``state.view(seat)`` (``view.legal`` lists the legal actions),
``history`` the wire dicts of the events this seat saw since the round started,
``rng`` is :func:`meja.bots.base.decision_rng`, unique to (round, seat,
decision). A bot keeps no memory between calls, never sees more than its seat
may, and returns the same action for the same inputs. The server asks it for
every seat in ``actors()``: on its turn it returns one of ``view.legal``; out of
turn (a catch window open: 3.6) it may return ``None``, "not now". The human-like
delay of an out-of-turn action (400-1500 ms, 3.6.2) is the server's
(``bot_react_min_ms``/``bot_react_max_ms`` of the settings), not the bot's: a bot
decides *whether* to catch; the server decides *when* it acts.

The levels
----------
``easy`` (:class:`.levels.CasualBot`)
    A casual player: a random playable card, a Wild early now and then; it forgets
    to call "last card" half the time (before, then again after) and misses half
    of the catches it could make.
``normal`` (:class:`.levels.NormalBot`)
    The greedy yardstick's policy (the seed's tips) with full attention: it calls
    in time and catches whenever it can.
``hard`` (:class:`.search.SearchBot`: Kartu Terakhir's hooks for the shared
    :mod:`meja.bots.search`, docs/bots.md 5)
    A determinized search: worlds dealt consistently with what the seat saw
    (:mod:`.infoset`: stuck draws, passes, verdicts, a hand shown to it), every
    candidate on the same worlds (common random numbers), greedy playouts on a
    list-based replay of the engine (:mod:`.playout`, checked against the engine's
    own rollout, about eight times faster); greedy's choice, steered to colours the next
    seat is known to lack, stands unless the search is confident it is beaten.
    A fixed work budget (deterministic) and a 70 ms CPU cap. It catches whenever
    it can and always calls in time. It blocks its thread while it thinks, so a
    server runs it off the event loop.

The yardsticks (:mod:`.yardsticks`, frozen, ``YARDSTICK_VERSION``)
------------------------------------------------------------------
``random-any`` (uniform over legal actions), ``random`` (a random playable card,
draws only when stuck), ``greedy`` (the seed's tips, with a stated challenge policy).

How they were measured
----------------------
``meja bench bots --game kartu_terakhir`` (:mod:`..bench_bots`): duplicate deals on
the server's timers, held-out seeds; the figures are in the README (Bots, Kartu
Terakhir): ``hard`` beats ``greedy`` at 2, 4 and 6 seats, ``normal`` beats ``easy``
at each, 0 illegal actions, ``hard``'s p99 decision CPU about 72 ms.

Determinism and the deadline
----------------------------
``easy``, ``normal`` and the yardsticks are deterministic functions of their inputs.
``hard`` counts its work instead of timing it: same inputs, same action, unless its
CPU cap (70 ms of the calling thread's CPU) cuts a search short, which on the shared
machine happens to more than one decision in twenty (p95 71 ms, at the cap; p50 6 ms
at 2 seats, 17 ms at 4, 36 ms at 6). ``make_bot("hard", deadline=None)`` is
strictly deterministic (the tests use it); a smaller ``work`` keeps more decisions
clear of the cap.
"""

from __future__ import annotations

from typing import Final

from meja.bots.base import Roster

from .levels import CasualBot, NormalBot
from .search import SearchBot
from .yardsticks import YARDSTICK_VERSION, GreedyBot, RandomAnyBot, RandomCardBot

__all__ = ["LEVELS", "ROSTER", "YARDSTICKS", "YARDSTICK_VERSION", "make_bot", "names"]

ROSTER: Final = Roster.of(
    levels={"easy": CasualBot, "normal": NormalBot, "hard": SearchBot},
    yardsticks={"random-any": RandomAnyBot, "random": RandomCardBot, "greedy": GreedyBot},
)
LEVELS, YARDSTICKS, names, make_bot = ROSTER.exports()
