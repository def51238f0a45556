"""The hard bot's auction, two measured options (docs/bots.md 4): a bid shown better than a pass
(``bid_edge``), and a seat's bids read as one piece of evidence (``last_bids``)."""

from __future__ import annotations

import random

from meja.bots.base import decision_rng
from meja.games.eighty_three.bots import make_bot
from meja.games.eighty_three.bots.auction import CallModel, search_call, style_likelihoods, weighted_worlds
from meja.games.eighty_three.bots.worlds import auction_world
from meja.games.eighty_three.rules import PASS, Action, Phase, parse_cards

from ..test_bots import Recorder, _permuted
from ..test_bots_auction import WEAK, _seen

STRONG = list(parse_cards("AS KS 10S 9S 5S 5C JK 2H 3H 4H 6D 7D"))
FAIR = list(parse_cards("AS QS 9S 2S 3H 4H 6H 2D 3D 4D 6D 7C"))


def test_with_last_bids_a_bidding_war_weighs_as_its_last_bid() -> None:
    every = CallModel(boldness=12.0, partner_gap=10.0, spread=8.0, style_spread=12.0)
    last = CallModel(boldness=12.0, partner_gap=10.0, spread=8.0, style_spread=12.0, last_only=True)
    hands = [WEAK, FAIR, WEAK, WEAK]
    war = [(1, 40), (2, 41), (3, 0), (1, 42), (2, 43), (1, 44), (2, 45), (1, 46)]
    alone = [(1, 46)]
    rows_last = style_likelihoods(hands, war, 0, 3, last)
    # seat 1's five raises say what its last says (the need it met then: 46 over seat 2's 45)
    assert rows_last[1] == style_likelihoods(hands, [(2, 45), (1, 46)], 0, 3, every)[1]
    # counted call by call, they say far more: its hand must be far stronger than the last bid needs
    assert style_likelihoods(hands, war, 0, 3, every)[1][0] < 0.5 * rows_last[1][0]
    # a pass still counts (seat 3 passed at 42)
    assert rows_last[3] == style_likelihoods(hands, war, 0, 3, every)[3] != [1.0, 1.0, 1.0]
    assert style_likelihoods(hands, alone, 0, 3, last) == style_likelihoods(hands, alone, 0, 3, every)


def test_bid_edge_asks_a_bid_to_beat_the_pass_by_its_standard_error() -> None:
    """The weak hand bids on after an opponent's 35 only as a bet that the others outbid it (edge 0);
    asked to show the bid better by three standard errors, it passes; a strong hand still bids."""
    legal = [Action.bid(v) for v in range(36, 84)] + [PASS]
    calls = [(0, 0), (1, 35)]
    assert make_bot("hard", deadline=None).bid(_seen(WEAK, 2, 3, calls), legal, random.Random(5)) == legal[0]  # type: ignore[attr-defined]
    careful = make_bot("hard", deadline=None, bid_edge=3.0)
    assert careful.bid(_seen(WEAK, 2, 3, calls), legal, random.Random(5)) == PASS  # type: ignore[attr-defined]
    assert careful.bid(_seen(STRONG, 2, 3, calls), legal, random.Random(5)) == legal[0]  # type: ignore[attr-defined]


def test_a_negative_edge_keeps_a_bid_not_shown_worse() -> None:
    seen = _seen(WEAK, 2, 3, [(0, 0), (1, 70)])
    bot = make_bot("hard", deadline=None)
    rnd = random.Random(3)
    worlds = weighted_worlds(seen, bot.model, 240, 60, rnd, lambda: auction_world(WEAK, 2, rnd))
    plain, margins, _ = search_call(seen, [0, 71, 75], bot.model, worlds, lambda: False)
    assert plain == 0 and max(margins[1:]) < margins[0]  # 71 on a weak hand against a 70 loses
    bold, _, _ = search_call(seen, [0, 71, 75], bot.model, worlds, lambda: False, edge=-100.0)
    assert bold in (71, 75)
    shown, _, _ = search_call(seen, [0, 71, 75], bot.model, worlds, lambda: False, edge=0.5)
    assert shown == 0


def test_with_both_options_the_bid_depends_only_on_what_the_seat_sees() -> None:
    """The invariance test of test_bots.py for the auction with both options on: the cards the
    seat cannot see shuffled, the same view, history and rng give the same call."""
    bot = make_bot("hard", playouts=48, bid_playouts=24, deadline=None, bid_edge=1.0, last_bids=True)
    rnd = random.Random(11)
    checked = 0
    for seed in range(3):
        rec = Recorder(3000 + seed, [bot] * 4)
        asked = 0
        while rec.state.phase == Phase.AUCTION and asked < 4:
            state = rec.state
            seat = state.awaiting()[0]
            view = state.view(seat)
            if len(view.legal) > 1:
                rng = decision_rng(state, seat)
                move = bot.choose(view, rec.history[seat], rng)
                other = _permuted(state, seat, rnd)
                assert other.hands != state.hands and other.view(seat) == view
                assert bot.choose(other.view(seat), list(rec.history[seat]), rng) == move
                checked += 1
                asked += 1
            rec.step()
    assert checked >= 6
