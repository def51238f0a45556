"""The golden frames of the Crazy Eights section of the protocol (``PROTOCOL.md`` beside this file).

Written to ``fixtures/`` by ``client-protocol/tools/make_fixtures.py``: one
frame per kind of action, a host request naming a deal, and the error the rules
give for a card that does not match (the engine's own message, from a stacked
deal).
"""

from __future__ import annotations

from typing import Any

from meja.rules.errors import RulesError

from . import dealcode
from .rules import GAME, Move

__all__ = ["frames"]

#: a classic 2-seat deal (seat 1 leads, round seed 12345), as a host would type it
DEAL_CODE = dealcode.encode(dealcode.DealSpec("classic", 2, 1, 12345))


def _illegal_message() -> str:
    state = GAME.stacked("house", hands=["KS 4C", "2D 3D"], discard="7H")
    try:
        state.apply(0, Move.play("KS"))
    except RulesError as exc:
        return str(exc)
    raise AssertionError("KS on 7H must be refused")


def frames(table_id: str) -> list[tuple[str, str, str, dict[str, Any]]]:
    def act(id_: int | None, version: int, action: dict[str, Any]) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "act"}
        if id_ is not None:
            msg["id"] = id_
        msg.update(table=table_id, version=version, action=action)
        return msg

    return [
        ("client", "act_play", "play a card", act(11, 42, {"kind": "play", "card": "7H"})),
        (
            "client",
            "act_play_eight",
            "play the 8 of hearts and name spades",
            act(12, 42, {"kind": "play", "card": "8H", "suit": "S"}),
        ),
        ("client", "act_draw", "draw a card", act(13, 43, {"kind": "draw"})),
        ("client", "act_pass", "pass (only when the rules allow it)", act(None, 44, {"kind": "pass"})),
        ("client", "act_suit", "name the suit (the choose_suit phase)", act(14, 45, {"kind": "suit", "suit": "D"})),
        ("client", "act_ready", "ready for the next round", act(15, 80, {"kind": "ready"})),
        (
            "client",
            "host_deal_code",
            "host a classic table whose round 1 is a given deal",
            {
                "type": "host",
                "id": "h-1",
                "name": "Ann",
                "game": "crazy_eights",
                "options": {"preset": "classic", "target": 50},
                "deal_code": DEAL_CODE,
            },
        ),
        (
            "server",
            "error_illegal",
            "a card that matches neither the active suit nor the top card's rank",
            {"type": "error", "code": "action/illegal", "message": _illegal_message(), "re": 11},
        ),
    ]
