"""Shared helpers for the Kartu Terakhir tests (not a test module: pytest does not collect it).

Every scenario is a *stacked deck*: the cards are laid out by hand with
``GAME.stacked(...)`` and written out in a comment above the test, as OpenSpiel's
``crazy_eights_test.cc`` does; where the rule is about the deal itself, the deal
comes from a seed or a deal code. Conventions of the layout comments::

    seat 0: R5 R7 GS       <- to act
    seat 1: B3
    discard: ... R2 (top)  active: R
    stock (next first): Y1 Y2

Card names: colour letter (R Y G B) + symbol (0-9, S Skip, R Reverse, D2 Draw
Two); W is the Wild, WD4 the Wild Draw Four.

The game is loaded the way the server loads a game it does not build in:
``meja.games.load("meja.games.kartu_terakhir")``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import meja.games
import pytest
from meja.rules import Event, RulesError, Transition, events_for

PLUGIN = meja.games.load("meja.games.kartu_terakhir")

from meja.games.kartu_terakhir.rules import (  # noqa: E402  (after the registry knows the game)
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    DRAW_KEEP,
    KEEP,
    PASS,
    READY,
    TAKE,
    TIMER_TAKE,
    KartuTerakhir,
    KartuTerakhirState,
    Kind,
    Move,
    Phase,
)

GAME = PLUGIN.game
assert isinstance(GAME, KartuTerakhir)

__all__ = [
    "CALL",
    "CATCH",
    "CHALLENGE",
    "DRAW",
    "DRAW_KEEP",
    "GAME",
    "KEEP",
    "PASS",
    "PLUGIN",
    "READY",
    "TAKE",
    "TIMER_TAKE",
    "KartuTerakhirState",
    "Kind",
    "Move",
    "Phase",
    "act",
    "data_of",
    "hand",
    "kinds",
    "of_kind",
    "play",
    "rejected",
    "seen",
    "stacked",
    "timed",
]


def play(card: str, colour: str | None = None) -> Move:
    """``play("R7")``, ``play("W", "G")``."""
    return Move.play(card, colour)


def stacked(options: dict[str, Any] | None = None, **layout: Any) -> KartuTerakhirState:
    """``GAME.stacked`` with options as a host would send them (``{"stacking": True}``)."""
    return GAME.stacked(options, **layout)


def hand(state: KartuTerakhirState, seat: int) -> list[str]:
    """A seat's hand by name, as its view shows it."""
    names: list[str] = state.view(seat).to_wire()["hand"]
    return names


def act(state: KartuTerakhirState, seat: int, move: Move) -> Transition:
    """Apply a legal ``move`` (or the listed timed action, or the timer's draw or take) and check
    what every action keeps."""
    legal = state.legal_actions(seat)
    is_timed = any(t.seat == seat and t.action == move for t in state.timed_actions())
    default = state.default_action(seat)
    is_timer = (move == DRAW_KEEP and default == DRAW_KEEP) or (move == TIMER_TAKE and default in (TAKE, TIMER_TAKE))
    assert move in legal or is_timed or is_timer, f"{move} is not legal for seat {seat}: {legal}"
    t = state.apply(seat, move)
    assert t.state.version == state.version + 1
    # persistence round trip at every step of every scenario
    again = GAME.state_from_data(json.loads(json.dumps(t.state.to_data())))
    assert again == t.state and again.to_data() == t.state.to_data()
    return t


def timed(state: KartuTerakhirState) -> Transition:
    """Apply the one timed action the state lists (the server would, after its delay)."""
    [t] = state.timed_actions()
    return act(state, t.seat, t.action)


def rejected(state: KartuTerakhirState, seat: int, move: Any, error: type[RulesError], code: str) -> str:
    """``move`` is refused with ``error`` (wire ``code``) and the state is unchanged; the message."""
    before = json.dumps(state.to_data(), sort_keys=True)
    with pytest.raises(error) as info:
        state.apply(seat, move)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    assert info.value.code == code
    assert json.dumps(state.to_data(), sort_keys=True) == before
    return str(info.value)


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Iterable[Event], kind: str, seat: int | str | None = "any") -> list[Event]:
    """The events of ``kind`` (seen by ``seat`` unless ``seat == "any"``)."""
    out = [e for e in events if e.kind == kind]
    if seat != "any":
        out = [e for e in out if e.is_seen_by(seat)]  # type: ignore[arg-type]
    return out


def data_of(events: Iterable[Event], kind: str, seat: int | None) -> list[dict[str, Any]]:
    """The wire data of the ``kind`` events ``seat`` sees."""
    return [e.to_wire() for e in events_for(events, seat) if e.kind == kind]


def seen(events: Sequence[Event], seat: int | None) -> list[str]:
    """The kinds of the events ``seat`` sees, in order."""
    return [e.kind for e in events_for(events, seat)]
