"""Eighty-Three's hooks for ``meja bench rules`` (:mod:`meja.games.eighty_three.playouts`): hands, and
Auto-arrange shortening them; the benchmark itself is tested over every game in ``tests/bench/test_bench_rules.py``."""

from __future__ import annotations

import random

from meja.games.eighty_three.playouts import PLAYOUTS, random_arrange
from meja.rules.playout import playout, random_any, take_turn

from .e83_helpers import GAME


def test_playouts_are_seeded_and_auto_arrange_shortens_a_hand() -> None:
    options = GAME.options_from_wire({"preset": "standard"})

    def hands(policy: object) -> list[int]:
        return [playout(GAME, options, 4, s, policy, random.Random(s), take_turn) for s in range(5)]  # type: ignore[arg-type]

    a, b = hands(random_any), hands(random_any)
    assert a == b and min(a) >= 30  # 24 plays, the auction, a trump and the decisions
    assert sum(hands(random_arrange)) < sum(a)
    assert PLAYOUTS.unit == "hand" and PLAYOUTS.default_policy == "all"
