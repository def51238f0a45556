"""The opponent model's weighting shared by every game's worlds (meja.bots.infoset.weighted_draw)."""

from __future__ import annotations

import random
from collections.abc import Callable

from meja.bots.infoset import weighted_draw


def _counter(values: list[int]) -> tuple[list[int], Callable[[random.Random], int]]:
    drawn: list[int] = []

    def draw(rnd: random.Random) -> int:
        drawn.append(values[len(drawn)])
        return drawn[-1]

    return drawn, draw


def test_an_unsurprising_draw_is_kept_at_once_and_nothing_to_weigh_keeps_the_first() -> None:
    drawn, draw = _counter([3, 0, 5])
    assert weighted_draw(draw, lambda m: m, random.Random(1), 0.0, 8) == (0, 2)
    assert drawn == [3, 0]
    drawn, draw = _counter([3, 0, 5])
    assert weighted_draw(draw, None, random.Random(1), 0.0, 8) == (3, 1)
    assert drawn == [3]


def test_after_its_tries_the_least_surprising_draw_is_kept() -> None:
    drawn, draw = _counter([4, 2, 3, 2, 5])
    assert weighted_draw(draw, lambda m: m, random.Random(1), 0.0, 5) == (2, 5)
    assert drawn == [4, 2, 3, 2, 5]


def test_a_surprise_is_kept_with_probability_eps_to_its_power() -> None:
    rnd = random.Random(2)
    kept_first = sum(weighted_draw(lambda r: 1, lambda m: m, rnd, 0.25, 2)[1] == 1 for _ in range(4000))
    assert 800 < kept_first < 1200  # 0.25 of 4000
    rnd = random.Random(2)
    kept_first = sum(weighted_draw(lambda r: 2, lambda m: m, rnd, 0.25, 2)[1] == 1 for _ in range(4000))
    assert 150 < kept_first < 350  # 0.0625 of 4000
