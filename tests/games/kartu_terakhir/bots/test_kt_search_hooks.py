"""Kartu Terakhir's hooks for the shared search (meja.games.kartu_terakhir.bots.search.Hooks).

The search loop is tested once for every game (tests/bots/test_search.py); here, what this game
puts in it: worlds that keep what the seat sees, a candidate that goes out scored as the round
won, a cut-off playout scored by the hand sizes, and the same decision twice from the same rng.
"""

from __future__ import annotations

import random
from typing import Any

from meja.bots.search import Result
from meja.games.kartu_terakhir.bots.infoset import read_infoset
from meja.games.kartu_terakhir.bots.search import MARGIN_SCALE, Hooks, SearchBot, evaluate, rank_credit
from meja.games.kartu_terakhir.rules import Move, card_points

from ..kt_helpers import GAME, play, stacked


def test_worlds_keep_what_the_seat_sees() -> None:
    t = GAME.new_match(GAME.options(), 4, 11)
    state = t.state
    seat = state.turn
    view = state.view(seat)
    hooks = Hooks(view, read_infoset(view, [e.to_wire() for e in t.events if e.is_seen_by(seat)]), 600, 0.6, 200.0)
    rnd = random.Random(3)
    everything = sorted(c for h in state.hands for c in h) + sorted(state.stock) + sorted(state.discard)
    others = set()
    for _ in range(20):
        world, _ = hooks.sample(rnd)
        others.add(world.hands[(seat + 1) % 4])
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.stock) == len(state.stock) and world.discard == state.discard
        assert sorted([c for h in world.hands for c in h] + list(world.stock) + list(world.discard)) == sorted(
            everything
        )
        assert (world.turn, world.colour, world.direction) == (state.turn, state.colour, state.direction)
    assert len(others) == 20  # what the seat cannot see is dealt anew each time


def test_going_out_is_the_round_won() -> None:
    # seat 1 holds one card that plays: going out wins the others' points (3.8.2).
    state = stacked(hands=["R1 G2 B5", "R9"], discard="R3", stock="Y1 Y2 Y3 Y4 G7 B8", turn=1)
    view = state.view(1)
    hooks = Hooks(view, read_infoset(view, []), 600, 0.6, MARGIN_SCALE)
    outcome = hooks.play((state, 5), play("R9"))  # the true state as the world
    winner, points, _, steps = outcome
    assert winner == 1 and steps == 0 and points == card_points(state.hands[0]) == 1 + 2 + 5
    assert hooks.evaluate(outcome) == 1.0 + 8 / MARGIN_SCALE
    assert hooks.cost(outcome) > 0 and hooks.world_cost((state, 5)) > 0


def test_a_cut_off_playout_is_scored_by_the_hand_sizes() -> None:
    state = stacked(hands=["R1 G2 B5 Y7", "R9 G3"], discard="R3", stock="Y1 Y2 Y3 Y4 G7 B8", turn=1)
    view = state.view(1)
    hooks = Hooks(view, read_infoset(view, []), 1, 0.6, MARGIN_SCALE)  # one action, then cut off
    world = hooks.sample(random.Random(4))
    outcome = hooks.play(world, play("R9"))
    winner, _, hands, _ = outcome
    assert winner == -1
    assert hooks.evaluate(outcome) == evaluate(hands, 1, 0.6, MARGIN_SCALE)


def _searches(*bots: SearchBot) -> list[tuple[Move | None, Result[Any]]]:
    """Each of ``bots`` decides the first turn of seed 7's 3-seat deal from the same rng: its move and search."""
    t = GAME.new_match(GAME.options(), 3, 7)
    state = t.state
    seat = state.turn
    history = [e.to_wire() for e in t.events if e.is_seen_by(seat)]
    view = state.view(seat)
    rng = state.bot_rng(seat).derive(f"decision/{state.version}")
    out = []
    for bot in bots:
        move = bot.choose(view, history, rng)
        assert bot.last is not None  # a search ran (three candidates here)
        out.append((move, bot.last))
    return out


def test_the_same_decision_twice_searches_the_same_worlds() -> None:
    (move, first), (again_move, again) = _searches(*(SearchBot(work=3000.0, deadline=None) for _ in range(2)))
    assert move == again_move
    assert first.worlds > 1 and len(first.means) == 3
    assert (first.worlds, first.means) == (again.worlds, again.means)


def test_a_lost_round_earns_partial_credit_by_hand_size_only_with_rank() -> None:
    # seat 2 went out; seat 0 (the searching seat) ends with fewer cards than seat 1, then with more.
    state = stacked(hands=["R1 G2 B5", "R9 G3", "Y5"], discard="R3", stock="Y1 Y2 Y3 Y4 G7 B8", turn=0)
    view = state.view(0)
    off = Hooks(view, read_infoset(view, []), 600, 0.6, MARGIN_SCALE)
    on = Hooks(view, read_infoset(view, []), 600, 0.6, MARGIN_SCALE, rank=0.5)
    ahead = (2, 20, [[1], [2, 3, 4], []], 30)
    behind = (2, 20, [[1, 2, 3], [4], []], 30)
    level = (2, 20, [[1, 2], [3, 4], []], 30)
    loss = -20 / 2 / MARGIN_SCALE
    assert off.evaluate(ahead) == off.evaluate(behind) == off.evaluate(level) == loss  # the default: win only
    assert on.evaluate(level) == loss  # even hands: no credit either way
    assert on.evaluate(behind) < loss < on.evaluate(ahead) < 1.0  # never worth a round won
    assert on.evaluate((0, 20, [[], [1], [2]], 30)) == off.evaluate((0, 20, [[], [1], [2]], 30))
    assert abs(rank_credit([[1], [2, 3, 4], []], 0, 2) + rank_credit([[1], [2, 3, 4], []], 1, 2)) < 1e-12


def test_rank_reaches_the_search_and_keeps_it_deterministic() -> None:
    (move, a), (again_move, b), (_, off) = _searches(
        *(SearchBot(work=3000.0, deadline=None, rank=r) for r in (0.5, 0.5, 0.0))
    )
    assert move == again_move and (a.worlds, a.means) == (b.worlds, b.means)
    assert a.means != off.means  # the playouts are scored with the partial credit
