"""Bots that search think in worker processes, so they never hold up other tables' moves.

A search bot (``Bot.blocking``: a game's ``hard`` level may spend 40-75 ms of CPU a
decision) run in a thread of the server process holds the interpreter lock for
its whole decision: twelve tables of seven such bots raised a bystander table's
p99 move latency from 5.6 to 57 ms (issue 12, finding 7). So blocking bots are
asked in a pool of ``bot_workers`` processes: they get the state's record
(``State.to_data()``), the seat, the level and the seat's history, rebuild the
state with the game's own ``state_from_data``, and return the action's wire
form, which the server decodes and checks as it checks every bot's. The server
process keeps its own core for sockets and commits; the searches share the
pool's, and queue when they outnumber it (a bot then thinks a little longer;
nobody else waits).

``bot_workers = 0`` runs them in a thread of the server process, as before
(tests, tiny deployments). A pool that breaks (a worker killed) is started
again; the decision in flight falls back to the thread.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from meja import games
from meja.bots import decision_rng

__all__ = ["BotPool", "decide"]

log = logging.getLogger("meja.server.botpool")

_bots: dict[tuple[str, str], Any] = {}


def _init(modules: tuple[str, ...]) -> None:
    """A worker's start: the games the server loaded beyond the built-in ones."""
    for module in modules:
        games.load(module)


def decide(game: str, level: str, state_data: dict[str, Any], seat: int, history: list[dict[str, Any]]) -> Any:
    """In a worker: the bot's choice for ``seat`` as wire data (``None``: it declines)."""
    key = (game, level)
    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = games.get(game).bot(level)
    state = games.get_game(game).state_from_data(state_data)
    action = bot.choose(state.view(seat), history, decision_rng(state, seat))
    return None if action is None else action.to_wire()


class BotPool:
    """The worker processes of the blocking bots (see the module docstring)."""

    def __init__(self, workers: int, modules: tuple[str, ...]) -> None:
        self.workers = workers
        self.modules = modules
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server process has threads and an event loop running
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_init, initargs=(self.modules,)
            )
        return self._pool

    async def decide(self, game: str, level: str, state: Any, seat: int, history: list[dict[str, Any]]) -> Any:
        """The bot's choice (the game's action, or ``None``), from a worker process."""
        loop = asyncio.get_running_loop()
        data = state.to_data()
        try:
            wire = await loop.run_in_executor(self._executor(), decide, game, level, data, seat, history)
        except BrokenProcessPool:
            log.warning("the bot worker pool broke; starting it again")
            self._pool = None
            raise
        return None if wire is None else games.get_game(game).decode_action(wire)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
