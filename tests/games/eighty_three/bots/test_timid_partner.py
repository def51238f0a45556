"""The auction's playouts may play a seat read as timid the yardstick's way (``timid_partner``).

A seat whose calls draw the model's most timid style in a world (a bidder up to its
hand-points estimate, as the yardstick bids) plays the yardstick's lowest card in that world's
contract playouts; any other seat plays normal's policy. Off by default.
"""

from __future__ import annotations

import random

from meja.games.eighty_three.bots import make_bot
from meja.games.eighty_three.bots.auction import CallSearch, _play_contract, timid_policies, weighted_worlds
from meja.games.eighty_three.bots.sim import lowest_policy, play_policy
from meja.games.eighty_three.bots.worlds import auction_world

from ..test_bots_auction import WEAK, _seen


def test_only_the_seats_asked_for_and_drawn_timid_play_the_lowest_card() -> None:
    assert timid_policies([0.0, 12.0, 24.0, 0.0], (2,), 0.0) is None  # the partner drawn bold
    policies = timid_policies([12.0, 0.0, 0.0, 0.0], (2,), 0.0)
    assert policies is not None
    assert policies[2] is lowest_policy
    assert policies[0] is policies[1] is policies[3] is play_policy  # timid but not asked for


def test_a_timid_partners_contracts_are_played_out_with_its_lowest_card() -> None:
    # Seat 0 (the partner) passed where the lowest bid was 40: the timid style explains that best.
    seen = _seen(WEAK, 2, 3, [(0, 0), (1, 40)])
    bot = make_bot("hard", deadline=None)  # timid_partner on by default
    assert bot.timid_seats(seen) == (0,)
    assert make_bot("hard", deadline=None, timid_partner=False).timid_seats(seen) == ()
    assert make_bot("hard", deadline=None, timid_opponents=True).timid_seats(seen) == (0, 1, 3)
    rnd = random.Random(7)
    pool = weighted_worlds(seen, bot.model, 120, 40, rnd, lambda: auction_world(WEAK, 2, rnd))
    hooks = CallSearch(seen, bot.model, pool, True, timid=bot.timid_seats(seen))
    plain = CallSearch(seen, bot.model, pool, True)
    timid = differs = 0
    for _ in pool:
        world, other = hooks.sample(rnd), plain.sample(random.Random(0))
        assert other.policies is None
        if world.bold is not None and world.bold[0] <= bot.model.styles[0]:
            timid += 1
            assert world.policies is not None and world.policies[0] is lowest_policy
            assert world.policies[1] is world.policies[2] is world.policies[3] is play_policy
        else:
            assert world.policies is None
        cap, bidder, _, cost = hooks.play(world, 0)
        assert cost == 1
        assert cap == _play_contract(world.hands, world.kitty, bidder, world.policies)
        differs += cap != _play_contract(world.hands, world.kitty, bidder)
    assert 0 < timid < len(pool)
    assert differs  # the partner's play changes some contracts' outcome (the test is not blind)
