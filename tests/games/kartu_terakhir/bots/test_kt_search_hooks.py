"""Kartu Terakhir's hooks for the shared search (meja.games.kartu_terakhir.bots.search.Hooks).

The search loop is tested once for every game (tests/bots/test_search.py); here, what this game
puts in it: worlds that keep what the seat sees, a candidate that goes out scored as the round
won, a cut-off playout scored by the hand sizes, and the same decision twice from the same rng.
"""

from __future__ import annotations

import random

from meja.games.kartu_terakhir.bots.infoset import read_infoset
from meja.games.kartu_terakhir.bots.search import MARGIN_SCALE, Hooks, SearchBot, evaluate
from meja.games.kartu_terakhir.rules import card_points

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


def test_the_same_decision_twice_searches_the_same_worlds() -> None:
    t = GAME.new_match(GAME.options(), 3, 7)
    state = t.state
    seat = state.turn
    history = [e.to_wire() for e in t.events if e.is_seen_by(seat)]
    view = state.view(seat)
    first, again = SearchBot(work=3000.0, deadline=None), SearchBot(work=3000.0, deadline=None)
    rng = state.bot_rng(seat).derive(f"decision/{state.version}")
    assert first.choose(view, history, rng) == again.choose(view, history, rng)
    assert first.last is not None and again.last is not None  # a search ran (three candidates here)
    assert first.last.worlds > 1 and len(first.last.means) == 3
    assert (first.last.worlds, first.last.means) == (again.last.worlds, again.last.means)
