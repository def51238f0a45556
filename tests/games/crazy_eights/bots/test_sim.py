"""The bots' simulator agrees with the rules engine (docs/rules/crazy-eights.md 1.3-1.5, 2.2, 2.3).

Random playouts go through both side by side: at every step the legal action
sets must be equal, and after every action the hands, top card, active suit,
whose turn and draws taken. The engine's reshuffle order (a secret seed) is
copied into the simulator when it happens; everything else must agree by itself.
"""

from __future__ import annotations

import random

import pytest
from meja.games.crazy_eights.bots.sim import Sim, greedy_move
from meja.games.crazy_eights.bots.yardsticks import GreedyBot
from meja.games.crazy_eights.rules import Phase
from meja.rules import Card, Rng, get_game

from .helpers import action_of, mask, sim_of

GAME = get_game("crazy_eights")
CASES = [
    ("house", 2, {}),
    ("house", 3, {}),
    ("classic", 2, {}),
    ("classic", 4, {}),
    ("classic", 3, {"drawn_card_play": "optional"}),
    ("party", 3, {}),
    ("party", 7, {}),  # two decks
    ("party", 4, {"starter_eight_chooser": "first_player"}),
]


def _agree(state: object, sim: Sim) -> None:
    assert [mask(h) for h in state.hands] == sim.hands  # type: ignore[attr-defined]
    assert int(state.discard[-1]) == sim.top  # type: ignore[attr-defined]
    assert int(state.active_suit) == sim.active  # type: ignore[attr-defined]
    assert mask(state.discard[:-1]) == sim.disc  # type: ignore[attr-defined]
    assert [int(c) for c in state.stock] == sim.stock  # type: ignore[attr-defined]


@pytest.mark.parametrize(("preset", "seats", "overrides"), CASES)
def test_random_playouts_agree_with_the_engine(preset: str, seats: int, overrides: dict[str, str]) -> None:
    options = GAME.options(preset, **overrides)
    rnd = random.Random(f"{preset}/{seats}")
    steps = reshuffles = 0
    for game_no in range(12):
        state = GAME.new_match(options, seats, 1000 + game_no).state
        sim = sim_of(state)
        while state.phase in (Phase.PLAY, Phase.CHOOSE_SUIT):
            seat = state.awaiting()[0]
            assert seat == sim.actor()
            legal = [action_of(m) for m in state.legal_actions(seat)]
            assert sorted(sim.legal()) == sorted(legal)
            move = state.legal_actions(seat)[rnd.randrange(len(legal))]
            tr = state.apply(seat, move)
            state = tr.state
            if any(e.kind == "reshuffle" for e in tr.events):
                # The engine's order comes from the round's secret seed: hand the simulator the
                # new stock (with the card just drawn back on top), so it need not reshuffle.
                reshuffles += 1
                drawn = next(e.data["card"] for e in tr.events if e.kind == "draw" and "card" in e.data)
                sim.disc = 0
                sim.stock = [int(c) for c in state.stock] + [int(Card.parse(drawn))]
            sim.apply(action_of(move))
            steps += 1
            if state.phase in (Phase.PLAY, Phase.CHOOSE_SUIT):
                _agree(state, sim)
                assert state.draws == sim.draws
        assert state.last_round is not None
        assert sim.winner == state.last_round.winner
    assert steps > 200
    if preset == "house":
        assert reshuffles > 0  # the reshuffle path was exercised


@pytest.mark.parametrize(("preset", "seats", "overrides"), CASES)
def test_greedy_playout_matches_the_greedy_yardstick(preset: str, seats: int, overrides: dict[str, str]) -> None:
    """The inlined greedy of :func:`meja.bots.sim.playout` plays the same round as :class:`GreedyBot`."""
    options = GAME.options(preset, **overrides)
    bot = GreedyBot()
    compared = 0
    for game_no in range(25):
        tr = GAME.new_match(options, seats, 5000 + game_no)
        state = tr.state
        start = sim_of(state)
        stepper = sim_of(state)
        reshuffled = False
        while state.phase in (Phase.PLAY, Phase.CHOOSE_SUIT):
            seat = state.awaiting()[0]
            move = bot.choose(state.view(seat), [], Rng(0))
            assert action_of(move) == greedy_move(stepper)
            tr = state.apply(seat, move)
            reshuffled |= any(e.kind == "reshuffle" for e in tr.events)
            state = tr.state
            if reshuffled:
                break
            stepper.apply(action_of(move))
        if reshuffled:
            continue  # the simulator's own reshuffle order differs from the secret one
        assert state.last_round is not None
        assert start.run_greedy(rseed=0)[0] == state.last_round.winner
        assert start.hands == [mask(h) for h in state.last_round.hands]
        compared += 1
    assert compared >= 10
