"""Kartu Terakhir's typed events (rules/events.py): every event the rules emit over seeded matches
reads back as its declared kind and writes the very wire dict emitted; a bad history never crashes
the bots' readers (bots/infoset.py read_infoset, bots/common.py avoid_colour and wd4_prior,
bots/search.py seen_of, bluffers and bluff_odds)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from meja.games.kartu_terakhir.bots import make_bot
from meja.games.kartu_terakhir.bots.common import avoid_colour, wd4_prior
from meja.games.kartu_terakhir.bots.infoset import read_infoset
from meja.games.kartu_terakhir.bots.search import SearchBot, bluffers, seen_of
from meja.games.kartu_terakhir.rules import CHALLENGE, KartuTerakhirState, KartuTerakhirView
from meja.games.kartu_terakhir.rules.events import EVENTS, Draw, Play, RoundStart, Unknown
from meja.rules import Event

from ..typed_events import assert_round_trips, spoil
from .kt_helpers import GAME

#: (seats, options): stacking (mandatory or not) changes what a turn's penalty and a challenge emit;
#: ``500`` plays rounds on (ready, a second round_start); 2 seats turn a Reverse into a Skip
TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {"stacking": True}),
    (4, {}),
    (4, {"stacking": True, "stacking_mandatory": True}),
    (5, {"match": "500"}),
    (10, {}),
]


def _steps(matches: int) -> Iterator[tuple[KartuTerakhirState, tuple[Event, ...]]]:
    """The events of ``matches`` seeded matches at each table, random legal moves (the timed
    penalty draw when nobody is awaited), with the state after them."""
    for seats, overrides in TABLES:
        options = GAME.options("standard", **overrides)
        for m in range(matches):
            rnd = random.Random(f"{seats}/{overrides}/{m}")
            tr = GAME.new_match(options, seats, 4400 + m)
            for _ in range(4000):
                yield tr.state, tr.events
                state = tr.state
                if state.outcome() is not None:
                    break
                actors = state.awaiting() or state.actors()
                if not actors:
                    timed = state.timed_actions()[0]
                    tr = state.apply(timed.seat, timed.action)
                    continue
                seat = rnd.choice(actors)
                tr = state.apply(seat, rnd.choice(state.legal_actions(seat)))


def test_every_event_emitted_round_trips_through_its_kind() -> None:
    seen: dict[str, int] = {}
    forms: set[tuple[str, tuple[str, ...]]] = set()
    for _, events in _steps(4):
        for e in events:
            assert_round_trips(EVENTS, e)
            seen[e.kind] = seen.get(e.kind, 0) + 1
            forms.add((e.kind, tuple(e.to_wire())))
    # every declared kind was emitted (so each was checked), and nothing undeclared was
    assert set(seen) == set(EVENTS.classes), seen
    # the keys sent only sometimes were seen both ways
    assert {k for kind, k in forms if kind == "turn"} == {("kind", "seat"), ("kind", "seat", "pending")}
    assert {k for kind, k in forms if kind == "play"} == {
        ("kind", "seat", "card", "colour"),
        ("kind", "seat", "card", "colour", "drawn"),
    }
    assert {k for kind, k in forms if kind == "draw"} == {
        ("kind", "seat", "cards", "count", "reason"),
        ("kind", "seat", "count", "reason"),
    }
    dealt = ("kind", "round", "dealer", "first", "starter", "colour", "direction", "hand_counts", "stock_count")
    assert {k for kind, k in forms if kind == "round_start"} == {dealt, (*dealt, "returned")}


def test_a_challenge_comes_before_its_draw_with_the_counts_after_it() -> None:
    """The verdict is emitted first but carries the hand sizes after the penalty it caused (3.5.4, 3.5.5)."""
    checked = 0
    for state, events in _steps(4):
        kinds = [e.kind for e in events]
        if "challenge" not in kinds:
            continue
        i = kinds.index("challenge")
        assert kinds[i + 1] == "shown" and "draw" in kinds[i + 2 :]
        challenge = EVENTS.parse(events[i].to_wire())
        assert challenge.hand_counts == tuple(len(h) for h in state.hands)  # type: ignore[union-attr]
        checked += 1
    assert checked > 5


def test_cards_read_as_name_indexes_and_colours_as_numbers() -> None:
    assert EVENTS.parse({"kind": "play", "seat": 1, "card": "WD4", "colour": "B"}) == Play(seat=1, card=53, colour=3)
    draw = EVENTS.parse({"kind": "draw", "seat": 0, "cards": [], "count": 0, "reason": "draw"})
    assert draw == Draw(seat=0, cards=(), count=0, reason="draw") and draw.wire()["cards"] == []
    assert isinstance(EVENTS.parse({"kind": "draw", "seat": 0, "count": 1, "reason": "draw"}), Draw)
    start = {"kind": "round_start", "round": 1, "dealer": 0, "first": 1, "starter": "R7", "colour": "R"}
    start |= {"direction": 1, "hand_counts": [7, 7], "stock_count": 93}
    assert isinstance(EVENTS.parse(start), RoundStart) and "returned" not in EVENTS.parse(start).wire()  # type: ignore[union-attr]
    # the rules' spelling only: a copy suffix, a lower-case name or colour, a colour word are no card or colour
    for card, colour in (("R7.2", "R"), ("r7", "R"), ("R7", "r"), ("R7", "red"), (7, "R"), ("R7", 0), ("R7", None)):
        assert isinstance(EVENTS.parse({"kind": "play", "seat": 1, "card": card, "colour": colour}), Unknown)


def _histories() -> Iterator[tuple[KartuTerakhirView, list[dict[str, Any]]]]:
    """(the view of the seat to act, its history since the round began) at decisions of seeded rounds,
    with Wild Draw Fours to challenge (so ``bluff_odds`` is asked too)."""
    for seats, overrides in TABLES[:4]:
        options = GAME.options("standard", **overrides)
        for m in range(2):
            rnd = random.Random(m)
            tr = GAME.new_match(options, seats, 77 + m)
            hist: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
            for step in range(600):
                for e in tr.events:
                    if e.kind == "round_start":
                        hist = [[] for _ in range(seats)]
                    for s in range(seats):
                        if e.is_seen_by(s):
                            hist[s].append(e.to_wire())
                state = tr.state
                if state.outcome() is not None:
                    break
                actors = state.awaiting()
                if not actors:
                    timed = state.timed_actions()[0]
                    tr = state.apply(timed.seat, timed.action)
                    continue
                seat = actors[0]
                if step % 3 == 0 or CHALLENGE in state.legal_actions(seat):
                    yield state.view(seat), list(hist[seat])
                tr = state.apply(seat, rnd.choice(state.legal_actions(seat)))


def _read_all(view: KartuTerakhirView, history: list[Any], bot: SearchBot) -> tuple[Any, ...]:
    assert view.seat is not None
    info = read_infoset(view, history)
    odds = bot.bluff_odds(view, history, info, random.Random(1)) if CHALLENGE in view.legal else None
    return (
        info,
        odds,
        seen_of(history, view.seats),
        bluffers(history),
        wd4_prior(history),
        avoid_colour(history, view.seats, view.seat, view.direction, view.hand_counts),
    )


def test_a_spoilt_history_never_crashes_the_readers() -> None:
    rnd = random.Random(5)
    bot = SearchBot(deadline=None)
    checked = challenges = whole = cases = 0
    for view, history in _histories():
        cases += 1
        whole += read_infoset(view, history).consistent
        for _ in range(6):
            info, odds, (last, prev), found, _, avoid = _read_all(view, spoil(history, rnd, (-1, 10, 99)), bot)
            # whatever it read, the worlds it deals hold the seat's own hand and the true hand sizes
            hands, _, _ = info.sample(random.Random(2))
            assert [len(h) for h in hands] == list(view.hand_counts)
            assert sorted(hands[view.seat]) == sorted(view.hand or ())
            assert len(last) == len(prev) == view.seats and all(type(t) is int for t in found)
            assert -1 <= avoid < 4 and (odds is None or 0.0 <= odds <= 1.0)
            checked += 1
            challenges += odds is not None
        # a history of nothing but junk reads as no history at all
        junk = [None, {"kind": "play"}, "turn", {"kind": "play", "seat": 11, "card": "R1", "colour": "R"}]
        assert read_infoset(view, junk).groups == read_infoset(view, []).groups
    assert checked > 500 and challenges > 10
    # most true histories read whole (so the spoilt ones lose something)
    assert whole > 0.6 * cases


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_bots_still_choose_a_legal_move_from_a_spoilt_history(level: str) -> None:
    rnd = random.Random(6)
    bot = make_bot(level, deadline=None, work=4000.0) if level == "hard" else make_bot(level)
    for n, (view, history) in enumerate(_histories()):
        if n % 5:
            continue
        move = bot.choose(view, spoil(history, rnd, (-1, 10, 99)), random_rng(n))
        assert move in view.legal


def random_rng(n: int) -> Any:
    from meja.rules.rng import Rng

    return Rng(n, "spoilt")
