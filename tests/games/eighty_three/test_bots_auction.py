"""The hard bot's auction (:mod:`meja.games.eighty_three.bots.auction`): calls read as evidence, calls searched."""

from __future__ import annotations

import random

from meja.games.eighty_three.bots import make_bot
from meja.games.eighty_three.bots.auction import (
    CallModel,
    auction_candidates,
    call_weight,
    draw_styles,
    finish_auction,
    play_weight,
    search_call,
    strength,
    style_likelihoods,
    weighted_worlds,
)
from meja.games.eighty_three.bots.common import Seen
from meja.games.eighty_three.bots.worlds import auction_world
from meja.games.eighty_three.bots.yardstick import estimate
from meja.games.eighty_three.rules import PASS, Action, parse_cards

MODEL = CallModel(boldness=12.0, partner_gap=10.0, spread=8.0)
WEAK = list(parse_cards("2S 3S 4S 6S 2H 3H 4H 6H 2D 3D 4D 6D"))


def _seen(hand: list[int], seat: int, dealer: int, calls: list[tuple[int, int]]) -> Seen:
    return Seen(
        seat=seat, phase="auction", hand=hand, trump=-1, bidder=-1, bid=0, dealer=dealer,
        high_bid=max((b for _, b in calls), default=0), hand_counts=[12, 12, 12, 12], calls=calls,
    )  # fmt: skip


def test_strength_is_the_yardstick_estimate_of_the_best_suit() -> None:
    rnd = random.Random(3)
    for _ in range(20):
        hand = rnd.sample(range(53), 12)
        assert abs(strength(hand) - max(estimate(hand, s) for s in range(4))) < 1e-9


def test_a_bid_is_likelier_with_a_strong_hand_and_a_pass_with_a_weak_one() -> None:
    strong = list(parse_cards("AS KS 10S 9S 5S 5C JK 2H 3H 4H 6D 7D"))
    assert strength(strong) > 70 and strength(WEAK) == 20.0
    others = [list(parse_cards("AH KH QH JH 10H 9H 8H 7H AD KD QD JD"))] * 2
    bid = [(1, 55)]  # seat 1 bid 55; seat 0 (me) has not called
    weight = call_weight([WEAK, strong, *others], bid, 0, 3, MODEL)
    assert weight > 10 * call_weight([WEAK, WEAK, *others], bid, 0, 3, MODEL)
    passed = [(1, 0)]
    assert call_weight([WEAK, WEAK, *others], passed, 0, 3, MODEL) > 20 * call_weight(
        [WEAK, strong, *others], passed, 0, 3, MODEL
    )
    # a forced dealer's bid says nothing of its hand (4.5.5)
    forced = [(1, 0), (2, 0), (3, 0), (0, 30)]
    assert call_weight([strong, WEAK, WEAK, WEAK], forced, 1, 0, MODEL) == call_weight(
        [WEAK, WEAK, WEAK, WEAK], forced, 1, 0, MODEL
    )


def test_weighted_worlds_put_the_strength_with_the_bidders() -> None:
    me, rnd = 0, random.Random(7)
    seen = _seen(WEAK, me, 0, [(1, 0), (2, 70), (3, 0)])  # seat 1 passed at 30, seat 2 bid 70

    def mean_strength(worlds: list[tuple[list[list[int]], list[int]]], seat: int) -> float:
        return sum(strength(h[seat]) for h, _ in worlds) / len(worlds)

    uniform = [auction_world(WEAK, me, rnd) for _ in range(200)]
    weighted = weighted_worlds(seen, MODEL, 400, 200, rnd, lambda: auction_world(WEAK, me, rnd))
    assert len(weighted) == 200
    assert mean_strength(weighted, 2) > mean_strength(uniform, 2) + 5
    assert mean_strength(weighted, 1) < mean_strength(uniform, 1) - 4
    assert all(h[me] == WEAK for h, _ in weighted)


def test_the_auction_ends_as_the_rules_say() -> None:
    hands = [WEAK] * 4
    power = [strength(h) for h in hands]
    # seat 1 (dealer 0) passes after two passes: the dealer is forced to 30 (4.5.5)
    assert finish_auction(hands, [(1, 0), (2, 0)], 3, 0, 0, MODEL, power) == (0, 30)
    # a limit of 45 against seat 0 whose limit is 20 + 12: seat 0 bids 31, seat 3 32, seat 0 passes
    assert finish_auction(hands, [(1, 0), (2, 0)], 3, 45, 0, MODEL, power) == (3, 32)
    assert finish_auction(hands, [(1, 0), (2, 0)], 3, 31, 0, MODEL, power) == (0, 31)
    # 83 ends the auction at once (4.5.4)
    assert finish_auction(hands, [(1, 82)], 2, 83, 0, MODEL, power) == (2, 83)
    assert auction_candidates([40, 41, 42], (0, 4, 60)) == [0, 40, 44, 83]


