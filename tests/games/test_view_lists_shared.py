"""The lists of a game's view are built once and shared (issue 24): every seat's view of a version
holds the very same public lists (hand sizes, scores, ready flags, winners), and a list whose source
did not change from one version to the next (a score line, a seat's hand) is the very object it was.
The hub's patches compare values by identity first, so this is what spares them encoding and
comparing what every seat sees alike; the values themselves are those the view's fields hold."""

from __future__ import annotations

import copy
import random
from typing import Any

import meja.games
import pytest

GAMES = {"kartu_terakhir": 10, "crazy_eights": 3}
PUBLIC = ("hand_counts", "scores", "ready", "winners")


def _states(name: str, seats: int, moves: int) -> list[Any]:
    game = meja.games.get_game(name)
    state = game.new_match(game.options_from_wire({}), seats, 5).state
    rng = random.Random(5)
    out = [state]
    while len(out) < moves:
        acts = [(s, a) for s in range(seats) for a in state.legal_actions(s)]
        if not acts:
            timed = state.timed_actions()
            if not timed:
                break
            acts = [(timed[0].seat, timed[0].action)]
        state = state.apply(*rng.choice(acts)).state
        out.append(state)
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_views_share_their_lists_across_seats_and_versions(name: str) -> None:
    meja.games.load(f"meja.games.{name}")
    seats = GAMES[name]
    before: list[dict[str, Any]] | None = None
    kept = 0
    seen = []
    for state in _states(name, seats, 250):
        views = [state.view(s) for s in range(seats)]
        wires = [v.to_wire() for v in views]
        for key in PUBLIC:
            assert all(w[key] is wires[0][key] for w in wires), key
            assert wires[0][key] == list(getattr(views[0], key)), key
        for s, (view, wire) in enumerate(zip(views, wires, strict=True)):
            assert len(wire["hand"]) == len(view.hand)
            if before is not None and before[s]["hand"] == wire["hand"]:
                assert before[s]["hand"] is wire["hand"]  # an unchanged hand is the list sent last time
                kept += 1
            if before is not None and before[s]["scores"] == wire["scores"]:
                assert before[s]["scores"] is wire["scores"]
        seen.extend(zip(views, wires, strict=True))
        before = wires
    assert kept > 100
    # shared lists are never written: every view still holds what its fields say
    for view, wire in seen:
        assert all(wire[key] == list(getattr(view, key)) for key in PUBLIC)
        assert len(wire["hand"]) == len(view.hand)


#: Eighty-Three's view is a map of wire values (no fields): what every seat sees alike.
E83_PUBLIC = (
    "teams", "awaiting", "hand_counts", "auction", "passed", "decided", "shown", "trick", "last_trick",
    "tricks", "points", "scores", "ready", "last_hand", "winners",
)  # fmt: skip


def test_eighty_three_views_share_their_lists_across_seats_and_versions() -> None:
    meja.games.load("meja.games.eighty_three")
    seats = 4
    before: list[dict[str, Any]] | None = None
    kept = shared = 0
    seen = []
    for state in _states("eighty_three", seats, 400):
        wires = [state.view(s).to_wire() for s in range(seats)]
        for key in E83_PUBLIC:
            assert wires[0][key] == state.view(None).to_wire()[key], key
            if isinstance(wires[0][key], list | dict):
                assert all(w[key] is wires[0][key] for w in wires), key
                shared += 1
        for s, wire in enumerate(wires):
            if before is None:
                continue
            for key in ("hand", "scores", "auction", "last_hand", "legal"):
                if isinstance(wire[key], list | dict) and before[s][key] == wire[key]:
                    assert before[s][key] is wire[key], key  # unchanged: the object sent last time
                    kept += 1
        seen.extend((w, copy.deepcopy(w)) for w in wires)
        before = wires
    assert kept > 300 and shared > 1000
    # shared lists are never written: every view still holds what it held when it was built
    assert all(wire == snapshot for wire, snapshot in seen)
