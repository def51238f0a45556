"""One search for every game's ``hard`` bot: candidates compared on worlds drawn from what the seat knows.

The model is OpenSpiel's: a game's information state can be resampled into full
states consistent with it (``ResampleFromInfostate``), and one search
(``is_mcts.cc``) runs every game on that. Here the search is *determinized*
(flat Monte Carlo over sampled worlds), the choice measured in docs/bots.md 2: at
the same budget it beat single-observer information-set MCTS (55.2% against
50.2% of rounds against greedy at 2 seats), and it is what every game's ``hard``
bot already did, three times over, before this module.

A game supplies a :class:`SearchGame` built for one decision (from the seat's
view and what it has seen) and a list of candidate moves; :func:`search` does
the rest:

1. **Worlds.** :meth:`SearchGame.sample` draws a full world consistent with the
   seat's information state (the other hands, the stock, and the chance a playout
   will meet, such as a reshuffle's seed), weighted where the game says so (an
   opponent model that keeps a world less often when the others would have played
   otherwise in it).
2. **Common random numbers.** Every candidate still in the race is played on the
   same world (:meth:`SearchGame.play`: the candidate, then the game's playout
   policy at every seat to the end of the round or a cut-off), so a difference
   between two candidates is theirs, not the world's luck.
3. **Evaluation.** :meth:`SearchGame.evaluate` scores the playout for the seat
   (the game's own reward: a win, a points margin, a cut-off's estimate).
4. **Racing.** On a geometric schedule of worlds, a candidate whose paired
   difference to the leader is more than ``z`` standard errors below zero is
   dropped, and the budget goes to the close calls.
5. **The choice.** The candidate with the highest total reward; ties go to the
   earlier candidate, so a game puts its heuristic's choice first. With ``gate``,
   the first candidate stands unless the winner beats it by ``gate`` standard
   errors (a noisy search that wanders off a good heuristic loses more than it
   finds); a ``gate`` below 0 is the other way round: the best of the others
   stands unless shown worse than the first by ``-gate`` standard errors.
6. **The reason** (issue 23 point 4). A game whose :class:`SearchGame` also has
   ``won(outcome) -> bool`` gets each candidate's share of playouts won counted;
   :meth:`SearchBot.choose_why` words the result as :func:`meja.bots.base.search_why`
   (the deals compared, the choice's wins, the next best move's), from these
   figures only.

**Determinism and the deadline.** All chance comes from the ``random.Random``
the caller passes (a bot seeds it from the decision's :class:`~meja.rules.rng.Rng`).
The budget is *work*, not time: the game counts what each world and each
playout costs (:meth:`SearchGame.world_cost`, :meth:`SearchGame.cost`, in about
microseconds of a quiet machine), so the same inputs give the same choice on any
machine. :attr:`Budget.deadline` (CPU seconds of the calling thread) is only a
safety cap: past it the search stops after the last whole world, and that one
decision may differ from an unhurried one; ``deadline=None`` is strictly
deterministic (the tests use it). A search blocks its thread for its whole
budget: a server runs a searching bot off its event loop (:attr:`SearchBot.blocking`).
A caller whose clock started before the search (it drew a pool of worlds first)
passes its own ``stop``, asked after each whole world as the deadline is.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .base import History, Why, search_why

__all__ = ["Budget", "Result", "SearchBot", "SearchGame", "result_why", "search"]

W = TypeVar("W")
C = TypeVar("C")
O = TypeVar("O")  # noqa: E741 (the outcome of a playout)
C_contra = TypeVar("C_contra", contravariant=True)


class SearchGame(Protocol[W, C_contra, O]):
    """What a game supplies for one decision of one seat (see the module docstring).

    ``W`` is a world (a full state consistent with what the seat knows, with the
    chance its playouts will meet), ``C_contra`` a candidate move, ``O`` what a
    playout ends in.
    """

    def sample(self, rnd: random.Random) -> W:
        """A world consistent with the seat's information state, weighted as the game says."""
        ...

    def world_cost(self, world: W) -> float:
        """The work drawing ``world`` cost (rejected draws included)."""
        ...

    def play(self, world: W, candidate: C_contra) -> O:
        """``candidate`` applied in ``world`` (not changed), then the game's playout policy at every seat."""
        ...

    def evaluate(self, outcome: O) -> float:
        """The seat's reward for ``outcome`` (higher is better)."""
        ...

    def cost(self, outcome: O) -> float:
        """The work the playout that ended in ``outcome`` cost."""
        ...


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may search, and how the race is run (a game's ``hard`` bot sets its defaults)."""

    #: the work per decision, in the game's units (:meth:`SearchGame.cost`)
    work: float
    #: playouts per decision at most, summed over candidates (None: only ``work`` limits)
    playouts: int | None = None
    #: CPU seconds of the calling thread after which the search stops at the next whole world
    deadline: float | None = None
    #: worlds between two races, at least
    batch: int = 8
    #: a candidate this many standard errors below the leader is dropped
    z: float = 2.5
    #: worlds before the first race
    min_worlds: int = 16
    #: the first candidate stands unless beaten by this many standard errors (0: off; below 0, the
    #: best of the others stands unless shown worse than the first by that many)
    gate: float = 0.0


@dataclass(slots=True)
class Result(Generic[C]):
    """A search's choice and what it cost (for benchmarks, tests and explanations; never to decide again)."""

    choice: C
    index: int
    worlds: int
    playouts: int
    spent: float
    #: per candidate: its mean reward over the worlds it was played on (nan: none)
    means: list[float] = field(default_factory=list)
    #: per candidate: its rewards, world by world (the same worlds while it was in the race)
    rewards: list[list[float]] = field(default_factory=list)
    #: per candidate: its playouts won (empty: the game does not tell wins)
    wins: list[int] = field(default_factory=list)
    #: the candidates compared
    candidates: Sequence[C] = ()


def search(
    game: SearchGame[W, C, O],
    candidates: Sequence[C],
    rnd: random.Random,
    budget: Budget,
    stop: Callable[[], bool] | None = None,
) -> Result[C]:
    """Compare ``candidates`` on worlds from ``game`` (see the module docstring); ties go to the earlier one.

    ``stop``, if given, is asked after each whole world, as the deadline is: true ends the search.
    """
    k = len(candidates)
    alive = list(range(k))
    rewards: list[list[float]] = [[] for _ in range(k)]
    cap = budget.playouts
    work = budget.work
    deadline = budget.deadline
    used = 0
    worlds = 0
    spent = 0.0
    next_race = budget.min_worlds
    t0 = time.thread_time()
    sample, play, evaluate, cost = game.sample, game.play, game.evaluate, game.cost
    won = getattr(game, "won", None)
    wins = [0] * k if won is not None else []
    while (cap is None or used < cap) and spent < work and len(alive) > 1:
        world = sample(rnd)
        spent += game.world_cost(world)
        for i in alive:
            outcome = play(world, candidates[i])
            spent += cost(outcome)
            rewards[i].append(evaluate(outcome))
            if won is not None and won(outcome):
                wins[i] += 1
        used += len(alive)
        worlds += 1
        if worlds >= next_race:
            # Racing costs O(worlds) per candidate, so it runs on a geometric schedule.
            alive = _race(alive, rewards, budget.z)
            next_race = max(worlds + budget.batch, int(worlds * 1.25))
        if deadline is not None and time.thread_time() - t0 > deadline:
            break
        if stop is not None and stop():
            break
    best = max(alive, key=lambda i: (sum(rewards[i]), -i))
    if best != 0 and 0 in alive and budget.gate > 0.0 and worlds > 1:
        mean, se = _paired(rewards[best], rewards[0])
        if mean <= budget.gate * se:
            best = 0
    elif best == 0 and budget.gate < 0.0 and len(alive) > 1 and worlds > 1:
        top = max(alive[1:], key=lambda i: (sum(rewards[i]), -i))
        mean, se = _paired(rewards[top], rewards[0])
        if mean > budget.gate * se:
            best = top
    means = [sum(r) / len(r) if r else math.nan for r in rewards]
    return Result(candidates[best], best, worlds, used, spent, means, rewards, wins, candidates)


def result_why(result: Result[Any], action_of: Any = None) -> Why | None:
    """The reason of a search's choice from its own figures (:func:`meja.bots.base.search_why`):
    the deals compared; the choice's share won and the next best's (where the game tells wins),
    else the shares of deals where the choice did better and worse than the next best. The next
    best is the candidate with the highest mean reward after the choice (``action_of`` turns a
    candidate into the seat's action). ``None`` for a search of no world."""
    if result.worlds < 1 or not result.rewards:
        return None
    best = result.index
    others = [i for i in range(len(result.rewards)) if i != best and result.rewards[i]]
    alt = max(others, key=lambda i: (result.means[i], -i)) if others else None
    turn = action_of if action_of is not None else (lambda c: c)
    mine = result.rewards[best]
    if result.wins:
        won = 100.0 * result.wins[best] / len(mine)
        if alt is None:
            return search_why(len(mine), won=won)
        return search_why(
            len(mine),
            won=won,
            alt=turn(result.candidates[alt]),
            alt_won=100.0 * result.wins[alt] / len(result.rewards[alt]),
        )
    if alt is None:
        return search_why(len(mine))
    pairs = list(zip(mine, result.rewards[alt], strict=False))
    ahead = sum(1 for a, b in pairs if a > b)
    behind = sum(1 for a, b in pairs if a < b)
    return search_why(
        len(pairs),
        alt=turn(result.candidates[alt]),
        ahead=100.0 * ahead / len(pairs),
        behind=100.0 * behind / len(pairs),
    )


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """The mean of the paired differences ``a - b`` and its standard error (0 with one pair)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    m = len(d)
    mean = sum(d) / m
    var = sum((x - mean) ** 2 for x in d) / (m - 1) if m > 1 else 0.0
    return mean, math.sqrt(var / m)


def _race(alive: list[int], rewards: list[list[float]], z: float) -> list[int]:
    """Drop the candidates whose paired difference to the leader is clearly negative."""
    lead = max(alive, key=lambda i: (sum(rewards[i]), -i))
    keep = []
    for i in alive:
        if i != lead:
            mean, se = _paired(rewards[i], rewards[lead])
            if mean + z * se < 0.0:
                continue
        keep.append(i)
    return keep


class SearchBot:
    """What every game's searching ``hard`` bot shares: its name, its budget, and the last search's figures.

    A game's bot sets :attr:`BUDGET` (its defaults) and passes the budget's fields
    through as tuning parameters (``make_bot("hard", work=3000, deadline=None)``);
    its ``choose`` builds a :class:`SearchGame` and calls :meth:`run`.
    """

    name = "hard"
    needs_history = True
    blocking = True
    #: the game's defaults; ``__init__``'s keyword parameters replace fields of it
    BUDGET: ClassVar[Budget]

    def __init__(self, name: str = "hard", **budget: Any) -> None:
        self.name = name
        self.budget = replace(self.BUDGET, **budget)
        #: the last search (for the benchmark and tests; never used to decide)
        self.last: Result[Any] | None = None
        #: the search of each thread's decision that :meth:`choose_why` is making (a server's threads
        #: share one bot): kept from its start to :meth:`forget_search`, for its game's explainer,
        #: and only then (an ordinary ``choose`` keeps nothing here)
        self._mine: dict[int, Result[Any] | None] = {}

    @property
    def deadline(self) -> float | None:
        return self.budget.deadline

    @property
    def last_worlds(self) -> int:
        return self.last.worlds if self.last else 0

    @property
    def last_playouts(self) -> int:
        return self.last.playouts if self.last else 0

    @property
    def last_spent(self) -> float:
        return self.last.spent if self.last else 0.0

    def run(
        self,
        game: SearchGame[W, C, O],
        candidates: Sequence[C],
        rnd: random.Random,
        budget: Budget | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> C:
        """:func:`search` with this bot's budget (or ``budget``) and ``stop``; the result is kept in :attr:`last`."""
        chosen = self.budget if budget is None else budget
        self.last = result = search(game, candidates, rnd, chosen, stop)
        me = threading.get_ident()
        if me in self._mine:  # a choose_why is under way on this thread
            self._mine[me] = result
        return result.choice

    def action_of(self, candidate: Any) -> Any:
        """The seat's action for a candidate (a game whose candidates are not actions overrides it)."""
        return candidate

    def choose(self, view: Any, history: History, rng: Any) -> Any | None:  # pragma: no cover (each game's)
        raise NotImplementedError

    def choose_why(self, view: Any, history: History, rng: Any) -> tuple[Any | None, Why | None]:
        """``choose``'s action and, where it searched, the search's reason (:func:`result_why`);
        ``None`` where it decided without a search, or where its candidates are not the seat's
        actions (its game's ``explain`` may then say why, reading :meth:`searched`)."""
        me = threading.get_ident()
        self._mine[me] = None
        try:
            action = self.choose(view, history, rng)
        except BaseException:
            self.forget_search()
            raise
        result = self._mine.get(me)
        if result is None or action is None or self.action_of(result.choice) != action:
            return action, None  # (the search is kept for the explainer, until forget_search)
        self.forget_search()
        return action, result_why(result, self.action_of)

    def searched(self) -> Result[Any] | None:
        """The last search of the decision :meth:`choose_why` just made on this thread (``None``: it
        did not search): this thread's own, never another table's."""
        return self._mine.get(threading.get_ident())

    def forget_search(self) -> None:
        """Drop this thread's search kept by :meth:`choose_why` (:func:`meja.bots.base.choose_why`
        calls it once the explainer has read :meth:`searched`)."""
        self._mine.pop(threading.get_ident(), None)
