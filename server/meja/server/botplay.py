"""Bots at the table: which bot plays a seat, what the seat has seen, where the bot thinks, and
the one check of what it chose.

:class:`BotPlay` is all the table service asks of a bot (a due bot move, a turn limit's default
move, a hint): :meth:`BotPlay.decide` gives a legal action for the seat, or ``None`` where the
bot declines to act out of turn. Whatever the bot and wherever it thinks, its choice passes the
same check (:func:`_checked`): a policy that errs or picks an illegal action is logged, and for
a seat the game awaits the first legal action stands in (the game must go on); elsewhere it
declines. Between rounds an awaited seat says the game's default (``ready``) without asking.
:meth:`BotPlay.decide_why` also asks for the bot's reason (:func:`meja.bots.base.choose_why`,
for a hint): kept only with the bot's own choice (never with an action that stood in for it).

The bot is ``plugin.bot(level)`` (one instance per game and level serves every table: bots keep
no memory), asked ``choose(view, history, rng)`` with the seat's own view, ``history`` the wire
form of the game's events the seat saw since its round was dealt (:meth:`BotPlay.history`, kept
per seat and extended from the log, so a round costs one pass over its log), and ``rng``
:func:`meja.bots.decision_rng`.

Where it thinks: a bot that does not block (microseconds) right here; a search bot
(``Bot.blocking``: a game's ``hard`` level may spend 40-75 ms of CPU a decision) in a pool of
``bot_workers`` processes (:class:`BotPool`), so that it never holds up other tables' moves. Run
in a thread of the server process it held the interpreter lock for its whole decision: twelve
tables of seven such bots raised a bystander table's p99 move latency from 5.6 to 57 ms (issue
12, finding 7). A worker gets the state's record (``State.to_data()``), the seat, the level and
the history, rebuilds the state with the game's own ``state_from_data`` and returns the action's
wire form, which is decoded here and checked as every bot's is. The searches share the pool's
cores and queue when they outnumber it (a bot then thinks a little longer; nobody else waits).
``bot_workers = 0`` runs them in a thread instead (tests, tiny deployments); a pool that breaks
(a worker killed) is started again, and the decision in flight falls back to the thread.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from meja import games
from meja.bots import Bot, decision_rng
from meja.bots.base import Why, choose_why
from meja.rules import get_game
from meja.store.base import Store

from . import tables
from .records import Table, decode_entry
from .settings import Settings

__all__ = ["BotPlay", "BotPool", "decide"]

log = logging.getLogger("meja.server.botplay")

#: Bot histories kept (a few per table with bots).
_HISTORIES = 1024

#: A worker process's bots, by (game, level).
_worker_bots: dict[tuple[str, str], Any] = {}


def _init(modules: tuple[str, ...], nice: int = 0) -> None:
    """A worker's start: a lower CPU priority than the server's (``nice``), and the games the
    server loaded beyond the built-in ones."""
    if nice > 0:
        os.nice(nice)
    for module in modules:
        games.load(module)


def decide(
    game: str, level: str, state_data: dict[str, Any], seat: int, history: list[dict[str, Any]], explain: bool = False
) -> Any:
    """In a worker: the bot's choice for ``seat`` as wire data (``None``: it declines); with
    ``explain``, ``(choice, reason)`` (:func:`meja.bots.base.choose_why`)."""
    key = (game, level)
    bot = _worker_bots.get(key)
    if bot is None:
        bot = _worker_bots[key] = games.get(game).bot(level)
    state = games.get_game(game).state_from_data(state_data)
    view, rng = state.view(seat), decision_rng(state, seat)
    action, why = choose_why(bot, view, history, rng) if explain else (bot.choose(view, history, rng), None)
    wire = None if action is None else action.to_wire()
    return (wire, why) if explain else wire


class BotPool:
    """The worker processes of the blocking bots (see the module docstring)."""

    def __init__(self, workers: int, modules: tuple[str, ...], nice: int = 0) -> None:
        self.workers = workers
        self.modules = modules
        self.nice = nice
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server process has threads and an event loop running
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_init, initargs=(self.modules, self.nice)
            )
        return self._pool

    async def decide(
        self, game: str, level: str, state: Any, seat: int, history: list[dict[str, Any]], explain: bool = False
    ) -> Any:
        """The bot's choice (the game's action, or ``None``) from a worker process; with ``explain``,
        ``(choice, reason)``."""
        loop = asyncio.get_running_loop()
        data = state.to_data()
        try:
            got = await loop.run_in_executor(self._executor(), decide, game, level, data, seat, history, explain)
        except BrokenProcessPool:
            log.warning("the bot worker pool broke; starting it again")
            self._pool = None
            raise
        wire, why = got if explain else (got, None)
        action = None if wire is None else games.get_game(game).decode_action(wire)
        return (action, why) if explain else action

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


#: What a bot's failure leaves to :func:`_checked` (a choice no bot made).
_FAILED = object()


def _checked(table: Table, seat: int, level: str, move: Any) -> Any | None:
    """The one check of a bot's choice: ``move`` if legal for ``seat``; ``None`` if it declines
    out of turn; else (an illegal choice, or ``_FAILED``) the first legal action for a seat the
    game awaits, ``None`` for another."""
    state = table.state
    assert state is not None
    legal = state.legal_actions(seat)
    awaited = seat in state.awaiting()
    if move is None and not awaited:
        return None
    if move is not _FAILED and move in legal:
        return move
    if move is not _FAILED:
        log.error("bot %r chose the illegal %s at table %s seat %d", level, move, table.id, seat)
    return legal[0] if awaited and legal else None


def _unasked(table: Table, seat: int) -> tuple[bool, Any | None]:
    """``(True, action)`` where no bot need be asked: nothing legal (``None``), or an awaited seat
    between rounds (the game's default, ``ready``); else ``(False, None)``."""
    state = table.state
    assert state is not None
    legal = state.legal_actions(seat)
    if not legal:
        return True, None
    if seat in state.awaiting() and tables.between_rounds(state):
        ready = state.default_action(seat)
        return True, ready if ready in legal else legal[0]
    return False, None


class BotPlay:
    """The bots of this process's tables; see the module docstring."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        #: the worker processes of the bots that search (None: they think in a thread here)
        self.pool: BotPool | None = (
            BotPool(settings.bot_workers, settings.game_modules(), settings.bot_nice)
            if settings.bot_workers > 0
            else None
        )
        #: (game, level) -> its bot (a bot keeps no memory between calls: one serves every seat)
        self._bots: dict[tuple[str, str], Bot] = {}
        #: (table, seat) -> (round_v, last version read, the seat's events this round)
        self._histories: OrderedDict[tuple[str, int], tuple[int, int, list[dict[str, Any]]]] = OrderedDict()

    def bot(self, game: str, level: str) -> Bot:
        """The bot of ``level`` for ``game`` (one instance serves every table: bots keep no memory)."""
        key = (game, level)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = games.get(game).bot(level)
        return bot

    def needs_history(self, game: str, level: str) -> bool:
        """Whether the bot reads the seat's history (which costs a read of the round's log)."""
        return bool(getattr(self.bot(game, level), "needs_history", True))

    async def history(self, table: Table, seat: int) -> list[dict[str, Any]]:
        """The wire events ``seat`` saw since its round was dealt (the game's events only).

        Kept per (table, seat) and extended with the log entries after the last one
        read, so a round costs one pass over its log, not one per bot decision.
        """
        key = (table.id, seat)
        known = self._histories.get(key)
        if known is not None and known[0] == table.round_v:
            _, after, seen = known
            seen = list(seen)
        else:
            after, seen = max(table.round_v - 1, -1), []
        round_start = get_game(table.game).info.round_start
        for version, raw in await self.store.log_since(table.id, after):
            after = version
            for event in decode_entry(raw):
                if event.kind == round_start:
                    seen = []
                if event.kind not in tables.TABLE_EVENTS and event.is_seen_by(seat):
                    seen.append(event.to_wire())
        self._histories[key] = (table.round_v, after, seen)
        self._histories.move_to_end(key)
        while len(self._histories) > _HISTORIES:
            self._histories.popitem(last=False)
        return seen

    async def decide(self, table: Table, seat: int, level: str, history: list[dict[str, Any]]) -> Any | None:
        """The bot's action for ``seat``: a legal one, or ``None`` where it declines to act out of turn.

        A bot that does not block is asked right here (microseconds: a thread would cost more); a
        search bot in the worker pool, or a thread where there is none (or the pool broke).
        """
        move, _ = await self.decide_why(table, seat, level, history, explain=False)
        return move

    async def decide_why(
        self, table: Table, seat: int, level: str, history: list[dict[str, Any]], *, explain: bool = True
    ) -> tuple[Any | None, Why | None]:
        """:meth:`decide`, with the bot's reason for its choice (``None``: it gave none, or its choice
        did not stand: an action that stood in for it has no reason)."""
        if not getattr(self.bot(table.game, level), "blocking", True):
            return self.choose_why(table, seat, level, history, explain=explain)
        state = table.state
        assert state is not None
        pool = self.pool
        unasked, action = _unasked(table, seat)
        if unasked:
            return action, None
        if pool is not None:
            try:
                if explain:
                    chosen, why = await pool.decide(table.game, level, state, seat, history, True)
                else:
                    chosen, why = await pool.decide(table.game, level, state, seat, history), None
            except Exception:
                log.exception("bot %r (worker pool) failed at table %s v%d seat %d", level, table.id, table.gv, seat)
            else:
                move = _checked(table, seat, level, chosen)
                return move, why if move is not None and move == chosen else None
        return await asyncio.to_thread(self.choose_why, table, seat, level, history, explain=explain)

    def choose(self, table: Table, seat: int, level: str, history: list[dict[str, Any]]) -> Any | None:
        """:meth:`decide`, asking the bot in this thread (also to decide again inside a commit)."""
        move, _ = self.choose_why(table, seat, level, history, explain=False)
        return move

    def choose_why(
        self, table: Table, seat: int, level: str, history: list[dict[str, Any]], *, explain: bool = True
    ) -> tuple[Any | None, Why | None]:
        """:meth:`choose`, with the bot's reason where ``explain`` asks for it (as :meth:`decide_why`)."""
        unasked, action = _unasked(table, seat)
        if unasked:
            return action, None
        state = table.state
        assert state is not None
        why: Why | None = None
        try:
            bot, view, rng = self.bot(table.game, level), state.view(seat), decision_rng(state, seat)
            move, why = choose_why(bot, view, history, rng) if explain else (bot.choose(view, history, rng), None)
        except Exception:
            log.exception("bot %r failed at table %s v%d seat %d", level, table.id, table.gv, seat)
            move = _FAILED
        checked = _checked(table, seat, level, move)
        return checked, why if checked is not None and checked == move else None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
