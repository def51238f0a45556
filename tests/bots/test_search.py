"""The shared search (meja.bots.search) on a toy game whose answer is known.

The toy: a world is a random number ``u`` in [0, 1) and its playout seed; a candidate is a
number ``c``; a playout's reward is ``c * u`` plus noise drawn from the world and the candidate. So the largest ``c``
wins on average, every candidate faces the same ``u`` (common random numbers), and what the
search spent is countable.
"""

from __future__ import annotations

import math
import random

from meja.bots.search import Budget, SearchBot, SearchGame, search


class Toy:
    """A :class:`SearchGame` that records what it was asked."""

    def __init__(self, noise: float = 0.3) -> None:
        self.noise = noise
        self.played: list[tuple[int, float]] = []  # (world number, candidate)
        self.worlds = 0

    def sample(self, rnd: random.Random) -> tuple[int, float, float]:
        self.worlds += 1
        return self.worlds, rnd.random(), rnd.random()

    def world_cost(self, world: tuple[int, float, float]) -> float:
        return 10.0

    def play(self, world: tuple[int, float, float], candidate: float) -> float:
        number, u, luck = world
        self.played.append((number, candidate))
        # The noise differs by candidate (a paired difference is not exact) but not by call.
        return candidate * u + self.noise * ((luck * 9973.0 * (1.0 + candidate)) % 1.0 - 0.5)

    def evaluate(self, outcome: float) -> float:
        return outcome

    def cost(self, outcome: float) -> float:
        return 1.0


def _check_protocol(game: SearchGame[tuple[int, float, float], float, float]) -> None:
    """(mypy checks that the toy is a SearchGame.)"""


_check_protocol(Toy())


def test_the_best_candidate_wins_and_every_candidate_meets_the_same_worlds() -> None:
    toy = Toy()
    result = search(toy, [0.2, 1.0, 0.5], random.Random(1), Budget(work=2000.0))
    assert result.choice == 1.0 and result.index == 1
    by_world: dict[int, list[float]] = {}
    for number, c in toy.played:
        by_world.setdefault(number, []).append(c)
    # Each world is played by the candidates alive then, in order; dropped candidates stop.
    assert all(cs == sorted(cs, key=[0.2, 1.0, 0.5].index) for cs in by_world.values())
    assert by_world[1] == [0.2, 1.0, 0.5]
    assert result.worlds == len(by_world) == toy.worlds
    assert result.playouts == len(toy.played)
    assert result.means[1] > result.means[2] > result.means[0]


def test_racing_drops_clearly_worse_candidates() -> None:
    toy = Toy(noise=0.0)
    result = search(toy, [0.0, 1.0, 0.1, 0.2], random.Random(2), Budget(work=3000.0, min_worlds=8, batch=4))
    assert result.choice == 1.0
    # Without noise the worse ones are dropped at the first race: the rest of the budget is the leader's.
    last = max(n for n, _ in toy.played)
    assert [c for n, c in toy.played if n == last] == [1.0] or result.worlds == 8


def test_the_work_and_playout_budgets_stop_the_search() -> None:
    toy = Toy()
    result = search(toy, [0.3, 0.4], random.Random(3), Budget(work=120.0, min_worlds=1000))
    assert result.spent >= 120.0 and result.spent - 12.0 < 120.0  # a world costs 10 + 1 per candidate
    assert result.worlds == 10
    toy = Toy()
    result = search(toy, [0.3, 0.4, 0.5], random.Random(3), Budget(work=1e9, playouts=30, min_worlds=1000))
    assert result.playouts == 30 and result.worlds == 10


def test_same_seed_same_search_and_ties_go_to_the_first() -> None:
    a = search(Toy(), [0.5, 0.9, 0.7], random.Random(4), Budget(work=800.0))
    b = search(Toy(), [0.5, 0.9, 0.7], random.Random(4), Budget(work=800.0))
    assert (a.index, a.worlds, a.means) == (b.index, b.worlds, b.means)
    assert search(Toy(), [0.6, 0.6, 0.6], random.Random(5), Budget(work=800.0)).index == 0


def test_the_gate_keeps_the_first_candidate_unless_it_is_clearly_beaten() -> None:
    # 0.50 against 0.52: the second is better, but not by many standard errors over 20 noisy worlds.
    close = [0.50, 0.52]
    assert search(Toy(noise=2.0), close, random.Random(1), Budget(work=20 * 12.0, min_worlds=99)).index == 1
    gated = search(Toy(noise=2.0), close, random.Random(1), Budget(work=20 * 12.0, min_worlds=99, gate=2.0))
    assert gated.index == 0
    clear = search(Toy(noise=0.1), [0.1, 1.0], random.Random(6), Budget(work=20 * 12.0, min_worlds=99, gate=2.0))
    assert clear.index == 1


def test_a_past_deadline_stops_after_one_whole_world() -> None:
    toy = Toy()
    result = search(toy, [0.1, 0.2, 0.3], random.Random(7), Budget(work=1e9, deadline=0.0))
    assert result.worlds == 1 and result.playouts == 3


class ToyBot(SearchBot):
    BUDGET = Budget(work=500.0, deadline=0.05)


def test_a_bots_parameters_replace_its_budget_and_it_keeps_the_last_search() -> None:
    bot = ToyBot(work=300.0, deadline=None, name="tuned")
    assert bot.name == "tuned" and bot.budget == Budget(work=300.0) and bot.deadline is None
    assert bot.last_worlds == 0
    assert bot.run(Toy(), [0.1, 0.9], random.Random(8)) == 0.9
    assert bot.last is not None and bot.last_worlds == bot.last.worlds > 1
    try:
        ToyBot(worx=1.0)
    except TypeError:
        pass
    else:
        raise AssertionError("an unknown parameter must be refused")


def test_an_infinite_z_runs_no_race_and_a_playout_cap_gives_whole_worlds() -> None:
    # A game that counts playouts only (as Eighty-Three's): every candidate on every world,
    # ceil(playouts / candidates) worlds.
    toy = Toy(noise=0.0)
    budget = Budget(work=math.inf, playouts=100, z=math.inf, min_worlds=1, batch=1)
    result = search(toy, [0.0, 1.0, 0.5], random.Random(9), budget)
    assert result.choice == 1.0
    assert result.worlds == 34 and result.playouts == 102 == len(toy.played)
