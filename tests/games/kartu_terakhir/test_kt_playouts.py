"""Kartu Terakhir's hooks for ``meja bench rules`` (:mod:`meja.games.kartu_terakhir.playouts`): its
policies and its turns with calls and catches out of turn; the benchmark itself is tested over every
game in ``tests/bench/test_bench_rules.py``."""

from __future__ import annotations

import random

from meja.games.kartu_terakhir.playouts import random_card, turns
from meja.games.kartu_terakhir.rules import CALL, CATCH, CHALLENGE, GAME, TAKE, KartuTerakhirOptions
from meja.rules.playout import Policy


def test_a_playout_plays_a_whole_round_with_catches_and_calls() -> None:
    rng = random.Random(3)
    seen: list[int] = []
    total = 0
    for seed in range(30):
        turn = turns()
        state = GAME.new_match(KartuTerakhirOptions(), 4, seed).state
        while state.in_round():
            policy: Policy = random_card
            seat, move = turn(state, policy, rng)
            seen.append(move)
            state = state.apply(seat, move).state
            total += 1
    assert total > 30 * 7
    assert CALL in seen and CATCH in seen
    legal = (TAKE, CHALLENGE)
    assert {random_card(legal, random.Random(i)) for i in range(20)} == set(legal)
