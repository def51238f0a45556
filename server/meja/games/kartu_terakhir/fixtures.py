"""The golden frames of the Kartu Terakhir section of the protocol (``PROTOCOL.md`` beside this file).

Written to ``fixtures/`` by ``client-protocol/tools/make_fixtures.py`` once the game
is registered (and checked by ``tests/games/kartu_terakhir/test_kt_plugin.py``
until then): one frame per kind of action, a host request with options and a deal
code, and two errors the rules give, with the engine's own messages from stacked
deals: a card that does not match, and a catch that lost the race.
"""

from __future__ import annotations

from typing import Final

from meja.games.plugin import Act, Host, Refused, fixture_frames, refusal

from . import dealcode
from .rules import CATCH, GAME, Move

__all__ = ["DEAL_CODE", "frames"]

#: a 4-seat deal (seat 3 deals, round seed 12345), as a host would type it
DEAL_CODE = dealcode.encode(dealcode.DealSpec(4, 3, 12345))


def _no_match() -> str:
    # seat 0: G5 B7 <- to act; the top card is R9, red is active: G5 matches neither
    state = GAME.stacked(None, hands=["G5 B7", "Y1 Y2"], discard="R9")
    return refusal(state, 0, Move.play("G5"))


def _late_catch() -> str:
    # seat 0 played to one card; seat 2 caught it first; seat 1's catch comes second
    state = GAME.stacked(None, hands=["R6", "B1 B2 B3", "G1 G2"], discard="R9", stock="Y1 Y2", window=0, turn=1)
    caught = state.apply(2, CATCH).state
    return refusal(caught, 1, CATCH)


#: The client's act frames: name, description, request id, version, action.
ACTS: list[Act] = [
    ("act_play", "play a card", 21, 42, {"kind": "play", "card": "R7"}),
    ("act_play_wild", "play a Wild Draw Four and name green, in one action", 22, 42,
     {"kind": "play", "card": "WD4", "colour": "G"}),
    ("act_draw", "draw a card", 23, 43, {"kind": "draw"}),
    ("act_keep", "keep the card just drawn and end the turn", 24, 44, {"kind": "keep"}),
    ("act_draw_keep", "the turn timer's move, which legal never lists: draw one and end the turn (the server's own: a "
     "client's is refused, action/illegal)", 30, 43, {"kind": "draw_keep"}),
    ("act_timer_take", "the turn timer's take, which legal never lists: take the pending penalty, mandatory "
     "stacking or not (the server's own: a client's is refused, action/illegal)", 31, 46, {"kind": "timer_take"}),
    ("act_pass", "pass (no playable card and nothing to draw)", None, 45, {"kind": "pass"}),
    ("act_take", "take the pending penalty", 25, 46, {"kind": "take"}),
    ("act_challenge", "challenge the Wild Draw Four played on you", 26, 46, {"kind": "challenge"}),
    ("act_call", "call last card", 27, 47, {"kind": "call"}),
    ("act_catch", "catch the player open to a catch", 28, 48, {"kind": "catch"}),
    ("act_ready", "ready for the next round of a 500 match", 29, 90, {"kind": "ready"}),
]  # fmt: skip


#: The client's host requests: name, description, request id, fields.
HOSTS: list[Host] = [
    ("host_options", "host a 5-seat table with stacking, a match to 500 and a 1 s reaction wait", "h-2",
     {"seats": 5, "options": {"preset": "standard", "stacking": True, "match": "500", "reaction_ms": 1000}}),
    ("host_deal_code", "host a table whose round 1 is a given deal (its seat count comes with it)", "h-3",
     {"deal_code": DEAL_CODE}),
]  # fmt: skip
#: The rules' refusals: name, description, message, the refused request's id.
REFUSED: list[Refused] = [
    ("error_illegal", "a card that matches neither the active colour nor the top card's number or symbol",
     _no_match, 21),
    ("error_late_catch", "a catch that came second: the first catch closed the window", _late_catch, 28),
]  # fmt: skip
frames: Final = fixture_frames("kartu_terakhir", ACTS, HOSTS, REFUSED)
