"""Crazy Eights' hooks for ``meja bench rules`` (:mod:`meja.games.crazy_eights.playouts`); the
benchmark itself is tested over every game in ``tests/bench/test_bench_rules.py``."""

from __future__ import annotations

import random

from meja.games.crazy_eights.playouts import PLAYOUTS, random_card
from meja.games.crazy_eights.rules import DRAW, PASS, READY, Move
from meja.rules import get_game
from meja.rules.playout import playout, random_any, take_turn


def test_random_card_policy_plays_when_it_can_and_draws_only_when_stuck() -> None:
    rng = random.Random(0)
    plays = (Move.play("5H"), Move.play("8C", "S"), Move.play("8C", "H"), DRAW)
    seen = {random_card(plays, rng) for _ in range(200)}
    assert seen == set(plays[:3])  # never draws while it holds a play
    assert random_card((DRAW, PASS), rng) == DRAW
    assert random_card((PASS,), rng) == PASS
    assert random_card((READY,), rng) == READY
    assert {random_any((DRAW, PASS), rng) for _ in range(100)} == {DRAW, PASS}


def test_random_card_rounds_are_shorter_in_house() -> None:
    """Why random-card is the default: random-any draws itself to death in house (1.4.3)."""
    game = get_game("crazy_eights")
    options = game.options_from_wire({"preset": "house"})
    card = [playout(game, options, 2, s, random_card, random.Random(s), take_turn) for s in range(8)]
    anything = [playout(game, options, 2, s, random_any, random.Random(s), take_turn) for s in range(8)]
    assert min(card) >= 7 and sum(anything) > 3 * sum(card)
    assert PLAYOUTS.default_policy == "random-card" and PLAYOUTS.target is not None
