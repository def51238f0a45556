"""The hard search's playout (meja.games.kartu_terakhir.bots.playout): the candidate played by the
playout itself, and the stock shared out per seat.

``playout(state, first=m)`` must be exactly ``playout(state.apply(seat, m).state)`` (the search no
longer builds an engine state for each candidate); ``split=True`` must hand each seat its own share
of the stock and keep every card where it can be.
"""

from __future__ import annotations

import random

import pytest
from meja.games.kartu_terakhir.bots.playout import playout
from meja.games.kartu_terakhir.rules import DRAW, PLAYABLE, SYM, KartuTerakhirState, Phase

from ..test_kt_bots import _states_along_a_game


def _states(seats: int, stacking: bool, rnd: random.Random, rounds: int = 2) -> list[KartuTerakhirState]:
    """Every state of some rounds played by uniformly random turn actions (the playout test's rounds)."""
    return [state for _ in range(rounds) for state in _states_along_a_game(seats, stacking, rnd)]


@pytest.mark.parametrize("stacking", [False, True])
@pytest.mark.parametrize("seats", [2, 4, 7])
def test_a_first_play_is_the_engines_own(seats: int, stacking: bool) -> None:
    """Every legal play from every state of random rounds, made by the playout: the same winner,
    points, hands and actions as the engine's ``apply`` followed by the playout; a play that goes
    out scores the engine's own points."""
    rnd = random.Random(f"first/{seats}/{stacking}")
    compared = outs = 0
    for state in _states(seats, stacking, rnd, 6):
        if state.phase != Phase.PLAY:
            continue
        for m in state.legal_actions(state.turn):
            if m >= int(DRAW):
                break
            seed = rnd.getrandbits(64)
            cap = rnd.choice((600, rnd.randrange(1, 30)))
            after = state.apply(state.turn, m).state
            mine = playout(state, seed, cap, first=m)
            if after.phase > Phase.REACT:
                lr = after.last_round
                assert lr is not None and mine[:2] == (lr.winner, lr.points) and mine[3] == 0
                outs += 1
                continue
            assert mine == playout(after, seed, cap)
            compared += 1
    assert compared > 500 and outs > 0


@pytest.mark.parametrize("seats", [2, 4, 7])
def test_split_hands_each_seat_its_own_share_of_the_stock(seats: int) -> None:
    """With ``split``, a seat stuck on its turn draws the last card of its share of the stock
    (every ``seats``-th card from its seat number; its share spent, the largest other share's), not
    the top of the stock; and however the round
    goes, no card is ever in two hands."""
    rnd = random.Random(f"split/{seats}")
    stuck = played = 0
    for state in _states(seats, False, rnd, 3):
        if state.phase != Phase.PLAY:
            continue
        seed = rnd.getrandbits(64)
        _, _, hands, _ = playout(state, seed, 600, split=True)
        ids = [c for h in hands for c in h]
        assert len(ids) == len(set(ids))
        played += 1
        s = state.turn
        playable = PLAYABLE[state.colour * 15 + SYM[state.discard[-1]]]
        if state.pending or state.drawn >= 0 or any(playable[c] for c in state.hands[s]) or not state.stock:
            continue
        _, _, hands, steps = playout(state, seed, 1, split=True)
        share = state.stock[s::seats] or max((state.stock[k::seats] for k in range(seats)), key=len)
        assert steps == 1 and sorted(hands[s]) == sorted((*state.hands[s], share[-1]))
        _, _, plain, _ = playout(state, seed, 1)
        assert sorted(plain[s]) == sorted((*state.hands[s], state.stock[-1]))
        stuck += 1
    assert stuck > 5 and played > 100
