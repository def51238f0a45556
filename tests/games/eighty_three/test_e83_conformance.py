"""Conformance of the Eighty-Three engine: random play over many seeded hands, every invariant at every state.

After OpenSpiel's ``open_spiel/tests/basic_tests.h`` (docs/architecture.md 4.6). Checked:

- **T-83-10**: the two teams' captured points add up to 83 in every one of
  :data:`HANDS_83` seeded hands (1,000; 10,000 with ``MEJA_LONG=1``), recounted
  from the captured cards, and the hand is scored by 4.8.
- **Legal actions** are sorted and distinct; a seat has some exactly when it is
  awaited (and then it is an actor); the view's ``legal`` is the same list in
  the same order; each decodes from its wire form to itself; the chosen one is
  accepted; at deep states *every* legal action of every awaited seat is applied
  and accepted.
- **Everything else is refused** (deep states): every other action of the game
  (all bids, pass, the four trumps, discard/give/play of all 53 cards, undo,
  done, auto_arrange, ready) for every seat, with the right typed error
  (``NotYourTurnError`` for a seat with nothing to decide, ``RoundOverError``
  between hands, else ``IllegalActionError``) and ``to_data()`` unchanged; so
  are seats that do not exist and values that are not actions.
- **Cards are conserved**: the counted locations hold ``Game.deck`` exactly.
- **Version** goes up by exactly one per action; every hand ends within a cap.
- **Nothing leaks**: every card named in a seat's view and in each event it may
  see is one that seat may see by ``locations()`` before or after the action
  (a spectator: only face-up cards). In particular the kitty reaches the bidder
  alone, passed trumps the partner alone (and the giver), face-down discards
  their discarder alone. No key is called ``seed``; the hand's deal code is in
  no view or event while the hand is in play. Wire data is plain.
- **Persistence** (deep states): ``state_from_data`` of ``to_data`` through JSON
  and through msgpack gives the same data, legal actions, views and digest.
- **Replay**: each match's ``(seat, action wire)`` log replayed from
  ``new_match`` through ``decode_action`` gives the same final state and events.
- **Hash seeds**: two subprocesses with different ``PYTHONHASHSEED`` give the
  same digests.

Policies: ``random-any`` (uniform over all legal actions, walks of undo
included: the interim bot), and ``modest`` (passes or bids low, so that whole
matches end: random bidding sinks both teams below zero for ever, since the
bidders mostly fail). Cost when written: about 10 s for this file on the shared
2-core machine.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from meja.games.eighty_three.rules import MAX_BID, MIN_BID, TEAMS, Action, EightyThreeState, Kind
from meja.rules import (
    BadActionError,
    BadSeatError,
    Event,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    RulesError,
    events_for,
)

from .e83_helpers import AUTO, DONE, GAME, NAMES, PASS, READY, UNDO, Phase, points

LONG = os.environ.get("MEJA_LONG") == "1"
#: T-83-10: seeded hands whose points are recounted
HANDS_83 = 10_000 if LONG else 1_000
#: matches played with every check (whole matches with ``modest``; first hands with ``random-any``)
MATCHES = 40 if LONG else 8
FIRST_HANDS = 100 if LONG else 16
#: one state in this many is deep: every action tried, persistence checked
DEEP_EVERY = 4 if LONG else 9
CAP = 5_000  # actions in a hand: random-any averages about 57
CARD_NAMES = frozenset(NAMES)

#: every action value of the game: what the refusal checks try
UNIVERSE: tuple[Action, ...] = (
    *(Action.bid(v) for v in range(MIN_BID, MAX_BID + 1)),
    PASS,
    *(Action.trump(s) for s in range(4)),
    *(Action.card(k, c) for k in (Kind.DISCARD, Kind.GIVE, Kind.PLAY) for c in range(53)),
    UNDO,
    DONE,
    AUTO,
    READY,
)


def modest(state: EightyThreeState, seat: int, rng: random.Random) -> Action:
    legal = state.legal_actions(seat)
    if state.phase == Phase.AUCTION:
        return PASS if PASS in legal and rng.random() < 0.7 else legal[0]
    return legal[int(rng.random() * len(legal))]


def random_any(state: EightyThreeState, seat: int, rng: random.Random) -> Action:
    legal = state.legal_actions(seat)
    return legal[int(rng.random() * len(legal))]


# --------------------------------------------------------------------------- T-83-10


def test_t_83_10_points_add_up_to_83_in_every_seeded_hand() -> None:
    rng = random.Random(8383)
    made = failed = 0
    for hand in range(HANDS_83):
        state = GAME.new_match("standard", 4, 10_000 + hand).state
        policy = random_any if hand % 2 else modest
        while state.phase <= Phase.PLAY:
            awaiting = state.awaiting()
            seat = awaiting[int(rng.random() * len(awaiting))]
            state = state.apply(seat, policy(state, seat, rng)).state
        result = state.last_hand
        assert result is not None
        recount = tuple(sum(points(c, result.trump) for c in state.taken[t]) for t in (0, 1))
        assert recount == result.captured and sum(recount) == 83, (hand, recount)
        assert sum(len(t) for t in state.taken) == 24
        bidders = result.bidder % 2
        assert result.made == (result.captured[bidders] >= result.bid)
        assert result.delta[1 - bidders] == result.captured[1 - bidders]
        assert result.delta[bidders] == (result.captured[bidders] if result.made else -result.bid)
        made += result.made
        failed += not result.made
    assert made and failed  # both branches of 4.8.3 were scored


# --------------------------------------------------------------------------- the checks


def _strings(obj: Any) -> Iterable[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            assert isinstance(k, str)
            assert k != "seed", "no key is called seed"
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)
    else:
        assert obj is None or type(obj) in (int, bool), f"not plain wire data: {obj!r}"


def _visible(state: EightyThreeState, seat: int | None) -> set[str]:
    out: set[str] = set()
    for loc in state.locations():
        if loc.seen_by == "all" or (seat is not None and seat in loc.seen_by):
            out.update(loc.cards)
    return out


def _check_conserved(state: EightyThreeState) -> None:
    counted = Counter(c for loc in state.locations() if loc.counted for c in loc.cards)
    assert counted == Counter(GAME.deck(state.options, 4))


def _check_legal(state: EightyThreeState) -> None:
    awaiting = state.awaiting()
    actors = state.actors()
    for seat in range(4):
        legal = state.legal_actions(seat)
        assert list(legal) == sorted(legal) and len(set(legal)) == len(legal)
        assert bool(legal) == (seat in awaiting)
        if legal:
            assert seat in actors
        view = state.view(seat)
        assert view.legal == legal
        wire = [a.to_wire() for a in legal]
        assert view.to_wire()["legal"] == wire
        assert [GAME.decode_action(w) for w in wire] == list(legal)


def _check_views(state: EightyThreeState, before: EightyThreeState | None, events: tuple[Event, ...]) -> None:
    code = state.deal_code
    in_hand = state.in_round()
    for seat in (None, 0, 1, 2, 3):
        visible = _visible(state, seat) | (_visible(before, seat) if before is not None else set())
        wire = state.view(seat).to_wire()
        named = {s for s in _strings(wire) if s in CARD_NAMES}
        assert named <= visible, f"seat {seat}'s view names {sorted(named - visible)}"
        if in_hand:
            assert wire["deal_code"] is None and code not in set(_strings(wire))
        for event in events_for(events, seat):
            data = event.to_wire()
            strings = set(_strings(data))
            named = {s for s in strings if s in CARD_NAMES}
            assert named <= visible, f"seat {seat} sees {event.kind} naming {sorted(named - visible)}"
            if in_hand:
                assert code not in strings
    # the kitty's cards: to the bidder alone; passed trumps: the partner alone (and the giver)
    for event in events:
        if event.kind == "kitty" and "cards" in event.data:
            assert event.only == (state.bidder,)
        if event.kind == "received":
            assert event.only == ((event.data["from"] + 2) % 4,)
        if event.kind in ("selected", "unselected", "arranged", "partner_trumps", "hand"):
            assert event.only == (event.data["seat"],)


def _expected_error(state: EightyThreeState, seat: int, action: Action) -> type[RulesError]:
    if state.phase == Phase.MATCH_OVER:
        return RoundOverError
    if state.phase == Phase.HAND_OVER:
        return IllegalActionError if action == READY and state.ready[seat] else RoundOverError
    if seat not in state.awaiting():
        return NotYourTurnError
    return IllegalActionError


def _check_refusals(state: EightyThreeState) -> None:
    before = json.dumps(state.to_data(), sort_keys=True)
    for seat in range(4):
        legal = set(state.legal_actions(seat))
        for action in UNIVERSE:
            if action in legal:
                continue
            error = _expected_error(state, seat, action)
            with pytest.raises(RulesError) as info:
                state.apply(seat, action)
            assert type(info.value) is error, (state.phase, seat, str(action), info.value)
    for seat in (-1, 4, None, "0", 1.0):
        with pytest.raises(BadSeatError):
            state.apply(seat, PASS)  # type: ignore[arg-type]
    for junk in (None, "pass", {"kind": "pass"}, (1, -1)):
        with pytest.raises(BadActionError):
            state.apply(0, junk)  # type: ignore[arg-type]
    assert json.dumps(state.to_data(), sort_keys=True) == before


def _check_every_legal_action(state: EightyThreeState) -> None:
    for seat in state.awaiting():
        for action in state.legal_actions(seat):
            t = state.apply(seat, action)
            assert t.state.version == state.version + 1


def _check_persistence(state: EightyThreeState) -> None:
    data = state.to_data()
    for again in (json.loads(json.dumps(data)), msgpack.unpackb(msgpack.packb(data))):
        rebuilt = GAME.state_from_data(again)
        assert rebuilt.to_data() == data
        assert rebuilt.digest() == state.digest()
        for seat in (None, 0, 1, 2, 3):
            assert rebuilt.view(seat).to_wire() == state.view(seat).to_wire()
        for seat in range(4):
            assert rebuilt.legal_actions(seat) == state.legal_actions(seat)


def _play_checked(seed: int, policy: Any, whole: bool, rng: random.Random) -> None:
    """Play a match (or its first hand) from ``seed`` with every check; then replay its log."""
    t = GAME.new_match("standard", 4, seed)
    state: EightyThreeState = t.state
    log: list[tuple[int, dict[str, Any]]] = []
    events: list[Event] = list(t.events)
    _check_views(state, None, t.events)
    steps = in_hand = 0
    while state.phase != Phase.MATCH_OVER and (whole or state.phase <= Phase.PLAY):
        _check_legal(state)
        _check_conserved(state)
        deep = steps % DEEP_EVERY == 0
        if deep:
            _check_refusals(state)
            _check_every_legal_action(state)
            _check_persistence(state)
        awaiting = state.awaiting()
        seat = awaiting[int(rng.random() * len(awaiting))]
        action = policy(state, seat, rng)
        t = state.apply(seat, action)
        assert t.state.version == state.version + 1
        _check_views(t.state, state, t.events)
        log.append((seat, action.to_wire()))
        events += t.events
        in_hand = 0 if any(e.kind == "hand_start" for e in t.events) else in_hand + 1
        assert in_hand < CAP, "a hand did not end"
        state = t.state
        steps += 1
        if state.phase == Phase.HAND_OVER:
            assert state.last_hand is not None and sum(state.last_hand.captured) == 83
    _check_conserved(state)
    _check_persistence(state)
    if whole:
        out = state.outcome()
        assert out is not None and out.winners in TEAMS and max(out.team_scores) >= 200
    # replay from the log: the same final state and the same events
    replay = GAME.new_match("standard", 4, seed)
    again: EightyThreeState = replay.state
    again_events = list(replay.events)
    for seat, wire in log:
        step = again.apply(seat, GAME.decode_action(wire))
        again = step.state
        again_events += step.events
    assert json.dumps(again.to_data(), sort_keys=True) == json.dumps(state.to_data(), sort_keys=True)
    assert again_events == events


@pytest.mark.parametrize("match", range(MATCHES))
def test_whole_matches_with_every_check(match: int) -> None:
    _play_checked(50_000 + match, modest, True, random.Random(match))


@pytest.mark.parametrize("hand", range(FIRST_HANDS))
def test_random_any_hands_with_every_check(hand: int) -> None:
    _play_checked(60_000 + hand, random_any, False, random.Random(hand))


# --------------------------------------------------------------------------- PYTHONHASHSEED

_DIGEST_SCRIPT = """
import hashlib, json, random, sys
import meja.games
meja.games.load("meja.games.eighty_three")
from meja.games.eighty_three.rules import GAME, Phase
out = hashlib.sha256()
for seed in range(6):
    rng = random.Random(seed)
    t = GAME.new_match("standard", 4, seed)
    state = t.state
    steps = 0
    while state.phase <= Phase.PLAY or (state.phase == Phase.HAND_OVER and state.round < 3):
        seat = rng.choice(state.awaiting())
        legal = state.legal_actions(seat)
        t = state.apply(seat, legal[int(rng.random() * len(legal))])
        state = t.state
        out.update(state.digest().encode())
        out.update(json.dumps([[e.kind, e.data, e.only, list(e.hidden_from)] for e in t.events]).encode())
        out.update(json.dumps([state.view(s).to_wire() for s in (None, 0, 1, 2, 3)]).encode())
print(out.hexdigest())
"""


def test_the_same_results_under_two_hash_seeds() -> None:
    root = Path(__file__).resolve().parents[3]
    digests = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST_SCRIPT], env=env, cwd=root, capture_output=True, text=True, check=True
        )
        digests.append(done.stdout.strip())
    assert len(digests[0]) == 64 and digests[0] == digests[1]
    # and in this process too (whatever its hash seed)
    here = subprocess.run(
        [sys.executable, "-c", _DIGEST_SCRIPT], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert here == digests[0]
    assert hashlib.sha256(b"").hexdigest() != here
