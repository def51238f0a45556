"""The hard bot's readings of a greedy player (bots/infoset.py ``exact`` and ``named``; off by default).

``exact``: a coloured card played from the hand is read by greedy's whole order (a card that hurts
a next seat at 2 cards or fewer, a colour other than the one it steers from, more points, the lower
name within a colour) also when a seat is near out, where the default reads nothing; and a card
drawn when stuck and not played is one that did not play. ``named``: a seat whose last play was a
Wild named the colour it held most of, not the one it steered from; worlds are dealt to fit it.

Both are soft readings: sound against a player who plays as greedy does (checked here on the true
hands of all-greedy rounds), dropped for a seat once its play contradicts them.
"""

from __future__ import annotations

import random
from typing import Any

from meja.bench.bots import Bench, Tally
from meja.games.kartu_terakhir.bots.common import DRAW, NAME_COLOUR, NAMEIX, NAMEIX_OF
from meja.games.kartu_terakhir.bots.infoset import _tips_exact, _tips_exclude, read_infoset
from meja.games.kartu_terakhir.bots.playout import greedy_colour_of
from meja.games.kartu_terakhir.bots.yardsticks import greedy_choice
from meja.games.kartu_terakhir.rules import IDS_OF, Phase

BENCH = Bench("kartu_terakhir")
_B = 3  # blue


def _bit(name: str) -> int:
    return 1 << NAMEIX_OF[name]


def test_exact_reads_a_play_near_out_by_greedys_order() -> None:
    top = NAMEIX_OF["B3"]
    # nobody near out: the same as the default (dearer playable coloured cards excluded)
    assert _tips_exact(NAMEIX_OF["B5"], _B, top, False, -1, 4) == _tips_exclude(NAMEIX_OF["B5"], _B, top, False)
    # the next seat at 2 cards: greedy would have played a blue Skip or Draw Two first; the default reads nothing
    assert _tips_exclude(NAMEIX_OF["B5"], _B, top, True) == 0
    ex = _tips_exact(NAMEIX_OF["B5"], _B, top, True, -1, 4)
    assert ex & _bit("BS") and ex & _bit("BD2") and ex & _bit("B9") and ex & _bit("BR")
    assert not ex & _bit("B4") and not ex & _bit("R3") and not ex & _bit("G7")  # cheaper, or not playable
    # it played a blue Skip against a threat: no blue Draw Two before it (same key; the lower name wins)
    skip = _tips_exact(NAMEIX_OF["BS"], _B, top, True, -1, 4)
    d2_first = NAMEIX_OF["BD2"] < NAMEIX_OF["BS"]
    assert bool(skip & _bit("BD2")) == d2_first
    # steering from blue (a near-out seat made it active): a playable card of another colour came first
    steer = _tips_exact(NAMEIX_OF["B5"], _B, top, False, _B, 4)
    assert steer & _bit("R3") and steer & _bit("G3") and steer & _bit("B9") and not steer & _bit("B2")
    # a Wild: no coloured card played, as by default
    wild = NAMEIX_OF["W"]
    assert _tips_exact(wild, _B, top, True, _B, 4) == _tips_exclude(wild, _B, top, True)


def test_greedy_colour_of_is_greedys_colour() -> None:
    def ids(*names: str) -> list[int]:
        return [IDS_OF[NAMEIX_OF[n]][0] for n in names]

    hand = ids("R1", "R2", "G9")
    assert greedy_colour_of(hand, -1) == 0
    assert greedy_colour_of(hand, 0) == 2  # it steers from red
    assert greedy_colour_of(ids("W"), -1) == 0 and greedy_colour_of(ids("W"), 0) == 1  # only a Wild left: R, else Y


def _greedy_rounds(seats: int, count: int, start: int, check: Any) -> None:
    """All-greedy rounds; ``check(view, history, state, then)`` at seat 0's turns, ``then`` per seat the hand
    it held (the Wild left out) and the colour it named when its last play was a Wild."""
    then: dict[int, tuple[list[int], int]] = {}

    class Greedy:
        name = "greedy"
        needs_history = True
        blocking = False
        sees_state = True

        def choose(self, view: Any, history: Any, rng: Any, state: Any = None) -> Any:
            if view.seat == 0 and view.seat == view.turn and view.phase == Phase.PLAY and view.hand:
                check(view, history, state, then)
            move = greedy_choice(view, history, rng)
            if move is not None and move < int(DRAW) and view.seat == view.turn:
                if NAME_COLOUR[move // 5] == 4:
                    hand = list(state.hands[view.seat])
                    hand.remove(next(c for c in hand if NAMEIX[c] == move // 5))
                    then[view.seat] = (hand, move % 5)
                else:
                    then.pop(view.seat, None)
            return move

    for code, seed in BENCH.deals(count, "dev", start, seats=seats):
        then.clear()
        tr = BENCH.game.new_match(BENCH.options(), seats, seed, deal_code=code)
        BENCH.play_game(tr.state, tr.events, [Greedy() for _ in range(seats)], ["A"] * seats, Tally())


def test_the_readings_hold_the_true_hands_of_greedy_seats_and_narrow_the_worlds() -> None:
    seen = {"decisions": 0, "named": 0, "narrower": 0, "fit": 0, "fit_default": 0, "worlds": 0}

    def check(view: Any, history: Any, state: Any, then: dict[int, tuple[list[int], int]]) -> None:
        seen["decisions"] += 1
        info = read_infoset(view, history, True, exact=True, named=True)
        base = read_infoset(view, history, True)
        assert info.consistent and not base.named
        for t in range(1, view.seats):
            allowed = 0
            for _, mask in info.groups[t]:
                allowed |= mask
            if info.groups[t]:  # every card it holds is one its groups may hold
                known = {NAMEIX[c] for c in info.known[t]}
                assert all(allowed >> NAMEIX[c] & 1 or NAMEIX[c] in known for c in state.hands[t])
            bits = sum(m.bit_count() * k for k, m in info.groups[t])
            if bits < sum(m.bit_count() * k for k, m in base.groups[t]):
                seen["narrower"] += 1
        for t, colour, avoid, held in info.named:
            seen["named"] += 1
            hand, slot = then[t]
            assert slot == colour and greedy_colour_of(hand, avoid) == colour
            assert len(info.known[t]) + sum(k for k, _ in info.groups[t][:held]) == len(hand)
        if info.named:
            rnd = random.Random(seen["decisions"])
            for _ in range(10):
                for which, reader in (("fit", info), ("fit_default", base)):
                    hands, _, _ = reader.sample(rnd)
                    seen[which] += all(
                        greedy_colour_of(hands[t], a) == c
                        for t, c, a, held in info.named
                        if held == len(info.groups[t])  # (nothing drawn since: the hand now is the hand then)
                    )
                seen["worlds"] += 1

    _greedy_rounds(4, 12, 5000, check)
    _greedy_rounds(6, 6, 5000, check)
    assert seen["decisions"] > 100 and seen["named"] > 20 and seen["narrower"] > 10, seen
    # the worlds fit what greedy named far more often with the reading than without
    assert seen["fit"] > 0.85 * seen["worlds"] and seen["fit"] > seen["fit_default"] + 0.2 * seen["worlds"], seen


def test_off_by_default() -> None:
    from meja.games.kartu_terakhir.bots.search import EXACT, NAMED, SearchBot

    bot = SearchBot()
    assert (EXACT, NAMED, bot.exact, bot.named) == (False, False, False, False)
