"""The hard bot values a hand in the match (issue 23 point 2): near the end a playout that ends the
match is a win or a loss, as the rules decide it (4.8.4, with ``must_win_on_own_bid`` 4.10.7); far
from the end the hand margin, the same decisions as without; and the forced dealer's bid (4.5.5) is
searched."""

from __future__ import annotations

import random

from meja.bots.base import decision_rng
from meja.games.eighty_three.bots import make_bot
from meja.games.eighty_three.bots.auction import Match, match_value
from meja.games.eighty_three.bots.sim import margin
from meja.games.eighty_three.rules import PASS, Action, Phase, parse_cards

from ..test_bots import Recorder
from ..test_bots_auction import WEAK, _seen

FAIR = list(parse_cards("AS QS 9S 2S 3H 4H 6H 2D 3D 4D 6D 7C"))


def _data(scores: tuple[int, int], own_bid: bool) -> dict[str, object]:
    return {"scores": list(scores), "target": 200, "must_win_on_own_bid": own_bid}


def test_the_match_is_won_as_the_rules_say() -> None:
    # team 0 at 190 defends a 40 of team 1 (bidder seat 1) and takes 10: over 200 (4.8.4) ...
    assert Match((190, 0), False, 200.0).winner([10, 73], 1, 40) == 0
    # ... but not on its own bid (4.10.7): the hand ends nothing, its value is the margin
    own = Match((190, 0), True, 200.0)
    assert own.winner([10, 73], 1, 40) == -1
    assert own.value([10, 73], 0, 1, 40) == margin([10, 73], 0, 1, 40)
    # the bidders made their bid and both teams are over: the bidders win (4.8.4)
    assert Match((190, 190), False, 200.0).winner([30, 53], 1, 50) == 1
    # a failed bid is taken off; the defenders over win, except on must_win_on_own_bid
    assert Match((190, 190), False, 200.0).winner([30, 53], 1, 60) == 0
    assert Match((190, 190), True, 200.0).winner([30, 53], 1, 60) == -1
    # with must_win_on_own_bid a made bid that reaches 200 wins: +win for them, -win for the others
    m = Match((0, 150), True, 200.0)
    assert m.value([30, 53], 1, 1, 50) == 200.0 and m.value([30, 53], 0, 1, 50) == -200.0
    # no hand can end the match: the value is the margin itself, for any option
    for own_bid in (False, True):
        assert match_value(_data((100, 116), own_bid), 200.0) is margin
        assert match_value(_data((100, 117), own_bid), 200.0) is not margin
    assert match_value(_data((190, 0), True), 0.0) is margin  # turned off


def test_at_190_of_200_with_must_win_on_own_bid_hard_bids_where_the_margin_passes() -> None:
    """A fair hand over an opponent's 55 (and a weak one over 65): by the hand's margin a bid is
    worse than the pass; at 190 on must_win_on_own_bid its team can only win the match on its own
    contract, which the search now values, and it bids. (Its partner read as normal plays: with
    ``timid_partner``, the partner's pass reads as a weak player's and the fair hand bids on by
    the margin too.)"""
    hard = make_bot("hard", deadline=None, timid_partner=False)
    off = make_bot("hard", deadline=None, match_value=False, timid_partner=False)
    data = _data((190, 0), True)
    for hand, high in ((FAIR, 55), (WEAK, 65)):
        legal = [Action.bid(v) for v in range(high + 1, 84)] + [PASS]
        seen = _seen(hand, 2, 3, [(0, 0), (1, high)])
        assert off.bid(seen, legal, random.Random(5), off.value(data)) == PASS  # type: ignore[attr-defined]
        assert hard.bid(seen, legal, random.Random(5), margin) == PASS  # type: ignore[attr-defined]
        assert hard.bid(seen, legal, random.Random(5), hard.value(data)) == legal[0]  # type: ignore[attr-defined]


def test_at_190_without_the_option_a_weak_hand_defends_where_the_margin_bids() -> None:
    """The reverse: at 190 without must_win_on_own_bid the defenders' ten points win the match, so
    the weak hand leaves the opponents' 55 where by the margin it bids on (hoping to be outbid).
    (Its partner read as normal plays, as above.)"""
    hard = make_bot("hard", deadline=None, timid_partner=False)
    legal = [Action.bid(v) for v in range(56, 84)] + [PASS]
    seen = _seen(WEAK, 2, 3, [(0, 0), (1, 55)])
    assert hard.bid(seen, legal, random.Random(5), margin) == legal[0]  # type: ignore[attr-defined]
    assert hard.bid(seen, legal, random.Random(5), hard.value(_data((190, 0), False))) == PASS  # type: ignore[attr-defined]


def test_far_from_the_end_every_search_is_the_same_as_the_margins() -> None:
    """Both teams more than 83 below the target: every searched decision (auction, trump, discard,
    play) gives the same whole search with the match value on and off, must_win_on_own_bid on."""
    on = make_bot("hard", playouts=48, bid_playouts=24, trump_playouts=48, discard_worlds=8, deadline=None)
    off = make_bot(
        "hard", playouts=48, bid_playouts=24, trump_playouts=48, discard_worlds=8, deadline=None, match_value=False
    )
    phases: set[str] = set()
    searched = 0
    for seed in range(2):
        rec = Recorder(4100 + seed, [on] * 4)
        while rec.state.phase != Phase.HAND_OVER and searched < 40:
            state = rec.state
            seat = state.awaiting()[0]
            view = state.view(seat)
            view.data["must_win_on_own_bid"] = True
            view.data["scores"] = [100, 116]
            rng = decision_rng(state, seat)
            move = on.choose(view, rec.history[seat], rng)
            first = on.last
            off._plans.clear()  # type: ignore[attr-defined]
            assert off.choose(view, rec.history[seat], rng) == move
            if first is not None and len(view.legal) > 1:
                assert off.last is not None and off.last.means == first.means
                phases.add(view.data["phase"])
                searched += 1
            on.last = off.last = None
            tr = state.apply(seat, move)
            rec.state = tr.state
            rec.deliver(tr.events)
    assert searched >= 20 and {"auction", "play"} <= phases


def test_the_forced_dealer_searches_its_bid() -> None:
    """4.5.5: the three others passed. The dealer's bid is a search over bids (the lowest plus each
    of ``limits``) on the same worlds: its contract's capture does not depend on the bid, so a higher
    bid is never worth more, and the lowest is chosen, in the match too; off, the rule, no search."""
    calls = [(0, 0), (1, 0), (2, 0)]
    legal = [Action.bid(v) for v in range(30, 84)]
    hard = make_bot("hard", deadline=None)
    for value in (margin, hard.value(_data((190, 150), True)), hard.value(_data((150, 190), False))):  # type: ignore[attr-defined]
        for hand in (WEAK, FAIR):
            assert hard.forced_bid(_seen(hand, 3, 3, calls), legal, random.Random(7), value) == legal[0]  # type: ignore[attr-defined]
            result = hard.last
            assert result is not None and result.worlds == hard.bid_playouts  # type: ignore[attr-defined]
            assert list(result.candidates) == [30, 34, 38, 42, 46, 54, 66]
            assert result.spent == result.worlds  # one playout per world, shared by every bid
            assert all(a >= b for a, b in zip(result.means, result.means[1:], strict=False))
    rule = make_bot("hard", deadline=None, forced_search=False)
    assert rule.bid(_seen(FAIR, 3, 3, calls), legal, random.Random(7)) == legal[0]  # type: ignore[attr-defined]
    assert rule.last is None
