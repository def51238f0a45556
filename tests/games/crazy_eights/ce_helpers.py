"""Shared helpers for the Crazy Eights rule tests (not a test module: pytest does not collect it).

Every scenario in the test modules is a *stacked deck*: the cards are laid out
by hand with ``GAME.stacked(...)`` and written out in a comment above the test,
as OpenSpiel's ``crazy_eights_test.cc`` does; or, where the rule is about the
deal itself, the deal comes from a deal code.

Conventions used in the layout comments::

    seat 0: 6S KH 8C 9C    <- to act
    discard: ... 6H (top)  active: H
    stock (next first): 4C 5C

Helpers here only drive the public API (``stacked``, ``new_match``,
``legal_actions``, ``apply``, ``view``, ``to_data``/``state_from_data``); the
one exception is :func:`rig`, which uses ``dataclasses.replace`` on the
(frozen dataclass) state to lay out the cards of a later round of a real
match, where ``stacked`` cannot carry the match's history.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

import pytest
from meja.games.crazy_eights import dealcode
from meja.games.crazy_eights.rules import (
    DRAW,
    PASS,
    READY,
    CrazyEights,
    CrazyEightsState,
    Kind,
    Move,
    Phase,
)
from meja.rules import (
    BadActionError,
    BadDealCodeError,
    BadOptionsError,
    BadSeatError,
    Card,
    Event,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    RulesError,
    Suit,
    Transition,
    get_game,
    parse_cards,
)

GAME = get_game("crazy_eights")
assert isinstance(GAME, CrazyEights)

#: the typed errors the scenarios expect (with ``rejected``), from here with the rest
__all__ = [
    "DRAW",
    "GAME",
    "PASS",
    "READY",
    "BadActionError",
    "BadDealCodeError",
    "BadOptionsError",
    "BadSeatError",
    "Card",
    "CrazyEightsState",
    "IllegalActionError",
    "Kind",
    "Move",
    "NotYourTurnError",
    "Phase",
    "RoundOverError",
    "RulesError",
    "Suit",
    "act",
    "all_cards",
    "cards",
    "deal",
    "find_deal",
    "kinds",
    "play",
    "play_round",
    "played_cards",
    "ready_all",
    "rejected",
    "rig",
    "stacked",
    "suit",
]


def cards(text: str) -> tuple[Card, ...]:
    """``cards("8H 10C")``: a tuple of cards."""
    return parse_cards(text)


def play(card: str, named: str | None = None) -> Move:
    """The ``play`` move of ``card`` (naming ``named`` when it is an 8 that does not go out)."""
    return Move.play(card, named)


def suit(named: str) -> Move:
    """The ``suit`` move (a dealer naming a starter 8's suit, or a classic drawn 8)."""
    return Move.choose(named)


def stacked(preset: str = "house", **kwargs: object) -> CrazyEightsState:
    """``GAME.stacked`` with a typed result."""
    state = GAME.stacked(preset, **kwargs)  # type: ignore[arg-type]
    assert isinstance(state, CrazyEightsState)
    return state


def act(state: CrazyEightsState, seat: int, move: Move) -> Transition:
    """Apply ``move`` and check what every accepted action promises: version + 1."""
    t = state.apply(seat, move)
    assert t.state.version == state.version + 1
    return t


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def played_cards(state: CrazyEightsState) -> set[Card]:
    """The cards of the ``play`` actions open to the seat on turn."""
    return {m.card for m in state.legal_actions(state.turn) if m.kind == Kind.PLAY and m.card is not None}


def rejected(
    state: CrazyEightsState, seat: int, move: object, error: type[RulesError], code: str
) -> RulesError:
    """Check that ``move`` raises exactly ``error`` with ``code`` and that the state is unchanged."""
    before = state.to_data()
    digest = state.digest()
    with pytest.raises(error) as info:
        state.apply(seat, move)  # type: ignore[arg-type]
    assert type(info.value) is error, f"expected {error.__name__}, got {type(info.value).__name__}"
    assert info.value.code == code
    assert state.to_data() == before
    assert state.digest() == digest
    return info.value


def all_cards(state: CrazyEightsState) -> list[Card]:
    """Every card on the table: hands, stock and discard."""
    out: list[Card] = [c for h in state.hands for c in h]
    return out + list(state.stock) + list(state.discard)


def deal(preset: str, seats: int, leader: int, seed: int, **options: object) -> Transition:
    """Round 1 of a match dealt from the deal code (preset, seats, leader, seed)."""
    code = dealcode.encode(dealcode.DealSpec(preset, seats, leader, seed))
    return GAME.new_match(GAME.options(preset, **options), seats, 1, deal_code=code)


def find_deal(
    preset: str,
    seats: int,
    leader: int,
    accept: Callable[[CrazyEightsState], bool],
    limit: int = 2000,
    **options: object,
) -> tuple[str, Transition]:
    """The first deal code (seeds 0, 1, 2...) whose round-1 deal satisfies ``accept``.

    Searching at test time instead of pinning a seed keeps the scenario valid
    whatever the deal layout; the search is a few hundred cheap deals at most.
    """
    for seed in range(limit):
        code = dealcode.encode(dealcode.DealSpec(preset, seats, leader, seed))
        t = GAME.new_match(GAME.options(preset, **options), seats, 1, deal_code=code)
        if accept(t.state):
            return code, t
    raise AssertionError(f"no {preset} deal in {limit} seeds satisfies the condition")


def greedy(state: CrazyEightsState, seat: int) -> Move:
    """A simple policy: the first legal play (lowest card, first suit), else draw, else pass."""
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} has no legal action in phase {state.phase!r}"
    return legal[0]


def play_round(
    state: CrazyEightsState,
    policy: Callable[[CrazyEightsState, int], Move] = greedy,
    max_steps: int = 5000,
) -> tuple[CrazyEightsState, list[Event]]:
    """Play until the round is over; returns the final state and every event on the way."""
    events: list[Event] = []
    for _ in range(max_steps):
        if state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            return state, events
        (seat,) = state.awaiting()
        t = act(state, seat, policy(state, seat))
        events.extend(t.events)
        state = t.state
    raise AssertionError(f"round did not end in {max_steps} actions")


def ready_all(state: CrazyEightsState) -> Transition:
    """Every seat says ``ready`` (in seat order); returns the transition of the last one."""
    assert state.phase == Phase.ROUND_OVER
    t: Transition | None = None
    for seat in range(state.seats):
        t = act(state, seat, READY)
        state = t.state
    assert t is not None
    return t


def rig(state: CrazyEightsState, winner: int) -> CrazyEightsState:
    """Lay out the current round so that ``winner`` goes out with its next action.

    The winner holds only ``8S`` (always legal; as a last card it names no suit,
    1.3.7) and is on turn; every other seat holds ``2D 3D`` (5 penalty points).
    """
    hands = tuple(cards("8S") if s == winner else cards("2D 3D") for s in range(state.seats))
    return dataclasses.replace(
        state,
        phase=Phase.PLAY,
        chooser=None,
        hands=hands,
        discard=cards("9H"),
        active_suit=Suit.HEARTS,
        turn=winner,
        draws=0,
        drawn=None,
    )
