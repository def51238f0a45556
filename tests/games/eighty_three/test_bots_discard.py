"""The hard bot's discard phase (:mod:`meja.games.eighty_three.bots.discard`): candidates valid, a plan searched
once and handed in step by step, and the team's high trump kept when the team must shed one."""

from __future__ import annotations

import random

from meja.bots.base import decision_rng
from meja.games.eighty_three.bots import make_bot
from meja.games.eighty_three.bots.common import read_seen
from meja.games.eighty_three.bots.discard import candidates, search_discard
from meja.games.eighty_three.rules import ESUIT, PLAIN, auto_decision, decision_problems

from .e83_helpers import DONE, GAME, Kind, Phase, act, cards


def _bot() -> object:
    return make_bot("hard", playouts=24, bid_playouts=24, discard_worlds=24, discard_draws=48, deadline=None)


def test_the_candidates_are_valid_and_auto_arrange_comes_first() -> None:
    rnd = random.Random(3)
    checked = 0
    for _ in range(300):
        deck = list(range(53))
        rnd.shuffle(deck)
        trump = rnd.randrange(4)
        # rig some hands heavy in trumps, so that gives and the team's shedding are searched too
        trumps = [c for c in deck if ESUIT[trump][c] == PLAIN]
        plains = [c for c in deck if ESUIT[trump][c] != PLAIN]
        k = rnd.randrange(0, 12)
        hand = (trumps[:k] + plains)[: rnd.choice((12, 17))]
        partner = [c for c in trumps[k:] + plains if c not in hand][:12]
        got = candidates(hand, partner, trump)
        assert got[0] == auto_decision(hand, trump)
        assert len({(frozenset(d), frozenset(g)) for d, g in got}) == len(got)
        for discards, gives in got:
            assert not decision_problems(hand, partner, trump, discards, gives)
        checked += len(got)
    assert checked > 900  # most positions have several candidates


def _discard_state() -> object:
    """Seat 0 won at 50 in spades and holds A K Q 10 9 4 and the joker; its partner holds two trumps.

    Seat 0 keeps six trumps and gives its partner one (4.6.3, 4.6.4): which one is the choice.
    """
    hands = [
        "AS KS QS 10S 9S 4S JK AH KH QH AD KD QD AC 2H 3H 4H",
        "JS 8S 7S 6S 5H 6H 7H 8H 9H 10H JH 2D",
        "5S 5C 3D 4D 6D 7D 8D 9D 10D JD QC KC",
        "3S 2S JC 10C 9C 8C 7C 6C 4C 3C 2C 5D",
    ]
    return GAME.stacked(hands=hands, phase="discard", bidder=0, bid=50, trump="S")


def test_the_bidder_keeps_its_ace_of_trumps() -> None:
    """Handing the partner the ace (or the king) loses the tricks that draw the opponents' trumps."""
    state = _discard_state()
    ace, king = cards("AS KS")
    view = state.view(0)  # type: ignore[attr-defined]
    hand = sorted(cards(" ".join(view.data["hand"])))
    offered = candidates(hand, list(state.hands[2]), 0)  # type: ignore[attr-defined]
    give_ace = next(i for i, (_, gives) in enumerate(offered) if gives == (ace,))
    bot = _bot()
    seen = read_seen(view, [])
    rnd = random.Random(1)
    worlds = [bot.discard_world(seen, hand, rnd) for _ in range(40)]  # type: ignore[attr-defined]
    (_, gives), margins, n = search_discard(seen, hand, worlds, 12, lambda: False)
    assert n == 40
    assert ace not in gives and king not in gives
    assert margins[give_ace] < max(margins) - 20  # the search saw why


def test_the_plan_is_searched_once_and_handed_in_step_by_step() -> None:
    state = _discard_state()
    bot = _bot()
    seat = 0
    steps = []
    while not state.decided[seat]:  # type: ignore[attr-defined]
        view = state.view(seat)  # type: ignore[attr-defined]
        move = bot.choose(view, [], decision_rng(state, seat))  # type: ignore[attr-defined]
        # a fresh bot (another worker process) asked at the same point takes the same step
        assert _bot().choose(view, [], decision_rng(state, seat)) == move  # type: ignore[attr-defined]
        assert move.kind in (Kind.DISCARD, Kind.GIVE, Kind.DONE), move
        steps.append(move)
        state = act(state, seat, move).state  # type: ignore[arg-type]
    assert steps[-1] == DONE
    assert len(steps) == 12  # 11 cards leave the 17, then done
    discards = [s.arg for s in steps if s.kind == Kind.DISCARD]
    gives = [s.arg for s in steps if s.kind == Kind.GIVE]
    start, partner = _discard_state().hands[0], _discard_state().hands[2]  # type: ignore[attr-defined]
    assert not decision_problems(start, partner, 0, discards, gives)
    assert (tuple(sorted(discards)), tuple(sorted(gives))) == bot._plans[seat][1]  # type: ignore[attr-defined]


def test_hard_seats_arrange_valid_hands_through_the_engine() -> None:
    bots = [_bot(), make_bot("normal"), _bot(), make_bot("normal")]
    searched = 0
    for seed in range(3):
        state = GAME.new_match("standard", 4, 700 + seed).state
        while state.phase <= Phase.TRIM:
            seat = state.awaiting()[0]
            move = bots[seat].choose(state.view(seat), [], decision_rng(state, seat))  # type: ignore[attr-defined]
            assert move in state.legal_actions(seat)
            if state.phase == Phase.DISCARD and move.kind != Kind.AUTO:
                searched += 1
            state = state.apply(seat, move).state
        assert all(len(h) == 6 for h in state.hands)
    assert searched > 0
