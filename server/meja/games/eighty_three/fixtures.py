"""The golden frames of the Eighty-Three section of the protocol (``PROTOCOL.md`` beside this file).

Written to ``fixtures/`` by ``client-protocol/tools/make_fixtures.py`` (once the
game is built in; ``tests/games/eighty_three/test_e83_plugin.py`` writes and
checks them meanwhile): one frame per kind of action, a host request naming a
deal and the option, and errors the rules give from stacked hands (the engine's
own messages).
"""

from __future__ import annotations

from typing import Final

from meja.games.plugin import Act, Host, Refused, fixture_frames, refusal

from . import dealcode
from .rules import GAME, discard, play

__all__ = ["frames"]

#: a deal with seat 2 dealing (seat 3 bids first), hand seed 12345, as a host would type it
DEAL_CODE = dealcode.encode(dealcode.DealSpec(2, 12345))


def _point_trump_message() -> str:
    # hearts trump, seat 0 the bidder at 40: its KH scores 30 and may never be discarded (4.6.5)
    state = GAME.stacked(
        hands=[
            "AH KH QH 2S 3S 4S 6S 7S 8S 9S 10S JS QS KS AS 2C 3C",
            "JH 10H 9H 8H 7H 6H 4C 5C 6C 7C 8C 9C",
            "5H 4H 3H 2H 5D JK 10C JC QC KC AC 2D",
            "3D 4D 6D 7D 8D 9D 10D JD QD KD AD 5S",
        ],
        dealer=3,
        phase="discard",
        bidder=0,
        bid=40,
        trump="H",
    )
    return refusal(state, 0, discard("KH"))


def _follow_message() -> str:
    # spades trump, two tricks played; seat 1 led 9D; seat 2 holds 4D and may not throw a club (4.7.4)
    state = GAME.stacked(
        hands=["AS 8D", "3D", "4D 2C", "KD 3C"],
        dealer=3,
        phase="play",
        bidder=1,
        bid=30,
        trump="S",
        leader=1,
        trick="9D",
        taken=("KS QS JS 10S 9S 8S 7S 6S", "5S 5C 3S 2S JK 4S AH KH"),
    )
    return refusal(state, 2, play("2C"))


#: The client's act frames: name, description, request id, version, action.
ACTS: list[Act] = [
    ("act_bid", "bid 35 in the auction", 21, 4, {"kind": "bid", "value": 35}),
    ("act_pass", "pass in the auction (final: no later bid)", 22, 5, {"kind": "pass"}),
    ("act_trump", "the bidder names hearts trumps", 23, 9, {"kind": "trump", "suit": "H"}),
    ("act_discard", "discard step: a card", 24, 10, {"kind": "discard", "card": "7C"}),
    ("act_give", "discard step: a trump to the partner", 25, 11, {"kind": "give", "card": "QH"}),
    ("act_undo", "take back the last step", 26, 12, {"kind": "undo"}),
    ("act_done", "hand in the decision (down to 6 cards)", 27, 18, {"kind": "done"}),
    ("act_auto_arrange", "the whole decision at once (4.10.6)", 28, 10, {"kind": "auto_arrange"}),
    ("act_play", "play a card to the trick", 29, 40, {"kind": "play", "card": "JK"}),
    ("act_ready", "ready for the next hand", 30, 70, {"kind": "ready"}),
]  # fmt: skip


#: The client's host requests: name, description, request id, fields.
HOSTS: list[Host] = [
    ("host_deal_code", "host a table whose first hand is a given deal, bidders winning only on their own bid", "h-3",
     {"options": {"preset": "standard", "must_win_on_own_bid": True}, "seats": 4, "deal_code": DEAL_CODE}),
]  # fmt: skip
#: The rules' refusals: name, description, message, the refused request's id.
REFUSED: list[Refused] = [
    ("error_point_trump", "a point trump may never be discarded", _point_trump_message, 24),
    ("error_follow", "a seat holding the led suit may not throw a third suit", _follow_message, 29),
]
frames: Final = fixture_frames("eighty_three", ACTS, HOSTS, REFUSED)
