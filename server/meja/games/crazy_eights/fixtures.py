"""The golden frames of the Crazy Eights section of the protocol (``PROTOCOL.md`` beside this file).

Written to ``fixtures/`` by ``client-protocol/tools/make_fixtures.py``: one
frame per kind of action, a host request naming a deal, and the error the rules
give for a card that does not match (the engine's own message, from a stacked
deal).
"""

from __future__ import annotations

from typing import Final

from meja.games.plugin import Act, Host, Refused, fixture_frames, refusal

from . import dealcode
from .rules import GAME, Move

__all__ = ["frames"]

#: a classic 2-seat deal (seat 1 leads, round seed 12345), as a host would type it
DEAL_CODE = dealcode.encode(dealcode.DealSpec("classic", 2, 1, 12345))


def _illegal_message() -> str:
    state = GAME.stacked("house", hands=["KS 4C", "2D 3D"], discard="7H")
    return refusal(state, 0, Move.play("KS"))


#: The client's act frames: name, description, request id, version, action.
ACTS: list[Act] = [
    ("act_play", "play a card", 11, 42, {"kind": "play", "card": "7H"}),
    ("act_play_eight", "play the 8 of hearts and name spades", 12, 42, {"kind": "play", "card": "8H", "suit": "S"}),
    ("act_draw", "draw a card", 13, 43, {"kind": "draw"}),
    ("act_pass", "pass (only when the rules allow it)", None, 44, {"kind": "pass"}),
    ("act_suit", "name the suit (the choose_suit phase)", 14, 45, {"kind": "suit", "suit": "D"}),
    ("act_ready", "ready for the next round", 15, 80, {"kind": "ready"}),
]  # fmt: skip


#: The client's host requests: name, description, request id, fields.
HOSTS: list[Host] = [
    ("host_deal_code", "host a classic table whose round 1 is a given deal", "h-1",
     {"options": {"preset": "classic", "target": 50}, "deal_code": DEAL_CODE}),
]  # fmt: skip
#: The rules' refusals: name, description, message, the refused request's id.
REFUSED: list[Refused] = [
    ("error_illegal", "a card that matches neither the active suit nor the top card's rank", _illegal_message, 11),
]
frames: Final = fixture_frames("crazy_eights", ACTS, HOSTS, REFUSED)
