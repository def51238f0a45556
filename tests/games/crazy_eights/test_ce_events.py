"""Crazy Eights' typed events (rules/events.py): every event the rules emit over many seeded matches
reads back as its declared kind and writes the very wire dict emitted; a bad history never crashes
the bots' reader."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from meja.games.crazy_eights.bots import make_bot
from meja.games.crazy_eights.bots.infoset import read_infoset
from meja.games.crazy_eights.bots.tables import ALL_CARDS
from meja.games.crazy_eights.rules import CrazyEightsState, Phase
from meja.games.crazy_eights.rules.events import EVENTS
from meja.rules import Event, get_game

from ..typed_events import assert_round_trips, spoil

GAME = get_game("crazy_eights")

#: (preset, seats, overrides): every rule that changes what is emitted (buried and named starter
#: 8s, forced and optional drawn cards, match ends by score and by wins, two decks)
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("house", 2, {}),
    ("house", 3, {}),
    ("classic", 3, {}),
    ("classic", 4, {"drawn_card_play": "optional"}),
    ("party", 4, {}),
    ("party", 7, {"match_mode": "wins", "rounds": 2}),
]


def _matches(matches: int) -> Iterator[tuple[CrazyEightsState, Event]]:
    """Every event of ``matches`` seeded matches at each table, random legal moves, with the state after it."""
    for preset, seats, overrides in TABLES:
        options = GAME.options(preset, **overrides)
        for m in range(matches):
            rnd = random.Random(f"{preset}/{seats}/{m}")
            tr = GAME.new_match(options, seats, 9000 + m)
            for _ in range(3000):
                for e in tr.events:
                    yield tr.state, e
                state = tr.state
                if state.phase == Phase.MATCH_OVER:
                    break
                seat = state.awaiting()[0]
                tr = state.apply(seat, rnd.choice(state.legal_actions(seat)))


def test_every_event_emitted_round_trips_through_its_kind() -> None:
    seen: dict[str, int] = {}
    for _, e in _matches(6):
        assert_round_trips(EVENTS, e)
        seen[e.kind] = seen.get(e.kind, 0) + 1
    # every declared kind was emitted (so each was checked), and nothing undeclared was
    assert set(seen) == set(EVENTS.classes), seen
    # the optional fields were seen both ways
    assert any(e.kind == "round_start" and "buried" in e.data for _, e in _matches(6))
    assert any(e.kind == "pass" and e.data.get("kept") for _, e in _matches(6))
    assert any(e.kind == "play" and e.data.get("forced") for _, e in _matches(6))


def _histories() -> Iterator[tuple[CrazyEightsState, int, list[dict[str, Any]]]]:
    """(state, seat, the seat's history this round) at decisions of a few seeded rounds."""
    for preset, seats, overrides in TABLES:
        options = GAME.options(preset, **overrides)
        rnd = random.Random(preset)
        tr = GAME.new_match(options, seats, 31)
        hist: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
        for step in range(120):
            for e in tr.events:
                for s in range(seats):
                    if e.is_seen_by(s):
                        hist[s].append(e.to_wire())
            state = tr.state
            if not state.in_round():
                break
            seat = state.awaiting()[0]
            if step % 10 == 5:
                yield state, seat, list(hist[seat])
            tr = state.apply(seat, rnd.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("draws_reveal", [False, True])
def test_a_spoilt_history_never_crashes_the_reader(draws_reveal: bool) -> None:
    rnd = random.Random(5)
    checked = 0
    for state, seat, history in _histories():
        view = state.view(seat)
        for _ in range(40):
            bad = spoil(history, rnd)
            info = read_infoset(view, bad, draws_reveal)
            assert info.seat == seat
            checked += 1
    assert checked > 500


def test_the_hard_bot_still_plays_a_legal_move_from_a_spoilt_history() -> None:
    rnd = random.Random(6)
    bot = make_bot("hard", deadline=None, playouts=60)
    for state, seat, history in _histories():
        view = state.view(seat)
        bad = spoil(history, rnd)
        move = bot.choose(view, bad, state.bot_rng(seat).derive("spoilt"))
        assert move in view.legal
        # and a history of nothing but junk reads as no history at all: nothing known of any hand
        info = read_infoset(view, [None, {"kind": "play"}, "turn"], True)
        assert info.groups == [[] if s == seat else [[n, ALL_CARDS, -1]] for s, n in enumerate(view.hand_counts)]
