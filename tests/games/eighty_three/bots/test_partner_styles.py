"""Another seat's card play read from its plays (sim.read_styles): the yardstick's lowest card or normal's policy.

The hard bot's playouts play every other seat as ``normal`` does unless asked to read the
styles; these tests pin what the reading sees and that a playout follows the styles read.
"""

from __future__ import annotations

import random

from meja.games.eighty_three.bots.common import Seen
from meja.games.eighty_three.bots.sim import (
    lowest_policy,
    play_policy,
    playout,
    read_styles,
    style_likelihoods,
)
from meja.games.eighty_three.rules import parse_cards

HEARTS = 1


def _ids(text: str) -> list[int]:
    return list(parse_cards(text))


def _seen(plays: str, hand: str = "4H 6C 7C 8C 9D") -> Seen:
    """Seat 0's view after one trick, hearts trump, seat 1 the bidder; ``plays``: the trick from seat 1 on."""
    cards = _ids(plays)
    seats = [1, 2, 3, 0]
    return Seen(
        seat=0,
        phase="play",
        hand=_ids(hand),
        trump=HEARTS,
        bidder=1,
        bid=60,
        dealer=0,
        high_bid=60,
        hand_counts=[5, 5, 5, 5],
        calls=[(1, 60), (2, 0), (3, 0), (0, 0)],
        plays=list(zip(seats, cards, strict=True)),
    )


#: the hands now in one world: the partner (seat 2) kept 7H after the trick below
WORLD = [_ids("4H 6C 7C 8C 9D"), _ids("KH QH 10S 9S 8S"), _ids("7H 9C 10C 4S 5S"), _ids("JH 2S 3S 6S 7S")]


def test_a_partner_that_threw_the_joker_under_trumps_led_reads_as_the_yardstick() -> None:
    # The opponent led the AH; the partner, unable to win, threw the JK (18 points) where
    # normal throws its cheapest trump (the 7H): only the yardstick's lowest card explains it.
    seen = _seen("AH JK 2H 3H")
    lik = style_likelihoods(seen, WORLD, 0.1)
    assert lik[2] == [0.1, 1.0]  # (normal, lowest)
    assert lik[0] == [1.0, 1.0]  # the seat itself is not read
    policies, weight = read_styles(seen, WORLD, random.Random(1), (0.5, 0.5), 0.0)
    assert policies[2] is lowest_policy and policies[0] is play_policy
    assert weight > 0
    picks = [read_styles(seen, WORLD, random.Random(i), (0.5, 0.5), 0.1)[0][2] for i in range(200)]
    assert sum(p is lowest_policy for p in picks) > 160


def test_a_partner_that_kept_its_joker_reads_as_normal() -> None:
    world = [list(h) for h in WORLD]
    world[2] = _ids("JK 9C 10C 4S 5S")
    seen = _seen("AH 7H 2H 3H")
    assert style_likelihoods(seen, world, 0.1)[2] == [1.0, 0.1]
    policies, _ = read_styles(seen, world, random.Random(1), (0.5, 0.5), 0.0)
    assert policies[2] is play_policy


def test_a_play_with_one_legal_card_says_nothing() -> None:
    world = [list(h) for h in WORLD]
    world[3] = _ids("2S 3S 6S 7S 8D")  # seat 3 held one trump, the 2H: it had to play it
    seen = _seen("AH JK 2H 3H")
    assert style_likelihoods(seen, world, 0.1)[3] == [1.0, 1.0]


def test_a_playout_plays_each_seat_by_the_style_read() -> None:
    # Seat 1 leads the AH, which nobody can beat: the partner read as the yardstick throws its
    # JK to the opponents; played as normal it throws the 7H and keeps the joker.
    hands = [_ids("4H 6C"), _ids("AH 10S"), _ids("JK 7H"), _ids("2S 3S")]
    policies = [play_policy, play_policy, lowest_policy, play_policy]
    read = playout([list(h) for h in hands], [], 1, HEARTS, set(), [0, 0], policies)
    plain = playout([list(h) for h in hands], [], 1, HEARTS, set(), [0, 0])
    assert read[1] - plain[1] >= 18


def test_the_hard_bots_card_search_plays_each_seat_by_the_style_read_and_weighs_the_world() -> None:
    """``hard:read_plays`` (on by default): the card search reads the styles once a world and its
    playouts follow them; off, every seat plays as normal does and each world weighs 1."""
    from meja.games.eighty_three.bots import make_bot
    from meja.games.eighty_three.bots.search import CardSearch

    seen = _seen("AH JK 2H 3H")
    assert make_bot("hard").read == ((0.5, 0.5), 0.1) and make_bot("hard", read_plays=False).read is None
    hooks = CardSearch(seen, lambda r: [list(h) for h in WORLD], read=((0.5, 0.5), 0.0))
    world = hooks.sample(random.Random(3))
    policies, weight = hooks.styles[id(world)]
    assert policies is not None and policies[2] is lowest_policy
    outcome = hooks.play(world, _ids("9D")[0])
    assert outcome[1] == weight and hooks.evaluate(outcome) == weight * hooks.evaluate((outcome[0], 1.0))
    plain = CardSearch(seen, lambda r: [list(h) for h in WORLD])
    assert plain.play(plain.sample(random.Random(3)), _ids("9D")[0])[1] == 1.0
