"""Shared helpers for the bot tests: engine states to simulator fields, and histories."""

from __future__ import annotations

from typing import Any

from meja.games.crazy_eights.bots.sim import Rules, Sim
from meja.games.crazy_eights.rules import CrazyEightsState, Phase


def mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def sim_of(state: CrazyEightsState) -> Sim:
    """The simulator for a state in the play or choose-suit phase (the whole truth: for tests only)."""
    chooser = state.chooser if state.phase == Phase.CHOOSE_SUIT and state.chooser is not None else -1
    return Sim(
        Rules.of(state.options, state.seats),
        [mask(h) for h in state.hands],
        [int(c) for c in state.stock],
        mask(state.discard[:-1]),
        int(state.discard[-1]),
        int(state.active_suit),
        state.turn,
        state.draws,
        -1 if state.drawn is None else int(state.drawn),
        chooser,
        state.round_start_choice(),
    )


def action_of(move: Any) -> tuple[int, int, int]:
    return (
        int(move.kind),
        -1 if move.card is None else int(move.card),
        -1 if move.suit is None else int(move.suit),
    )