def test_play_worlds_weigh_the_bidders_trumps() -> None:
    # spades trump, seat 1 won at 60: a world that gives it the top trumps weighs more
    seen = _seen(WEAK[:6], 0, 3, [(1, 60), (2, 0), (3, 0)])
    seen.trump, seen.bidder, seen.bid, seen.phase = 0, 1, 60, "play"
    rich = list(parse_cards("AS KS 10S 9S 5C JK"))
    poor = list(parse_cards("7S 8S 2C 3C 4C 6C"))
    rest = list(parse_cards("7H 8H 9H 10H JH QH"))
    assert play_weight([WEAK[:6], rich, rest, poor], seen, MODEL, 5.0) > 5 * play_weight(
        [WEAK[:6], poor, rest, rich], seen, MODEL, 5.0
    )


def test_the_search_values_a_strong_hand_s_contract_over_defending() -> None:
    strong = list(parse_cards("AS KS 10S 9S 5S 5C JK 2H 3H 4H 6D 7D"))
    bot = make_bot("hard", deadline=None)
    best: dict[str, float] = {}
    for name, hand in (("strong", strong), ("weak", WEAK)):
        seen = _seen(hand, 2, 3, [(0, 0), (1, 35)])  # the partner passed, an opponent bid 35
        rnd = random.Random(5)
        worlds = weighted_worlds(seen, bot.model, 240, 120, rnd, lambda h=hand, r=rnd: auction_world(h, 2, r))
        limit, margins, n = search_call(seen, [0, 36, 46, 56, 70], bot.model, worlds, lambda: False)
        assert n == 120
        best[name] = max(margins)
        if name == "strong":
            assert limit >= 46 and max(margins[1:]) > margins[0] + 20  # its contract is worth far more than defending
    assert best["strong"] > best["weak"] + 40


def test_a_seats_calls_tell_how_boldly_it_bids() -> None:
    """Three styles (boldness 0, 12, 24): a weak hand's bid of 40 says 'bold', a fair hand's pass 'timid'."""
    model = CallModel(boldness=12.0, partner_gap=10.0, spread=4.0, style_spread=12.0)
    assert model.styles == (0.0, 12.0, 24.0)
    fair = list(parse_cards("AS QS 9S 2S 3H 4H 6H 2D 3D 4D 6D 7C"))  # strength 35.5
    assert strength(fair) == 35.5
    hands = [WEAK, WEAK, fair, WEAK]
    calls = [(1, 40), (2, 0)]  # seat 1 (weak) bid 40, seat 2 (fair) passed at 41
    rows = style_likelihoods(hands, calls, 0, 3, model)
    assert rows[1][2] > 10 * rows[1][0] and rows[2][0] > 10 * rows[2][2]
    assert rows[0] == [1.0, 1.0, 1.0] and rows[3] == [1.0, 1.0, 1.0]  # no calls: nothing learnt
    rnd = random.Random(4)
    drawn = [draw_styles(hands, calls, 0, 3, model, rnd) for _ in range(200)]
    assert sum(d[1] == 24.0 for d in drawn) > 130 and sum(d[2] == 0.0 for d in drawn) > 130
    assert {d[3] for d in drawn} == {0.0, 12.0, 24.0}
    # the weight of a world is the mean over the styles, seat by seat
    assert abs(call_weight(hands, calls, 0, 3, model) - (sum(rows[1]) / 3) * (sum(rows[2]) / 3)) < 1e-12
    # one style: the former model, and nothing drawn
    one = CallModel(boldness=12.0, partner_gap=10.0, spread=4.0)
    assert draw_styles(hands, calls, 0, 3, one, rnd) == [12.0] * 4


def test_with_the_guard_a_weak_hand_passes_after_an_opponents_bid() -> None:
    """Partner passed, an opponent bid 35: bidding on WEAK only bets that the opponents outbid it.

    With ``guard=0`` no limit goes above the highest bid at which its own contract's mean
    margin is at least 0; without it, the search bids on, counting on the others to outbid it.
    """
    legal = [Action.bid(v) for v in range(36, 84)] + [PASS]
    seen = _seen(WEAK, 2, 3, [(0, 0), (1, 35)])
    guarded = make_bot("hard", deadline=None, guard=0.0)
    assert guarded.bid(seen, legal, random.Random(5)) == PASS  # type: ignore[attr-defined]
    unguarded = make_bot("hard", deadline=None, guard=None)
    assert unguarded.bid(seen, legal, random.Random(5)) == legal[0]  # type: ignore[attr-defined]
    # a strong hand still competes
    strong = list(parse_cards("AS KS 10S 9S 5S 5C JK 2H 3H 4H 6D 7D"))
    assert guarded.bid(_seen(strong, 2, 3, [(0, 0), (1, 35)]), legal, random.Random(5)) == legal[0]  # type: ignore[attr-defined]
