"""Crazy Eights' own conformance checks (invariants.py) catch what they are for: shown planted faults."""

from __future__ import annotations

import pytest
from meja.rules import Event

from ..conformance import Config, Run
from .ce_helpers import GAME
from .invariants import Invariants


def test_the_view_and_reveal_checks_catch_faults() -> None:
    hooks = Run(Config("crazy_eights", {"preset": "house"}, 2)).hooks
    assert isinstance(hooks, Invariants)
    state = GAME.new_match(GAME.options("house"), 2, 5).state
    hooks.state(state, deep=True)  # the real state passes
    hooks.reveal = {"round": 0}  # a view's last_round must be what the last round_over revealed
    with pytest.raises(AssertionError, match="last_round"):
        hooks.state(state, deep=True)
    with pytest.raises(AssertionError, match="round goes on"):
        Invariants.round_over(state, state, Event("round_over", {}))
    with pytest.raises(AssertionError, match="public"):
        Invariants.round_over(state, state, Event("round_over", {}, only=(0,)))
