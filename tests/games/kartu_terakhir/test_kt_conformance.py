"""Conformance of the Kartu Terakhir engine: random play at 2, 4, 7 and 10 seats, checked at every step.

After OpenSpiel's ``open_spiel/tests/basic_tests.h`` (docs/architecture.md 4.6), and beside the
lead's generic suite over every game: this one knows the game, so it checks more.

What is checked
---------------
For each seat count and each of four option sets (the defaults; stacking;
mandatory stacking with a 500 match and no reaction wait; a 500 match), a number
of seeded matches (:data:`MATCHES`; ``MEJA_LONG=1`` for many more), at every state:

- **legal actions** are sorted and distinct; a seat has some exactly when it is in
  ``actors()``; ``awaiting()`` is among the actors; each seat's view lists the same
  actions in its wire ``legal``; the default action of an awaited seat is legal or
  ``None``, never a play (3.7), and never ``None`` between rounds;
- in *deep* states (every state of one match in :data:`DEEP_EVERY`): **every** legal
  action of every actor is applied and accepted; **every other action** of the game
  (every play of every card and colour, every other kind) is refused with the right
  typed error (``RoundOverError`` after a round, ``NotYourTurnError`` for a turn action
  by a seat whose turn it is not, else ``IllegalActionError``) and ``to_data()`` is
  unchanged; seats that do not exist are refused; the state survives ``to_data`` through
  JSON and msgpack (equal state, legal actions and views);
- **cards are conserved**: the counted ``locations()`` hold exactly ``Game.deck()``;
- **the version** goes up by one per action; epochs are never ahead of it;
- **every round ends** within a generous cap;
- **nothing leaks**: each seat's (and a spectator's) view, and each event it may see,
  names only cards lying in a location that seat may see (before or after the action,
  for events); no key is called ``seed``; neither the match seed nor the round seed
  appears; the deal code of the round in progress appears in no view and no event;
- **replay**: the match's log of ``(seat, wire action)`` replayed through
  ``decode_action`` from ``new_match`` gives the same final state and the same events;
- **hash seeds**: the same seeded runs give the same fingerprint in two subprocesses
  with different ``PYTHONHASHSEED`` values.

Policies: most rounds use *random-card* (a random play, draw only when stuck, take or
challenge a Wild Draw Four at random; when a catch window opens, the target calls, a
random other seat catches, or nobody does, a third each); one round in
:data:`ANY_EVERY` uses *random-all*, uniform over every (seat, action) pair of every
actor, with the timed action taken 30% of the time when one is listed (what the
generic contract suite does); those rounds are long (about 1,500 actions: a voluntary
draw is always legal, 3.3.3).

``MEJA_LONG=1`` plays 60 matches per configuration with deeper checks (many minutes).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import msgpack
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # when run as a script (the hash-seed test)

from meja.games.kartu_terakhir.rules import (
    _ALL_MOVES,
    DECK,
    DRAW,
    DRAW_KEEP,
    PASS,
    TIMER_TAKE,
    KartuTerakhirState,
    Kind,
    Move,
    Phase,
)
from meja.rules import (
    BadActionError,
    BadSeatError,
    Event,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    RulesError,
)
from meja.rules.game import TABLE_EVENT_KINDS

from games.kartu_terakhir.kt_helpers import CALL, CATCH, CHALLENGE, GAME, TAKE

LONG = os.environ.get("MEJA_LONG") == "1"
#: Matches per (seat count, option set). A 500 match is several rounds.
MATCHES = 60 if LONG else 4
DEEP_EVERY = 2
ANY_EVERY = 8
SEATS = (2, 4, 7, 10)
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"stacking": True},
    {"stacking": True, "stacking_mandatory": True, "match": "500", "reaction_ms": 0},
    {"match": "500"},
)
ROUND_CAP = 200_000
#: deep checks stop after this many states of a match (random-all rounds run to thousands)
DEEP_STATES = 400 if LONG else 25
DECK_COUNT = Counter(DECK)
CARD_RE = re.compile(r'"([RYGB](?:\d|S|R|D2)|WD4|W)"')


def match_seed(seats: int, options: int, match: int) -> int:
    """A 128-bit seed per match: large, so that it cannot equal a small number in a view."""
    digest = hashlib.sha256(f"kt-conformance/{seats}/{options}/{match}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def visibility(state: KartuTerakhirState) -> dict[int | None, set[str]]:
    """The card names each seat (``None``: a spectator) may see, from one call of ``locations()``."""
    public: set[str] = set()
    private: dict[int, set[str]] = {}
    for loc in state.locations():
        if loc.seen_by == "all":
            public.update(loc.cards)
        else:
            for seat in loc.seen_by:
                private.setdefault(seat, set()).update(loc.cards)
    out: dict[int | None, set[str]] = {None: public}
    for seat in range(state.seats):
        out[seat] = public | private.get(seat, set())
    return out


def record(events: tuple[Event, ...]) -> list[Any]:
    return [[e.kind, e.data, e.only, list(e.hidden_from)] for e in events]


def expected_error(state: KartuTerakhirState, seat: int, move: Move) -> type[RulesError]:
    """The error a refused action must raise (see the module docstring)."""
    phase = state.phase
    if phase == Phase.MATCH_OVER:
        return RoundOverError
    if phase == Phase.ROUND_OVER:
        return IllegalActionError if move.kind == Kind.READY and state.ready[seat] else RoundOverError
    if move.kind in (Kind.CALL, Kind.CATCH, Kind.READY):
        return IllegalActionError
    if phase == Phase.REACT:
        return IllegalActionError if seat == state.turn else NotYourTurnError
    return NotYourTurnError if seat != state.turn else IllegalActionError


class Run:
    """The matches of one configuration."""

    def __init__(self, seats: int, option_set: int) -> None:
        self.seats = seats
        self.option_set = option_set
        self.options = GAME.options_from_wire(OPTION_SETS[option_set])
        self.stats: Counter[str] = Counter()
        self.fingerprint = hashlib.sha256()

    # ---------------------------------------------------------------- per state

    def check_state(self, state: KartuTerakhirState, deep: bool, seeds: tuple[str, ...]) -> None:
        n = self.seats
        actors = state.actors()
        awaiting = state.awaiting()
        assert set(awaiting) <= set(actors)
        counted = Counter(c for loc in state.locations() if loc.counted for c in loc.cards)
        assert counted == DECK_COUNT, f"cards not conserved: {counted - DECK_COUNT} / {DECK_COUNT - counted}"
        between = not state.in_round() and state.outcome() is None
        for seat in range(n):
            legal = state.legal_actions(seat)
            assert list(legal) == sorted(legal) and len(set(legal)) == len(legal), legal
            assert bool(legal) == (seat in actors), (seat, legal, actors)
            assert state.epoch(seat) <= state.version
            if seat in awaiting:
                default = state.default_action(seat)
                # the timer never plays (3.7); its draw is draw_keep, in place of a legal draw, or
                # where the piles are spent and a card could be played (it draws none: 3.3.5); its
                # take is timer_take where mandatory stacking leaves no take to choose (3.11.4)
                assert default is not None or between or state.phase != Phase.PLAY
                assert default is None or default.kind != Kind.PLAY
                spent = not state.stock and len(state.discard) == 1 and PASS not in legal
                forced = state.pending and TAKE not in legal
                assert default is None or default in legal or (default == DRAW_KEEP and (DRAW in legal or spent)) \
                    or (default == TIMER_TAKE and forced)
                if default == DRAW_KEEP and spent:
                    assert state.apply(seat, DRAW_KEEP).state.hands[seat] == state.hands[seat]
                if between:
                    assert default is not None
        code = state.deal_code if state.in_round() else None
        viewers = (None, *range(n)) if deep else (None, *awaiting)
        seen = visibility(state)
        for seat in viewers:
            view = state.view(seat)
            assert view.legal == (state.legal_actions(seat) if seat is not None else ())
            wire = view.to_wire()
            assert wire["legal"] == [a.to_wire() for a in view.legal]
            self.check_wire(wire, seen[seat], f"seat {seat}'s view", code, seeds)
        if deep:
            self.check_refusals(state)
            self.check_persistence(state)
            for seat in actors:
                for move in state.legal_actions(seat):
                    t = state.apply(seat, move)
                    assert t.state.version == state.version + 1
                    self.stats["alternatives"] += 1
            for timed in state.timed_actions():
                assert state.apply(timed.seat, timed.action).state.version == state.version + 1

    def check_wire(self, wire: Any, allowed: set[str], what: str, code: str | None, seeds: tuple[str, ...]) -> None:
        self.check_names(self.scan(wire, what, code, seeds), allowed, what)

    @staticmethod
    def scan(wire: Any, what: str, code: str | None, seeds: tuple[str, ...]) -> set[str]:
        """Check ``wire`` for seeds and the deal code; the card names it holds."""
        text = json.dumps(wire)
        assert '"seed":' not in text, f"{what} has a key named 'seed'"
        for secret in seeds:
            assert secret not in text, f"{what} holds a seed"
        if code is not None:
            assert code not in text and code.replace("-", "") not in text, f"{what} holds the deal code"
        return set(CARD_RE.findall(text))

    @staticmethod
    def check_names(names: set[str], allowed: set[str], what: str) -> None:
        leaked = names - allowed
        assert not leaked, f"{what} names {sorted(leaked)}, which it may not see"

    def check_refusals(self, state: KartuTerakhirState) -> None:
        before = json.dumps(state.to_data(), sort_keys=True)
        timed = {(t.seat, t.action) for t in state.timed_actions()}
        for seat in range(self.seats):
            legal = set(state.legal_actions(seat))
            for move in _ALL_MOVES:
                if move in legal or (seat, move) in timed or (move == DRAW_KEEP and DRAW in legal):
                    continue  # (the timer's draw_keep is accepted wherever a draw is)
                if move == TIMER_TAKE and state.phase == Phase.PLAY and seat == state.turn and state.pending:
                    continue  # (and its take wherever a penalty is pending against the seat on turn)
                want = expected_error(state, seat, move)
                try:
                    state.apply(seat, move)
                except RulesError as exc:
                    assert type(exc) is want, f"seat {seat} {move}: {type(exc).__name__} ({exc}), not {want.__name__}"
                    self.stats[f"refused as {exc.code}"] += 1
                else:
                    raise AssertionError(f"seat {seat} was allowed {move}, not legal: {sorted(legal)}")
        for bad in (-1, self.seats, 99):
            with pytest.raises(BadSeatError):
                state.apply(bad, TAKE)
        with pytest.raises(BadActionError):
            state.apply(0, 7)  # type: ignore[arg-type]
        assert json.dumps(state.to_data(), sort_keys=True) == before, "a refused action changed the state"

    def check_persistence(self, state: KartuTerakhirState) -> None:
        data = state.to_data()
        for text in (json.loads(json.dumps(data)), msgpack.unpackb(msgpack.packb(data, use_bin_type=True))):
            again = GAME.state_from_data(text)
            assert again == state and again.to_data() == data
            for seat in range(self.seats):
                assert again.legal_actions(seat) == state.legal_actions(seat)
            for seat in (None, *state.awaiting()):
                assert again.view(seat).to_wire() == state.view(seat).to_wire()

    # ---------------------------------------------------------------- per action

    def check_step(
        self, before: KartuTerakhirState, after: KartuTerakhirState, events: tuple[Event, ...], seeds: tuple[str, ...]
    ) -> None:
        assert after.version == before.version + 1
        code = before.deal_code if before.in_round() and after.in_round() and after.round == before.round else None
        audiences = (None, *range(self.seats))
        was, now = visibility(before), visibility(after)
        allowed = {s: was[s] | now[s] for s in audiences}
        for e in events:
            assert isinstance(e, Event) and e.kind not in TABLE_EVENT_KINDS
            assert e.only is None or all(0 <= s < self.seats for s in e.only)
            self.stats[f"event {e.kind}"] += 1
            names = self.scan(e.to_wire(), f"event {e.kind}", code, seeds)
            if names:
                for seat in audiences:
                    if e.is_seen_by(seat):
                        self.check_names(names, allowed[seat], f"event {e.kind} for seat {seat}")
        if after.round != before.round or (before.in_round() and not after.in_round()):
            kinds = [e.kind for e in events]
            assert "round_over" in kinds or not before.in_round()
            if after.in_round():
                assert "round_start" in kinds

    # ---------------------------------------------------------------- policies

    def choose(self, state: KartuTerakhirState, rnd: random.Random, mode: str, fresh: bool) -> tuple[int, Move]:
        if mode == "random-all":
            choices = [(s, a) for s in state.actors() for a in state.legal_actions(s)]
            timed = state.timed_actions()
            if timed and (not choices or rnd.random() < 0.3):
                return timed[0].seat, timed[0].action
            assert choices, "nobody may act and nothing is timed: stuck"
            return rnd.choice(choices)
        if fresh and state.window >= 0:
            roll = rnd.randrange(3)
            if roll == 0:
                return state.window, CALL
            if roll == 1:
                others = [s for s in range(self.seats) if s != state.window]
                return rnd.choice(others), CATCH
        awaiting = state.awaiting()
        if not awaiting:
            timed = state.timed_actions()
            assert timed, "nobody awaited and nothing timed"
            return timed[0].seat, timed[0].action
        seat = awaiting[0]
        legal = state.legal_actions(seat)
        plays = [a for a in legal if a.kind == Kind.PLAY]
        if plays:
            return seat, rnd.choice(plays)
        if CHALLENGE in legal and rnd.random() < 0.5:
            return seat, CHALLENGE
        return seat, legal[0]

    # ---------------------------------------------------------------- matches

    def play(self, number: int, checks: bool = True) -> None:
        """One whole match; ``checks=False`` plays it for its fingerprint alone (the hash-seed test)."""
        seed = match_seed(self.seats, self.option_set, number)
        rnd = random.Random(seed)
        deep = number % DEEP_EVERY == 0
        start = GAME.new_match(self.options, self.seats, seed)
        state: KartuTerakhirState = start.state
        events = record(start.events)
        log: list[tuple[int, dict[str, Any]]] = []
        mode = "random-all" if rnd.randrange(ANY_EVERY) == 0 else "random-card"
        in_round = states = 0
        window = -1
        while state.outcome() is None:
            seeds = (str(seed), str(state.seed), f"{state.seed:032x}")
            if checks:
                self.check_state(state, deep and states < DEEP_STATES, seeds)
            states += 1
            fresh = state.window >= 0 and state.window != window
            window = state.window
            seat, move = self.choose(state, rnd, mode, fresh)
            t = state.apply(seat, move)
            if checks:
                self.check_step(state, t.state, t.events, seeds)
            log.append((seat, move.to_wire()))
            events += record(t.events)
            self.fingerprint.update(json.dumps([seat, move.to_wire(), record(t.events)]).encode())
            in_round += 1
            assert in_round < ROUND_CAP, "a round did not end"
            if t.state.round != state.round or not t.state.in_round():
                if state.in_round():
                    self.stats["rounds"] += 1
                    self.stats[f"{mode} rounds"] += 1
                    self.stats["longest round"] = max(self.stats["longest round"], in_round)
                in_round = 0
                mode = "random-all" if rnd.randrange(ANY_EVERY) == 0 else "random-card"
            state = t.state
        assert state.actors() == () and state.phase == Phase.MATCH_OVER
        outcome = state.outcome()
        assert outcome is not None and len(outcome.scores) == self.seats and set(outcome.winners) <= set(range(99))
        self.fingerprint.update(json.dumps(state.to_data()).encode())
        self.stats["matches"] += 1
        if not checks:
            self.stats.update(f"event {e[0]}" for e in events)
            return
        self.check_state(state, deep, (str(seed),))
        # the log replays to the same match
        again = GAME.new_match(self.options, self.seats, seed)
        replayed, replay_events = again.state, record(again.events)
        for s, wire in json.loads(json.dumps(log)):
            t = replayed.apply(s, GAME.decode_action(wire))
            replayed = t.state
            replay_events += record(t.events)
        assert json.dumps(replayed.to_data()) == json.dumps(state.to_data()), "the replay ends elsewhere"
        assert replay_events == events, "the replay's events differ"


CONFIGS = [(n, o) for n in SEATS for o in range(len(OPTION_SETS))]


@pytest.mark.parametrize(("seats", "option_set"), CONFIGS, ids=[f"{n}-opts{o}" for n, o in CONFIGS])
def test_conformance(seats: int, option_set: int) -> None:
    run = Run(seats, option_set)
    for number in range(MATCHES):
        run.play(number)
    stats = run.stats
    assert stats["matches"] == MATCHES and stats["rounds"] >= MATCHES
    assert stats["alternatives"] > 0 and stats["refused as action/illegal"] > 0
    assert stats["refused as action/not_your_turn"] > 0 and stats["refused as action/round_over"] > 0
    assert stats["event round_over"] == stats["rounds"] and stats["event play"] > 0 and stats["event draw"] > 0
    if OPTION_SETS[option_set].get("match") == "500":
        assert stats["event ready"] > 0


def test_the_runs_cover_every_action_and_event() -> None:
    """Across a few configurations, the policies reach every kind of action and event (so the checks
    above are not vacuous for any of them)."""
    total: Counter[str] = Counter()
    for seats, option_set in ((2, 1), (4, 0), (10, 3)):
        run = Run(seats, option_set)
        for number in range(MATCHES):
            run.play(number, checks=False)
        total.update(run.stats)
    for kind in (
        "play", "draw", "keep", "pass", "challenge", "shown", "call", "catch", "call_cancelled", "window",
        "skip", "reverse", "reshuffle", "round_start", "round_over", "match_over", "ready", "turn", "hand",
    ):  # fmt: skip
        assert total[f"event {kind}"] > 0, kind


# --------------------------------------------------------------------------- hash seeds


def fingerprints(matches: int) -> dict[str, str]:
    out = {}
    for seats, option_set in CONFIGS:
        run = Run(seats, option_set)
        for number in range(matches):
            run.play(number, checks=False)
        out[f"{seats}-{option_set}"] = run.fingerprint.hexdigest()
    return out


def test_the_same_under_two_hash_seeds() -> None:
    here = Path(__file__).resolve()
    results = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, str(here), "fingerprints", "2"],
            capture_output=True, text=True, env=env, timeout=600, check=False,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr[-3000:]
        results.append(json.loads(proc.stdout))
    assert results[0] == results[1] and len(results[0]) == len(CONFIGS)
    assert results[0] == fingerprints(2)


if __name__ == "__main__":
    # python tests/games/kartu_terakhir/test_kt_conformance.py fingerprints MATCHES (the hash-seed test)
    if sys.argv[1:2] == ["fingerprints"]:
        print(json.dumps(fingerprints(int(sys.argv[2]))))
    else:
        sys.exit("usage: test_kt_conformance.py fingerprints MATCHES")
