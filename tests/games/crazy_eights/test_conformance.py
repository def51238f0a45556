"""Conformance suite of the Crazy Eights engine: every preset and seat count, many seeded rounds.

After OpenSpiel's ``open_spiel/tests/basic_tests.h`` (docs/architecture.md 4.6): random
play, with the game's invariants checked at every state and every action.

What is checked
---------------
For every preset and seat count (house 2-3, classic 2-4, party 2-8),
:data:`ROUNDS` rounds each (1,000 in CI; ``MEJA_CONFORMANCE_ROUNDS=20000`` for
a longer run), at every state reached:

- **Legal actions** are sorted with no duplicates; a seat has some exactly when
  ``awaiting()`` names it; each seat's view lists the same actions; the chosen
  one is accepted everywhere, and in *deep* rounds (one in
  :data:`DEEP_EVERY`) *every* legal action of every awaited seat is applied
  and accepted at every state.
- **Everything else is rejected** (deep rounds, every state): plays of held
  cards that are not playable, plays of cards not held, 8s without a suit or
  with one when going out, a suit on a card that is not an 8, draw, pass, suit
  and ready where not legal, any action by a seat not awaited, seat numbers
  that do not exist, and values that are not actions. Each raises the right
  :class:`~meja.rules.errors.RulesError` subclass (``NotYourTurnError`` for a
  seat not awaited, ``RoundOverError`` after the round, else
  ``IllegalActionError``) and leaves ``to_data()`` unchanged.
- **Cards are conserved**: hands, stock and discard hold each card of the
  deck (two for party at 6-8 seats) exactly once.
- **Version** goes up by exactly one per action.
- **Every round ends**, within :data:`CAP_RANDOM_CARD` or :data:`CAP_RANDOM_ANY`
  actions; and no full circle of passes happens while nothing can be drawn
  (docs/rules/crazy-eights.md 1.5.5).
- **Nothing leaks** (docs/architecture.md 3.3: views by allow-list). For each seat and a
  spectator, in its view and in each event it may see (``events_for``), every
  card string of the wire form is collected: a card may appear only if it is
  the seat's own (before or after the action), on the discard pile, or in the
  ``round_over`` reveal once the round has ended. No card in the stock ever
  appears (the stock order is never sent; the starters ``buried`` in classic
  are public by 2.2.2, then reshuffled), no key is called ``seed``, the round
  and match seeds never appear, and the current deal code appears nowhere
  while its round is in progress (a view's ``deal_code`` is ``None`` during
  play; the ``round_over`` event reveals it). A view's ``last_round`` must equal
  what the last ``round_over`` event revealed. Wire data is plain (dict, list,
  str, int, bool, None; checked type by type in deep rounds). Events are
  checked for every audience after every action; views of every seat and a
  spectator at every state of one round in :data:`ALL_VIEWS_EVERY` and of
  deep rounds, and the awaited seats' views at every other state (a view is
  a function of the state, so this samples the same states many times over).
- **Persistence** (deep rounds): ``state_from_data`` of ``to_data`` (through
  JSON) gives equal data, digest, legal actions, views (of the awaited seats
  and a spectator), and the same next state.
- **Replay**: each match's log of ``(seat, action wire form)`` is replayed from
  ``new_match`` through ``decode_action`` and ``apply``: the final ``to_data()``
  is equal byte for byte (as JSON), the digest equal, and the events equal.
- **Hash seeds**: the same seeded runs give the same states and events in two
  subprocesses with different ``PYTHONHASHSEED`` values (sets of strings and
  plain Enums change their order with it).

Policies and mix
----------------
Most rounds use ``random-card`` (a random legal play, draw only when stuck,
pass when that is all that is left; :func:`meja.games.crazy_eights.playouts.random_card`);
one round in :data:`ANY_EVERY` uses ``random-any`` (uniform over all legal
actions); in ``house`` it draws up to three cards a turn and makes very long
rounds (about 640 actions), so there only one in :data:`ANY_EVERY_HOUSE`. One match in
:data:`WHOLE_EVERY` is played whole (ready phase, every round to the end of the
match); the others stop after round 1. Matches rotate through three option
sets: the preset's defaults; ``drawn_card_play=optional`` with
``starter_eight_chooser=first_player``; and ``match_mode=wins`` over 3 rounds.

Every seed is derived from (preset, seats, match number), so a failure names
its match and action and reproduces exactly.

Cost, measured when written, on the shared 2-core machine with a load average
of about 4 (other engineers' test runs): about 190 s wall and 150 s of CPU for
this file at 1,000 rounds (house 3 seats is the slowest, about 25 s, because of
its random-any rounds; the hash-seed test about 9 s). On an idle machine it
should be nearer 2 minutes. ``MEJA_CONFORMANCE_ROUNDS=4000`` took 19 minutes
niced under the same load.
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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from meja.games.crazy_eights.playouts import random_card
from meja.rules.playout import random_any
from meja.rules import (
    CARDS,
    BadActionError,
    BadSeatError,
    Event,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    RulesError,
    Suit,
    events_for,
    get_game,
)
from meja.games.crazy_eights.rules import (
    DRAW,
    PASS,
    PRESETS,
    READY,
    CrazyEightsState,
    Kind,
    Move,
    Phase,
    penalty,
)

GAME = get_game("crazy_eights")

#: Rounds per configuration. 1,000 in CI; set MEJA_CONFORMANCE_ROUNDS for a longer run.
ROUNDS = int(os.environ.get("MEJA_CONFORMANCE_ROUNDS", "1000"))
#: One round in this many is deep: every legal action applied, illegal ones tried, persistence.
DEEP_EVERY = 25
#: Deep checks stop after this many states of a round (random-any house rounds run to thousands).
DEEP_STATES = 150
#: One round in this many (on average) plays random-any instead of random-card.
ANY_EVERY = 20
#: ... except in house, where they are long (about 640 actions): one in this many.
ANY_EVERY_HOUSE = 40
#: In one round in this many (and in deep rounds) every seat's view is checked at every state;
#: in the others, the views of the seats awaited next.
ALL_VIEWS_EVERY = 8
#: One match in this many is played whole, through the ready phase, to the end of the match.
WHOLE_EVERY = 4
#: Generous bounds on a round's length: random-card rounds average about 55 actions (the
#: longest seen is a few hundred); random-any house rounds about 640 (a few thousand).
CAP_RANDOM_CARD = 5_000
CAP_RANDOM_ANY = 200_000

CONFIGS = [(name, n) for name, o in PRESETS.items() for n in range(o.min_seats, o.max_seats + 1)]
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"drawn_card_play": "optional", "starter_eight_chooser": "first_player"},
    {"match_mode": "wins", "rounds": 3},
)

CARD_OF_NAME = {str(c): c for c in CARDS}
IN_ROUND = (Phase.PLAY, Phase.CHOOSE_SUIT)
PLAIN = (str, int, bool, type(None))

Policy = Callable[[tuple[Move, ...], random.Random], Move]


def match_seed(preset: str, seats: int, match: int) -> int:
    """A 64-bit seed per match: large, so that it cannot equal a small number in a view."""
    digest = hashlib.sha256(f"conformance/{preset}/{seats}/{match}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def event_record(events: Iterable[Event]) -> list[Any]:
    """Events as plain, ordered data, audiences included (for replay and hash-seed checks)."""
    return [[e.kind, e.data, e.only, list(e.hidden_from)] for e in events]


def is_in_round(state: CrazyEightsState) -> bool:
    return state.phase in IN_ROUND


# --------------------------------------------------------------------------- leak checks


def walk(obj: Any, strings: list[str], ints: list[int]) -> None:
    """Collect the str and int leaves of wire data; fail on anything that is not plain data.

    Iterative and path-free, because it runs on every view and event; on a
    failure, :func:`_where` finds the path for the message.
    """
    stack = [obj]
    pop = stack.pop
    extend = stack.extend
    add_str = strings.append
    add_int = ints.append
    while stack:
        o = pop()
        t = type(o)
        if t is str:
            add_str(o)
        elif t is int:
            add_int(o)
        elif t is list:
            extend(o)
        elif t is dict:
            for k in o:
                if type(k) is not str or k == "seed":
                    raise AssertionError(f"wire key {k!r} at {_where(obj, k)}: not a str, or a seed")
            extend(o.values())
        elif o is not None and t is not bool:
            raise AssertionError(f"{o!r} ({t.__name__}) at {_where(obj, o)} is not plain wire data")


def _where(obj: Any, target: Any, path: str = "") -> str | None:
    """The path in ``obj`` of the value (or dict key) ``target``, for failure messages."""
    if obj is target:
        return path or "/"
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k is target:
                return f"{path}/{k!r}"
            found = _where(v, target, f"{path}/{k}")
            if found:
                return found
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found = _where(v, target, f"{path}/{i}")
            if found:
                return found
    return None


_CODES: dict[tuple[str, int, int, int], str] = {}


def _deal_code(state: CrazyEightsState) -> str:
    """``state.deal_code``, remembered: it is the same for every state of a round."""
    key = (state.options.preset, state.seats, state.leader, state.seed)
    code = _CODES.get(key)
    if code is None:
        code = _CODES[key] = state.deal_code
    return code


#: A card as a whole JSON string: "8H", "10C", "QS.2" (the second deck's copy).
CARD_RE = re.compile(r'"((?:10|[2-9AJQK])[SHDC](?:\.2)?)"')


class Secrets:
    """What may not appear in what one audience sees, after one action (``state`` is the result).

    Wire data is searched as JSON text (C speed: this runs on every view and
    event): card names are whole JSON strings; seeds and deal codes are
    searched as substrings (the seeds are 40 and 64 bits long, far longer
    than any other number in a view or event).
    """

    def __init__(self, state: CrazyEightsState, match_seed: int, before: CrazyEightsState | None) -> None:
        self.state = state
        self.in_round = is_in_round(state)
        self.stock = frozenset(state.stock)
        public = set(state.discard)
        if before is not None:
            public.update(before.discard)
        self.public = public
        self.hands_before = before.hands if before is not None else None
        self._own: dict[int | None, set[int]] = {}
        self.match_seed = str(match_seed)
        seed = state.seed
        self.seed = str(seed) if self.in_round and seed >= 1 << 24 else None
        self.code = _deal_code(state) if self.in_round else None
        self.code_plain = self.code.replace("-", "") if self.code else None

    def own(self, seat: int | None) -> set[int]:
        """The cards ``seat`` holds before or after the action (a spectator holds none)."""
        own = self._own.get(seat)
        if own is None:
            own = self._own[seat] = set()
            if seat is not None:
                own.update(self.state.hands[seat])
                if self.hands_before is not None:
                    own.update(self.hands_before[seat])
        return own

    def scan(self, wire: Any, what: str, strict: bool = False) -> list[str]:
        """Check ``wire`` for seeds and the deal code; return the card names in it."""
        if strict:
            walk(wire, [], [])
        text = json.dumps(wire)
        assert '"seed":' not in text, f"{what} has a key named 'seed'"
        assert self.match_seed not in text, f"{what} holds the match seed"
        if self.seed is not None:
            assert self.seed not in text, f"{what} holds the seed of the round in progress"
        if self.code is not None:
            assert self.code not in text and self.code_plain not in text, (
                f"{what} holds the deal code {self.code} of the round in progress"
            )
        names: list[str] = CARD_RE.findall(text)
        return names

    def check_cards(self, names: Sequence[str], seat: int | None, what: str) -> None:
        """Each card ``seat`` is shown is its own, on the discard pile, and not in the stock."""
        if not names:
            return
        who = "spectator" if seat is None else f"seat {seat}"
        own = self.own(seat)
        for name in names:
            card = CARD_OF_NAME[name]
            assert card not in self.stock, f"{what} for {who} shows {name}, a card in the stock"
            assert card in own or card in self.public, (
                f"{what} for {who} shows {name}, which is in another seat's hand"
            )


def check_events(
    before: CrazyEightsState,
    after: CrazyEightsState,
    events: Sequence[Event],
    match_seed: int,
    strict: bool = False,
) -> None:
    """Each seat's and the spectator's events leak nothing (see the module docstring)."""
    secrets = Secrets(after, match_seed, before)
    audiences = (None, *range(after.seats))
    if strict:
        for seat in audiences:
            assert events_for(events, seat) == tuple(e for e in events if e.is_seen_by(seat))
    for e in events:
        wire = e.to_wire()
        what = f"the {e.kind!r} event"
        if e.kind == "round_over":
            # 1.9.3: the reveal is public, once the round is over
            assert not is_in_round(after), "a round_over event while the round goes on"
            secrets.scan(wire, what, strict)
            continue
        if e.kind == "round_start" and "buried" in e.data:
            # 2.2.2: buried starter 8s are shown to all, then reshuffled into the stock
            assert all(CARD_OF_NAME[c].rank == 8 for c in e.data["buried"])
            wire = {k: v for k, v in wire.items() if k != "buried"}
        names = secrets.scan(wire, what, strict)
        for seat in audiences:
            if e.is_seen_by(seat):
                secrets.check_cards(names, seat, what)


def check_views(
    state: CrazyEightsState,
    match_seed: int,
    reveal: Any,
    strict: bool = False,
    seats: Iterable[int | None] | None = None,
) -> None:
    """Views (of ``seats``; default every seat and a spectator): consistent, and leaking nothing."""
    secrets = Secrets(state, match_seed, None)
    in_round = is_in_round(state)
    for seat in (None, *range(state.seats)) if seats is None else seats:
        wire = state.view(seat).to_wire()
        last = wire.pop("last_round")
        # what the last round_over event revealed, and nothing else
        assert last == reveal, f"view's last_round {last!r} is not the revealed {reveal!r}"
        secrets.check_cards(secrets.scan(wire, "the view", strict), seat, "the view")
        if in_round:
            assert wire["deal_code"] is None, "the view shows the deal code of the round in progress"
        else:
            assert wire["deal_code"] == state.deal_code
        assert wire["version"] == state.version
        assert wire["hand_counts"] == [len(h) for h in state.hands]
        assert wire["stock_count"] == len(state.stock)
        assert wire["discard_count"] == len(state.discard)
        assert wire["top"] == str(state.discard[-1])
        if seat is None:
            assert wire["hand"] is None and wire["legal"] == []
        else:
            assert wire["hand"] == [str(c) for c in state.hands[seat]]
            assert wire["legal"] == [m.to_wire() for m in state.legal_actions(seat)]


# --------------------------------------------------------------------------- state checks


_DECKS = {1: list(range(52)), 2: list(range(104))}


def check_conserved(state: CrazyEightsState) -> None:
    deck = _DECKS[state.options.decks(state.seats)]
    cards = [c for h in state.hands for c in h]
    cards += state.stock
    cards += state.discard
    cards.sort()
    assert cards == deck, (
        f"cards not conserved: {len(cards)} cards, {len(set(cards))} distinct, deck of {len(deck)}"
    )


def check_legal(state: CrazyEightsState) -> None:
    awaiting = state.awaiting()
    assert list(awaiting) == sorted(set(awaiting))
    if state.phase == Phase.MATCH_OVER:
        assert awaiting == () and state.outcome() is not None
    else:
        assert awaiting and state.outcome() is None
    for seat in range(state.seats):
        legal = state.legal_actions(seat)
        assert type(legal) is tuple
        assert bool(legal) == (seat in awaiting), f"seat {seat}: legal {legal}, awaiting {awaiting}"
        if len(legal) > 1:
            keys = [m.sort_key for m in legal]
            assert keys == sorted(set(keys)), f"seat {seat}'s legal actions are not sorted: {legal}"


def expected_error(state: CrazyEightsState, seat: int, move: Move) -> type[RulesError]:
    if state.phase == Phase.MATCH_OVER:
        return RoundOverError
    if state.phase == Phase.ROUND_OVER:
        return IllegalActionError if move.kind == Kind.READY else RoundOverError
    if seat not in state.awaiting():
        return NotYourTurnError
    return IllegalActionError


def illegal_candidates(state: CrazyEightsState, rnd: random.Random) -> list[tuple[int, Move]]:
    """Moves that must be rejected (see the module docstring).

    An awaited seat tries each held card with no suit and with each suit (the
    unplayable ones, 8s without a suit or with one when going out, a suit on
    a non-8), cards it does not hold, and every kind it may not use now.
    Every other seat tries the awaited seats' legal actions, two of its own
    cards, and each kind: all must be refused as not its turn (or round over).
    """
    deck = CARDS[: 52 * state.options.decks(state.seats)]
    suits = (None, *Suit)
    awaiting = state.awaiting()
    awaited = [m for s in awaiting for m in state.legal_actions(s)]
    kinds = [DRAW, PASS, READY, Move.choose(Suit(rnd.randrange(4)))]
    out: list[tuple[int, Move]] = []
    for seat in range(state.seats):
        legal = set(state.legal_actions(seat))
        hand = state.hands[seat]
        if seat in awaiting:
            moves = [Move.play(c, s) for c in hand for s in suits]
            held = set(hand)
            not_held = [c for c in rnd.sample(deck, 6) if c not in held][:3]
            not_held.append(state.discard[-1])
            moves += [Move.play(c, s) for c in not_held for s in (None, Suit(rnd.randrange(4)))]
            moves += [DRAW, PASS, READY, *(Move.choose(s) for s in Suit)]
        else:
            moves = awaited + [Move.play(c) for c in rnd.sample(hand, min(2, len(hand)))] + kinds
        out += [(seat, m) for m in dict.fromkeys(moves) if m not in legal]
    return out


def check_rejections(state: CrazyEightsState, rnd: random.Random, stats: Counter[str]) -> None:
    before = state.to_data()
    for seat, move in illegal_candidates(state, rnd):
        expected = expected_error(state, seat, move)
        try:
            state.apply(seat, move)
        except RulesError as err:
            assert type(err) is expected, (
                f"seat {seat} {move} in phase {state.phase.name}: {type(err).__name__} ({err}),"
                f" expected {expected.__name__}"
            )
            assert err.code == expected.code and str(err)
        else:
            raise AssertionError(f"seat {seat} {move} in phase {state.phase.name} was accepted")
        stats["rejected"] += 1
        stats[f"rejected as {expected.code}"] += 1
    some = state.legal_actions(state.awaiting()[0])[0] if state.awaiting() else READY
    for bad_seat in (-1, state.seats, 99):
        with pytest.raises(BadSeatError):
            state.apply(bad_seat, some)
    seat = state.awaiting()[0] if state.awaiting() else 0
    for not_a_move in (some.to_wire(), str(some), None, 0):
        with pytest.raises(BadActionError):
            state.apply(seat, not_a_move)  # type: ignore[arg-type]
    assert state.to_data() == before, "a rejected action changed the state"


def check_all_legal(state: CrazyEightsState, match_seed: int, stats: Counter[str]) -> None:
    """Every legal action of every awaited seat is accepted, with version + 1 and cards kept."""
    for seat in state.awaiting():
        for move in state.legal_actions(seat):
            t = state.apply(seat, move)
            assert t.state.version == state.version + 1
            check_conserved(t.state)
            check_legal(t.state)
            check_events(state, t.state, t.events, match_seed)
            stats["alternatives"] += 1


def check_persistence(state: CrazyEightsState) -> CrazyEightsState:
    data = state.to_data()
    text = json.dumps(data)
    rebuilt = GAME.state_from_data(json.loads(text))
    assert json.dumps(rebuilt.to_data()) == text
    assert rebuilt.digest() == state.digest()
    assert rebuilt.awaiting() == state.awaiting()
    for seat in range(state.seats):
        assert rebuilt.legal_actions(seat) == state.legal_actions(seat)
    for seat in (None, *state.awaiting()):
        assert rebuilt.view(seat).to_wire() == state.view(seat).to_wire()
    return rebuilt


# --------------------------------------------------------------------------- the run


class Conformance:
    """Plays seeded matches of one configuration with every check on; counts what it saw."""

    def __init__(self, preset: str, seats: int) -> None:
        self.preset = preset
        self.seats = seats
        self.stats: Counter[str] = Counter()
        self.rounds = 0
        self.where: tuple[Any, ...] = ()

    def run(self, rounds: int) -> Counter[str]:
        match = 0
        while self.rounds < rounds:
            try:
                self.match(match)
            except AssertionError as exc:
                raise AssertionError(f"{self.describe()}\n{exc}") from None
            match += 1
        return self.stats

    def match(self, number: int) -> None:
        seed = match_seed(self.preset, self.seats, number)
        overrides = OPTION_SETS[number % len(OPTION_SETS)]
        options = GAME.options(self.preset, **overrides)
        whole = number % WHOLE_EVERY == 0
        rnd = random.Random(seed)
        self.where = (number, seed, overrides)
        t = GAME.new_match(options, self.seats, seed)
        state: CrazyEightsState = t.state
        assert state.version == 0 and state.round == 1
        record = event_record(t.events)
        check_conserved(state)
        check_legal(state)
        check_events(state, state, t.events, seed, strict=True)
        reveal: Any = None
        check_views(state, seed, reveal, strict=True)
        self.count_events(t.events)
        log: list[tuple[int, dict[str, Any]]] = []
        policy, deep, cap = self.round_plan(rnd)
        round_actions = 0
        stuck_passes = 0
        while state.phase != Phase.MATCH_OVER and (whole or state.phase != Phase.ROUND_OVER):
            awaiting = state.awaiting()
            deep_state = deep and round_actions < DEEP_STATES
            if deep_state:
                check_rejections(state, rnd, self.stats)
                check_all_legal(state, seed, self.stats)
                rebuilt = check_persistence(state)
            seat = awaiting[0] if len(awaiting) == 1 else rnd.choice(awaiting)
            move = policy(state.legal_actions(seat), rnd)
            self.where = (number, seed, overrides, state.round, len(log), state.version, seat, move)
            t = state.apply(seat, move)
            after: CrazyEightsState = t.state
            log.append((seat, move.to_wire()))
            record += event_record(t.events)
            assert after.version == state.version + 1
            check_conserved(after)
            check_legal(after)
            check_events(state, after, t.events, seed, strict=deep_state)
            if deep_state:
                assert rebuilt.apply(seat, move).state.digest() == after.digest()
            for e in t.events:
                if e.kind == "round_over":
                    reveal = self.check_round_over(state, after, e)
            if deep_state or self.rounds % ALL_VIEWS_EVERY == 0:
                check_views(after, seed, reveal, strict=deep_state)
            else:  # the seats awaited now (a spectator's view is checked in the other rounds)
                check_views(after, seed, reveal, seats=after.awaiting())
            self.count_events(t.events)
            # 1.5.5: while nothing can be drawn, a full circle of passes cannot happen
            if move.kind == Kind.PASS and not state.can_draw_any():
                stuck_passes += 1
                assert stuck_passes < self.seats, "every seat passed with nothing to draw: deadlock"
            else:
                stuck_passes = 0
            if is_in_round(state):
                round_actions += 1
                assert round_actions <= cap, f"round did not end within {cap} actions"
                if not is_in_round(after):
                    self.rounds += 1
                    self.stats["rounds"] += 1
                    self.stats["deep rounds"] += deep
                    self.stats[f"{self.policy_name(policy)} rounds"] += 1
                    self.stats["longest round"] = max(self.stats["longest round"], round_actions)
                    round_actions = 0
                    stuck_passes = 0
                    policy, deep, cap = self.round_plan(rnd)
            state = after
        self.stats["matches"] += 1
        self.stats["whole matches"] += whole
        if state.phase == Phase.MATCH_OVER:
            check_rejections(state, rnd, self.stats)  # after the match, everything is refused
        self.replay(options, seed, log, state, record)

    def describe(self) -> str:
        """Where a failure happened, enough to reproduce it."""
        number, seed, overrides, *step = self.where
        text = f"{self.preset} {self.seats} seats, match {number} (seed {seed}, options {overrides})"
        if step:
            rnd, index, version, seat, move = step
            text += f", round {rnd}, action {index} (version {version}): seat {seat} {move}"
        return text

    def round_plan(self, rnd: random.Random) -> tuple[Policy, bool, int]:
        deep = self.rounds % DEEP_EVERY == DEEP_EVERY - 1
        if rnd.randrange(ANY_EVERY_HOUSE if self.preset == "house" else ANY_EVERY) == 0:
            return random_any, deep, CAP_RANDOM_ANY
        return random_card, deep, CAP_RANDOM_CARD

    @staticmethod
    def policy_name(policy: Policy) -> str:
        return "random-any" if policy is random_any else "random-card"

    def check_round_over(self, before: CrazyEightsState, after: CrazyEightsState, e: Event) -> Any:
        """The round_over event reveals the round truly: hands, winner, penalties, deal code."""
        data = e.data
        assert e.only is None and e.hidden_from == (), "the result is public"
        assert data["hands"] == [[str(c) for c in h] for h in after.hands]
        assert data["hands"][data["winner"]] == []
        assert data["penalties"] == [penalty(h) for h in after.hands]
        assert data["deal_code"] == before.deal_code
        assert data["round"] == before.round
        assert data["scores"] == [a + b for a, b in zip(before.scores, data["penalties"], strict=True)]
        return {k: data[k] for k in ("round", "winner", "penalties", "hands", "deal_code")}

    def count_events(self, events: Sequence[Event]) -> None:
        for e in events:
            self.stats[f"event {e.kind}"] += 1
            if e.kind == "round_start" and "buried" in e.data:
                self.stats["buried starters"] += 1
            if e.kind == "play" and e.data.get("forced"):
                self.stats["forced plays"] += 1
            if e.kind == "pass" and e.data.get("kept"):
                self.stats["kept drawn cards"] += 1

    def replay(
        self,
        options: Any,
        seed: int,
        log: list[tuple[int, dict[str, Any]]],
        final: CrazyEightsState,
        record: list[Any],
    ) -> None:
        """The action log rebuilds the state byte for byte, with the same events."""
        t = GAME.new_match(options, self.seats, seed)
        state = t.state
        replayed = event_record(t.events)
        for seat, wire in json.loads(json.dumps(log)):
            t = state.apply(seat, GAME.decode_action(wire))
            state = t.state
            replayed += event_record(t.events)
        assert json.dumps(state.to_data()) == json.dumps(final.to_data()), "replay gave another state"
        assert state.digest() == final.digest()
        assert replayed == record, "replay gave other events"


@pytest.mark.parametrize(("preset", "seats"), CONFIGS, ids=[f"{p}-{n}" for p, n in CONFIGS])
def test_conformance(preset: str, seats: int) -> None:
    stats = Conformance(preset, seats).run(ROUNDS)
    # The run exercised what it claims to check (so a broken generator cannot pass vacuously).
    assert stats["rounds"] >= ROUNDS
    assert stats["deep rounds"] >= ROUNDS // DEEP_EVERY
    assert stats["rejected"] > 0 and stats["alternatives"] > 0
    assert stats["rejected as action/illegal"] > 0 and stats["rejected as action/not_your_turn"] > 0
    assert stats["rejected as action/round_over"] > 0
    assert stats["event match_over"] > 0 and stats["event ready"] > 0
    assert stats["event round_over"] == stats["rounds"]
    assert stats["event draw"] > 0
    if ROUNDS >= 500:
        assert stats["random-any rounds"] >= ROUNDS // (4 * ANY_EVERY_HOUSE)
        if preset == "house":
            assert stats["event reshuffle"] > 0 and stats["event pass"] > 0
        if preset == "classic":
            assert stats["buried starters"] > 0 and stats["forced plays"] > 0
            assert stats["event choose_suit"] > 0 and stats["kept drawn cards"] > 0
        if preset == "party":
            assert stats["event choose_suit"] > 0 and stats["event suit"] > 0
    print(f"{preset} {seats}: {dict(sorted(stats.items()))}")


# --------------------------------------------------------------------------- other doors


@pytest.mark.parametrize(
    "wire",
    [
        None,
        "draw",
        [],
        {},
        {"kind": "fly"},
        {"kind": 3},
        {"kind": "play"},
        {"kind": "play", "card": "1X"},
        {"kind": "play", "card": 8},
        {"kind": "play", "card": "8H", "suit": "Z"},
        {"kind": "play", "card": "8H", "suit": 1},
        {"kind": "play", "card": "5H", "extra": 1},
        {"kind": "draw", "card": "8H"},
        {"kind": "pass", "suit": "S"},
        {"kind": "suit"},
        {"kind": "suit", "suit": "X"},
        {"kind": "ready", "seat": 0},
    ],
)
def test_malformed_actions_are_bad_actions(wire: Any) -> None:
    with pytest.raises(BadActionError):
        GAME.decode_action(wire)


def test_decode_action_inverts_to_wire_for_every_move() -> None:
    moves = [Move.play(c, s) for c in CARDS for s in (None, *Suit)]
    moves += [Move.choose(s) for s in Suit] + [DRAW, PASS, READY]
    for move in moves:
        assert GAME.decode_action(json.loads(json.dumps(move.to_wire()))) == move


# --------------------------------------------------------------------------- hash seeds

FINGERPRINT_MATCHES = 12


def fingerprint(preset: str, seats: int, matches: int) -> str:
    """A hash of everything ``matches`` seeded whole matches produce: events, views, final states."""
    h = hashlib.sha256()
    for number in range(matches):
        seed = match_seed(preset, seats, number)
        options = GAME.options(preset, **OPTION_SETS[number % len(OPTION_SETS)])
        rnd = random.Random(seed)
        t = GAME.new_match(options, seats, seed)
        state = t.state
        h.update(json.dumps(event_record(t.events)).encode())
        policy: Policy = random_any if number % 3 == 0 and preset != "house" else random_card
        while state.phase != Phase.MATCH_OVER:
            seat = state.awaiting()[0]
            t = state.apply(seat, policy(state.legal_actions(seat), rnd))
            state = t.state
            h.update(json.dumps(event_record(t.events)).encode())
            h.update(json.dumps(state.view(seat).to_wire()).encode())
        h.update(json.dumps(state.to_data()).encode())
    return h.hexdigest()


def fingerprints(matches: int) -> dict[str, str]:
    return {f"{p}-{n}": fingerprint(p, n, matches) for p, n in CONFIGS}


def test_same_results_under_different_hash_seeds() -> None:
    here = Path(__file__).resolve()
    results = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, str(here), "fingerprints", str(FINGERPRINT_MATCHES)],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        results.append(json.loads(proc.stdout))
    assert results[0] == results[1]
    assert set(results[0]) == {f"{p}-{n}" for p, n in CONFIGS}
    # and this process (whatever its hash seed) agrees
    assert results[0] == fingerprints(FINGERPRINT_MATCHES)


if __name__ == "__main__":
    # python tests/games/crazy_eights/test_conformance.py fingerprints MATCHES: used by the hash-seed test
    if sys.argv[1:2] == ["fingerprints"]:
        print(json.dumps(fingerprints(int(sys.argv[2]))))
    else:
        sys.exit("usage: test_conformance.py fingerprints MATCHES")


# --------------------------------------------------------------------------- the checks themselves


def test_leak_checks_catch_leaks() -> None:
    # The checks above would pass vacuously if they could not see a leak: show them some.
    seed = match_seed("house", 2, -1)
    state = GAME.new_match(GAME.options("house"), 2, seed).state
    secrets = Secrets(state, seed, None)
    mine, theirs = str(state.hands[0][0]), str(state.hands[1][0])
    secrets.check_cards(secrets.scan({"hand": [mine], "top": str(state.discard[-1])}, "ok"), 0, "ok")
    leaks: list[Any] = [
        ({"card": theirs}, 0),
        ({"cards": [[mine, theirs]]}, 0),
        ({"card": theirs}, None),
        ({"next": str(state.stock[-1])}, 1),
        ({"seed": 1}, 0),
        ({"n": seed}, 0),
        ({"n": state.seed}, 0),
        ({"code": state.deal_code}, 0),
        ({"code": state.deal_code.replace("-", "")}, 0),
    ]
    for wire, seat in leaks:
        with pytest.raises(AssertionError):
            secrets.check_cards(secrets.scan(wire, "test"), seat, "test")
    with pytest.raises(AssertionError):
        secrets.scan({"hand": (mine,)}, "test", strict=True)  # a tuple is not wire data
    with pytest.raises(AssertionError):
        secrets.scan({"seat": Phase.PLAY}, "test", strict=True)  # nor an enum
    # an event that shows the drawn card to everyone
    leak = Event("draw", {"seat": 1, "card": theirs})
    with pytest.raises(AssertionError, match="another seat's hand"):
        check_events(state, state, (leak,), seed)
    check_events(state, state, (Event("draw", {"seat": 1, "card": theirs}, only=(1,)),), seed)
    with pytest.raises(AssertionError, match="round_over"):
        check_events(state, state, (Event("round_over", {}),), seed)
    # a view's last_round must be what was revealed
    with pytest.raises(AssertionError, match="last_round"):
        check_views(state, seed, {"round": 0})
    check_views(state, seed, None, strict=True)


def test_conservation_and_legal_checks_catch_faults() -> None:
    state = GAME.new_match(GAME.options("classic"), 3, 5).state
    check_conserved(state)
    check_legal(state)
    card = state.stock[-1]
    duplicated = state._evolve(hands=(state.hands[0] + (card,), *state.hands[1:]))
    with pytest.raises(AssertionError, match="not conserved"):
        check_conserved(duplicated)
    lost = state._evolve(stock=state.stock[:-1])
    with pytest.raises(AssertionError, match="not conserved"):
        check_conserved(lost)

    class Stub:
        """Answers check_legal's questions with faults."""

        phase = Phase.PLAY
        seats = 2

        def __init__(self, legal: dict[int, tuple[Move, ...]]) -> None:
            self.legal = legal

        def awaiting(self) -> tuple[int, ...]:
            return (0,)

        def outcome(self) -> None:
            return None

        def legal_actions(self, seat: int) -> tuple[Move, ...]:
            return self.legal.get(seat, ())

    check_legal(Stub({0: (Move.play("5H"), DRAW)}))  # type: ignore[arg-type]
    for faulty in ({0: (DRAW, Move.play("5H"))}, {0: (DRAW, DRAW)}, {0: ()}, {0: (DRAW,), 1: (PASS,)}):
        with pytest.raises(AssertionError):
            check_legal(Stub(faulty))  # type: ignore[arg-type]
