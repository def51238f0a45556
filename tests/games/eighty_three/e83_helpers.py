"""Shared helpers of the Eighty-Three tests: the game, cards by name, acting, refusals, stacked tricks."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import meja.games
import pytest
from meja.games.eighty_three.rules import (
    AUTO,
    DONE,
    JOKER,
    NAMES,
    PASS,
    READY,
    UNDO,
    Action,
    EightyThreeState,
    Kind,
    Phase,
    auto_decision,
    discard,
    give,
    parse_cards,
    play,
    points,
)
from meja.rules import (
    BadActionError,
    BadOptionsError,
    Event,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    RulesError,
    Transition,
)

PLUGIN = meja.games.load("meja.games.eighty_three")
GAME = PLUGIN.game

#: the typed errors the scenarios expect (with ``rejected``), from here with the rest
__all__ = [
    "AUTO",
    "DONE",
    "GAME",
    "JOKER",
    "NAMES",
    "PASS",
    "PLUGIN",
    "READY",
    "UNDO",
    "Action",
    "BadActionError",
    "BadOptionsError",
    "EightyThreeState",
    "IllegalActionError",
    "Kind",
    "NotYourTurnError",
    "Phase",
    "RoundOverError",
    "act",
    "auto_decision",
    "bid",
    "cards",
    "discard",
    "give",
    "kinds",
    "play",
    "play_state",
    "points",
    "rejected",
    "trump",
]

ILLEGAL = "action/illegal"


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def bid(value: int) -> Action:
    return Action.bid(value)


def trump(suit: str) -> Action:
    return Action.trump(suit)


def act(state: EightyThreeState, seat: int, action: Action) -> Transition:
    """Apply, checking the contract's basics on the way: legal, version + 1."""
    assert action in state.legal_actions(seat), f"{action} is not legal for seat {seat}: {state.legal_actions(seat)}"
    t = state.apply(seat, action)
    assert t.state.version == state.version + 1
    return t


def acts(state: EightyThreeState, seat: int, actions: Iterable[Action]) -> EightyThreeState:
    for a in actions:
        state = act(state, seat, a).state
    return state


def rejected(state: EightyThreeState, seat: int, action: Action, error: type[RulesError], code: str = ILLEGAL) -> str:
    """``action`` is refused with exactly ``error`` (and its wire code), and nothing changed."""
    before = json.dumps(state.to_data(), sort_keys=True)
    assert action not in state.legal_actions(seat)
    with pytest.raises(error) as info:
        state.apply(seat, action)
    assert type(info.value) is error
    assert info.value.code == code
    assert json.dumps(state.to_data(), sort_keys=True) == before
    return str(info.value)


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def play_state(
    hands: Sequence[str],
    *,
    trump: str,
    bidder: int = 0,
    bid: int = 30,
    leader: int | None = None,
    trick: str = "",
    scores: tuple[int, int] = (0, 0),
    options: Any = "standard",
    taken: tuple[str, str] | None = None,
) -> EightyThreeState:
    """A stacked state in the tricks, with the tricks already played filled in.

    When ``taken`` is not given, the cards laid out nowhere that score go into
    team 1's pile first and then team 0's (so every point card is somewhere:
    4.6.5), filled up with non-scoring cards to whole tricks.
    """
    suit = "SHDC".index(trump)
    laid = {c for h in hands for c in parse_cards(h)} | set(parse_cards(trick))
    n = len(parse_cards(hands[(leader if leader is not None else bidder) % 4])) + (1 if trick else 0)
    need = 4 * (6 - n)
    if taken is None:
        rest = [c for c in range(53) if c not in laid]
        scoring = [c for c in rest if points(c, suit)]
        plain = [c for c in rest if not points(c, suit)]
        pile = (scoring + plain)[:need]
        half = 4 * ((len(pile) // 4 + 1) // 2)
        taken = (" ".join(NAMES[c] for c in pile[half:]), " ".join(NAMES[c] for c in pile[:half]))
    return GAME.stacked(
        options,
        hands=list(hands),
        phase="play",
        bidder=bidder,
        bid=bid,
        trump=trump,
        leader=leader,
        trick=trick,
        taken=taken,
        scores=scores,
    )


__all__ += ["ILLEGAL", "acts"]
_ = (AUTO, DONE, JOKER, PASS, READY, UNDO, Kind, Phase, auto_decision, discard, give, play)
