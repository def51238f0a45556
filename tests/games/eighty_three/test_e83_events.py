"""Eighty-Three's typed events (rules/events.py): every event the rules emit over seeded matches
reads back as its declared kind and writes the very wire dict emitted; a bad history never crashes
the bots' reader (bots/common.py read_seen)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from meja.games.eighty_three.bots import make_bot
from meja.games.eighty_three.bots.common import read_seen
from meja.games.eighty_three.rules.events import EVENTS, Kitty, Play, Received, Unknown
from meja.rules import Event, get_game

from ..typed_events import assert_round_trips, spoil

GAME = get_game("eighty_three")


def _matches(matches: int) -> Iterator[tuple[Any, Event]]:
    """Every event of ``matches`` seeded matches (both scoring options), random legal moves, with the
    state after it: the random moves reach undo, auto-arrange, gives and the trim phase."""
    for must_win in (False, True):
        options = GAME.options("standard", must_win_on_own_bid=must_win)
        for m in range(matches):
            rnd = random.Random(f"{must_win}/{m}")
            tr = GAME.new_match(options, 4, 4000 + m)
            for _ in range(6000):
                for e in tr.events:
                    yield tr.state, e
                state = tr.state
                if state.outcome() is not None:
                    break
                seat = state.awaiting()[0]
                tr = state.apply(seat, rnd.choice(state.legal_actions(seat)))


def test_every_event_emitted_round_trips_through_its_kind() -> None:
    seen: dict[str, int] = {}
    forms: set[tuple[str, tuple[str, ...]]] = set()
    for _, e in _matches(3):
        assert_round_trips(EVENTS, e)
        seen[e.kind] = seen.get(e.kind, 0) + 1
        forms.add((e.kind, tuple(e.to_wire())))
    # every declared kind was emitted (so each was checked), and nothing undeclared was
    assert set(seen) == set(EVENTS.classes), seen
    # the kitty to the bidder and to the rest; an arrangement with gives (even none) and without
    assert ("kind", "seat", "cards") in {k for kind, k in forms if kind == "kitty"}
    assert ("kind", "seat", "count") in {k for kind, k in forms if kind == "kitty"}
    assert {k for kind, k in forms if kind == "arranged"} == {
        ("kind", "seat", "discards", "gives"),
        ("kind", "seat", "discards"),
    }
    assert {k for kind, k in forms if kind == "received"} == {("kind", "seat", "from", "cards")}


def test_the_cards_read_as_ids_and_the_renamed_key_as_its_field() -> None:
    play = EVENTS.parse({"kind": "play", "seat": 2, "card": "JK"})
    assert play == Play(seat=2, card=52)
    assert EVENTS.parse({"kind": "kitty", "seat": 1, "count": 5}) == Kitty(seat=1, count=5)
    received = EVENTS.parse({"kind": "received", "seat": 0, "from": 2, "cards": ["AS", "JK"]})
    assert isinstance(received, Received) and received.from_ == 2 and received.cards == (0, 52)
    # the rules' spelling only: a lower-case or a second deck's card is not an Eighty-Three card
    for card in ("jk", "8H.2", "1H", 5, None):
        assert isinstance(EVENTS.parse({"kind": "play", "seat": 2, "card": card}), Unknown)
    trick = {"kind": "trick", "number": 1, "winner": 0, "team": 0, "points": 3}
    for cards in ([{"seat": 0}], [{"seat": "0", "card": "AS"}], ["AS"], "AS", None):
        assert isinstance(EVENTS.parse({**trick, "cards": cards}), Unknown)


def _histories() -> Iterator[tuple[Any, int, list[dict[str, Any]]]]:
    """(state, seat, the seat's history since the hand began) at decisions of a few seeded hands."""
    for m in range(2):
        rnd = random.Random(m)
        tr = GAME.new_match(GAME.options("standard"), 4, 77 + m)
        hist: list[list[dict[str, Any]]] = [[] for _ in range(4)]
        for step in range(400):
            for e in tr.events:
                if e.kind == "hand_start":
                    hist = [[] for _ in range(4)]
                for s in range(4):
                    if e.is_seen_by(s):
                        hist[s].append(e.to_wire())
            state = tr.state
            if state.outcome() is not None:
                break
            seat = state.awaiting()[0]
            if step % 7 == 3 and state.in_round():
                yield state, seat, list(hist[seat])
            tr = state.apply(seat, rnd.choice(state.legal_actions(seat)))


def test_a_spoilt_history_never_crashes_the_reader() -> None:
    rnd = random.Random(5)
    checked = 0
    for state, seat, history in _histories():
        view = state.view(seat)
        clean = read_seen(view, history)
        for _ in range(30):
            seen = read_seen(view, spoil(history, rnd, (-1, 4, 99)))
            assert seen.seat == seat and seen.hand == clean.hand  # the view's part is the view's
            checked += 1
        # a history of nothing but junk reads as no history at all
        assert read_seen(view, [None, {"kind": "play"}, "turn", {"kind": "play", "seat": 9, "card": "AS"}]) == (
            read_seen(view, [])
        )
    assert checked > 500


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_bots_still_choose_a_legal_move_from_a_spoilt_history(level: str) -> None:
    rnd = random.Random(6)
    bot = make_bot(level, playouts=8, bid_playouts=4, deadline=None) if level == "hard" else make_bot(level)
    for n, (state, seat, history) in enumerate(_histories()):
        if n % 4:
            continue
        view = state.view(seat)
        move = bot.choose(view, spoil(history, rnd, (-1, 4, 99)), state.bot_rng(seat).derive("spoilt"))
        assert move in view.legal
