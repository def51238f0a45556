"""The conformance suite's machinery: random play of any registered game, checked at every state and action.

After OpenSpiel's ``open_spiel/tests/basic_tests.h`` (docs/architecture.md 4.6).
``tests/games/test_contract.py`` runs it over every registered game; a game is
held to it the day it registers. What a game knows and the contract does not (a
view's fields, what a round's end reveals, a rule that must hold at every state,
every action value it has, policies that let its matches end) it says in
``tests/games/<game>/invariants.py``: a class ``Invariants`` over
:class:`Invariants` here (one instance per match, so it may remember what it
saw). A game with no such file (the test-only one) gets the generic checks.

Each configuration (a preset at its smallest, default and largest seat count,
with its options as defaulted and with every option moved off its default, and
the configurations a game adds) plays :data:`MATCHES` seeded matches, each by
one policy: the first by the *walk* (uniform over every actor's legal actions,
leaning to actions that move a card, a timed action 30% of the time) with every
check of a *deep* state; the others by the game's playout policies
(``GamePlugin.playouts``, with its turns: Kartu Terakhir's catch windows) and
the game's own (:attr:`Invariants.policies`). One match in three is whole (up to
:data:`WHOLE_ROUNDS` rounds, played by the game's default policy or the one it
names for whole matches), the others end with their first round. At every
state reached:

- **legal actions** are a sorted tuple of distinct actions; the seats with some
  are exactly ``actors()``, and ``awaiting()`` is among them; each seat's view
  lists the same actions, in the same order, in its ``legal`` wire field; every
  action's wire form decodes back to it; a spectator's view lists none; while
  the match goes on someone may act or something is timed;
- **defaults**: an awaited seat's ``default_action`` is ``None`` or an action
  the state accepts from that seat; between rounds it is never ``None``; epochs
  are not ahead of the version; the period is hashable; timed actions name a
  seat, a delay and a past version;
- **cards are conserved**: the counted ``locations()`` hold exactly
  ``Game.deck()``, and location names are unique;
- **nothing leaks**: every card name in a seat's view (a spectator's too) lies
  in a location that seat may see; no key is called ``seed``; neither the match
  seed nor the round's seed (decimal or hex) appears; the deal code of a round
  in progress (with or without its dashes) appears in no view and no event; the
  view says the state's version, seat, game, seat count, phase and round; wire
  data is plain (None, bool, int, str, list, dict with string keys);
- in **deep** states (the first match, :data:`DEEP_STATES` states at most):
  every legal action of every actor and every timed action is applied and
  accepted (version + 1, cards conserved, its events leaking nothing);
  **everything else is refused** with the right typed error
  (:meth:`Invariants.expected_error`) and ``to_data()`` unchanged: every action
  value the game lists (:meth:`Invariants.candidates`), or else a sample of
  those seen legal elsewhere in the run; seats that do not exist raise
  ``BadSeatError``, values that are not actions ``BadActionError``, and
  non-actions fail ``decode_action`` with ``BadActionError``; **persistence**:
  ``state_from_data`` of ``to_data`` through JSON and msgpack gives the same
  data, digest (where the state has one), legal actions and views, and the same
  next state; every seat's view is checked, and ``events_for`` agrees with
  ``Event.is_seen_by``.

At every action: the version goes up by one; no event uses a table event's
kind; every event's data is plain; each audience of an event is sent only card
names it may see before or after the action, and no seed or deal code of the
round in progress; a round that begins says so with ``GameInfo.round_start`` and
one that ends with ``round_end``; every round ends within :data:`ROUND_CAP`
actions. At the end of every match (its final state checked as a deep one in the
first match and whenever the match is over, so a finished round's and a
finished match's refusals are tried): the outcome is well formed (teams where
the game has them); its ``carry()`` is plain data (or ``None``) with which
``new_match`` deals the next match, the same for the same seed (before the end,
``carry()`` is ``None``); and replaying the match's log of ``(seat, wire
action)``, through JSON and ``decode_action``, from ``new_match`` gives the same
state (as JSON, key order included, and digest) and the same events.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import msgpack
import pytest
from meja import games
from meja.protocol.patch import same
from meja.rules.errors import (
    BadActionError,
    BadSeatError,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    RulesError,
)
from meja.rules.game import TABLE_EVENT_KINDS, TALK_KINDS, Event, Location, events_for
from meja.rules.playout import Policy, Turn

ROOT = Path(__file__).resolve().parent
MATCHES = int(os.environ.get("MEJA_CONTRACT_MATCHES", "3"))
#: actions after which a round counts as never ending (a random walk may be slow, never stuck)
ROUND_CAP = 4000
MATCH_CAP = 20000
#: rounds a "whole match" plays at most (random play may never reach a game's target: Eighty-Three's
#: random bids fail and both teams sink; every round must still end)
WHOLE_ROUNDS = 6
#: deep checks stop after this many states of a match
DEEP_STATES = 300
#: values that are no action of any game: ``decode_action`` refuses them, and so does ``apply``
JUNK: tuple[Any, ...] = (None, 3, "draw", [], {}, {"kind": 7}, {"kind": "no such action"})
NOT_ACTIONS: tuple[Any, ...] = (None, 0, 7, "pass", (1, -1), {"kind": "pass"})
NOT_SEATS: tuple[Any, ...] = (-1, 99, None, "0", 1.0)
WALK = "walk"


# --------------------------------------------------------------------------- a game's hook


class Invariants:
    """A game's own part of the suite: override what the game knows (tests/games/<game>/invariants.py).

    One instance per match (``run`` is the configuration's :class:`Run`), so the
    per-state and per-action hooks may remember what they saw.
    """

    #: configurations besides the generic ones: (preset, options in wire form, seats)
    configs: ClassVar[tuple[tuple[str, Mapping[str, Any], int], ...]] = ()
    #: policies besides the plugin's playout policies (played with the plugin's turns)
    policies: ClassVar[Mapping[str, Policy]] = {}
    #: the policy whole matches use (one that lets a match end); else they take their turn in the rotation
    whole_policy: ClassVar[str | None] = None
    #: wire values ``decode_action`` must refuse, besides :data:`JUNK`
    malformed: ClassVar[tuple[Any, ...]] = ()
    #: what the game's runs reach, all configurations together (so no check is vacuous for it): counts of
    #: the run's (``event KIND``, or a name :meth:`count` gives)
    reached: ClassVar[frozenset[str]] = frozenset()
    #: refusal codes every configuration's deep match meets
    refusals: ClassVar[frozenset[str]] = frozenset({RoundOverError.code, IllegalActionError.code})
    #: deep checks stop after this many states of a match
    deep_states: ClassVar[int] = DEEP_STATES
    #: matches per configuration, where the game wants more than :data:`MATCHES` (one configuration only)
    matches: ClassVar[int] = 0
    #: the wire kind of what a seat does between rounds
    between: ClassVar[str] = "ready"

    def __init__(self, run: Run) -> None:
        self.run = run

    @classmethod
    def actions(cls, options: Any, seats: int) -> tuple[Any, ...]:
        """Every action value of the game (none: unknown, and the refusals try those seen legal)."""
        return ()

    def candidates(self, state: Any, rnd: random.Random) -> list[tuple[int, Any]] | None:
        """The (seat, action) pairs a deep state tries; ``None``: every action of :meth:`actions`."""
        return None

    def expected_error(self, state: Any, seat: int, action: Any) -> type[RulesError]:
        """The error a refused action raises: after the match, and between rounds for anything but
        the between-rounds action, ``RoundOverError``; a seat that may not act, ``NotYourTurnError``;
        else ``IllegalActionError``."""
        if state.outcome() is not None:
            return RoundOverError
        if not state.in_round():
            return IllegalActionError if action.to_wire().get("kind") == self.between else RoundOverError
        if seat not in state.actors():
            return NotYourTurnError
        return IllegalActionError

    def accepted(self, state: Any, seat: int, action: Any) -> bool:
        """Whether ``state`` rightly accepts ``action``, not legal, from ``seat`` (a timer-only action)."""
        return any(t.seat == seat and t.action == action for t in state.timed_actions()) or (
            seat in state.awaiting() and state.default_action(seat) == action
        )

    def state(self, state: Any, deep: bool) -> None:
        """Checks of every state reached."""

    def step(self, before: Any, seat: int, action: Any, after: Any, events: tuple[Event, ...]) -> None:
        """Checks of every action played (not of the alternatives a deep state tries)."""

    def end(self, state: Any, whole: bool) -> None:
        """Checks of a match's last state."""

    @staticmethod
    def count(events: tuple[Event, ...]) -> list[str]:
        """What an action's events show that :attr:`reached` names (beside their kinds)."""
        return []


def invariants(game: str) -> type[Invariants]:
    """The game's :class:`Invariants` (``tests/games/<game>/invariants.py``), or the generic one."""
    if not (ROOT / game / "invariants.py").is_file():
        return Invariants
    own: type[Invariants] = importlib.import_module(f"games.{game}.invariants").Invariants
    return own


# --------------------------------------------------------------------------- configurations


@dataclass(frozen=True)
class Config:
    game: str
    options: dict[str, Any]
    seats: int

    @property
    def id(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()) if k != "preset")
        return f"{self.game}-{self.options['preset']}-{self.seats}" + (f"-{opts}" if opts else "")


def _moved(spec: Any) -> Any:
    """A value of an option that is not its default (a valid one)."""
    if spec.type == "bool":
        return not spec.default
    if spec.type == "choice":
        return next(c for c in reversed(spec.choices) if c != spec.default)
    return spec.min if spec.default != spec.min else spec.max


def configs() -> list[Config]:
    out = []
    for plugin in games.plugins():
        for preset in plugin.game.info.presets:
            counts = sorted({preset.min_seats, preset.default_seats, preset.max_seats})
            variants = [{"preset": preset.name}]
            if preset.options:
                variants.append({"preset": preset.name, **{o.name: _moved(o) for o in preset.options}})
            for i, seats in enumerate(counts):
                out.append(Config(plugin.name, variants[i % len(variants)], seats))
        for preset_name, options, seats in invariants(plugin.name).configs:
            out.append(Config(plugin.name, {"preset": preset_name, **options}, seats))
    return out


# --------------------------------------------------------------------------- wire data


def strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


def keys(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield from (k for k in v if isinstance(k, str))
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


def plain(value: Any, where: str, exact: bool = True) -> None:
    """Wire data: None, bool, int, str, list, dict with string keys (msgpack and JSON both take it);
    ``exact``: of those very types (a view or event), else of types derived from them (a state record)."""
    json.dumps(value)
    msgpack.packb(value, use_bin_type=True)
    types = (bool, int, str, list, dict)
    stack = [value]
    while stack:
        v = stack.pop()
        ok = v is None or (type(v) in types if exact else isinstance(v, types))
        assert ok, f"{where}: {type(v).__name__} {v!r}"
        if isinstance(v, dict):
            assert all(isinstance(k, str) for k in v), f"{where}: non-string key in {v!r}"
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def visible(locations: tuple[Location, ...], seat: int | None) -> set[str]:
    """The card names ``seat`` may see (``None``: a spectator)."""
    out: set[str] = set()
    for loc in locations:
        if loc.seen_by == "all" or (seat is not None and seat in loc.seen_by):
            out.update(loc.cards)
    return out


def record(events: Iterable[Event]) -> list[Any]:
    """Events as plain, ordered data, audiences included."""
    return [[e.kind, e.data, e.only, list(e.hidden_from)] for e in events]


def secrets(match_seed: int, state: Any) -> tuple[str, ...]:
    """What no view or event may hold while ``state``'s round goes on: the match seed, the round's
    seed (decimal and hex; a seed below 2**24 could be any small number), the deal code."""
    out = [str(match_seed), f"{match_seed:x}"]
    seed = getattr(state, "seed", None)
    if state.in_round() and isinstance(seed, int) and seed >= 1 << 24:
        out += [str(seed), f"{seed:x}"]
    code = state.deal_code if state.in_round() else None
    if code:
        out += [code, code.replace("-", "")]
    return tuple(out)


# --------------------------------------------------------------------------- the run


class Run:
    """One configuration's matches, with what it saw (the pool of legal actions' wire forms, counts)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.plugin = games.get(config.game)
        self.game = self.plugin.game
        self.info = self.game.info
        self.options = self.game.options_from_wire(config.options)
        self.deck = tuple(self.game.deck(self.options, config.seats))
        self.names = frozenset(self.deck)
        self.pool: dict[str, dict[str, Any]] = {}
        self.fingerprint = hashlib.sha256()
        self.stats: Counter[str] = Counter()
        self.hooks_class = invariants(config.game)
        self.hooks = self.hooks_class(self)
        self.every = self.hooks_class.actions(self.options, config.seats)
        self.secrets: tuple[str, ...] = ()
        #: called with each state before its action and the action's transition (what a test gathers)
        self.watch: Callable[[Any, Any], None] | None = None
        playouts = self.plugin.playouts
        self.turns: Callable[[], Turn] = playouts.turns
        self.policies: dict[str, Policy] = {**self.hooks_class.policies, **playouts.policies}

    def policy_of(self, match: int, whole: bool) -> str:
        """The first match walks; whole matches play the game's whole-match or default policy; the
        others take the game's other policies in turn."""
        if match == 0 or not self.policies:
            return WALK
        names = list(self.policies)
        default = self.plugin.playouts.default_policy
        main = self.hooks_class.whole_policy or (default if default in self.policies else names[0])
        if whole:
            return main
        others = [p for p in names if p != main] or [main]
        return others[(match - 1) % len(others)]

    # ------------------------------------------------------------------ per state

    def check_state(self, state: Any, deep: bool) -> None:
        n = self.config.seats
        where = f"{self.config.id} v{state.version}"
        actors = set(state.actors())
        awaiting = state.awaiting()
        assert set(awaiting) <= actors, f"{where}: awaited {awaiting} but actors {sorted(actors)}"
        locations = state.locations()
        names = [loc.name for loc in locations]
        assert len(names) == len(set(names)), f"{where}: location names repeat: {names}"
        counted = Counter(c for loc in locations if loc.counted for c in loc.cards)
        assert counted == Counter(self.deck), (
            f"{where}: cards not conserved: {counted - Counter(self.deck)} / {Counter(self.deck) - counted}"
        )
        between = not state.in_round() and state.outcome() is None
        if state.outcome() is None:
            assert actors or state.timed_actions(), f"{where}: nobody may act and nothing is timed: stuck"
        for seat in range(n):
            legal = state.legal_actions(seat)
            assert type(legal) is tuple, f"{where}: legal_actions is not a tuple"
            assert list(legal) == sorted(legal) and len(set(legal)) == len(legal), f"{where}: seat {seat} {legal}"
            assert bool(legal) == (seat in actors), f"{where}: seat {seat} legal {legal} vs actors {sorted(actors)}"
            for action in legal:
                wire = action.to_wire()
                assert self.game.decode_action(json.loads(json.dumps(wire))) == action, f"{where}: {wire}"
                self.pool.setdefault(json.dumps(wire, sort_keys=True), wire)
            if seat in awaiting:
                default = state.default_action(seat)
                if default is not None and default not in legal:
                    state.apply(seat, default)  # a timer-only action: accepted all the same
                    wire = default.to_wire()
                    assert self.game.decode_action(json.loads(json.dumps(wire))) == default, f"{where}: {wire}"
                if between:
                    assert default is not None, f"{where}: seat {seat} has no default between rounds"
            assert state.epoch(seat) <= state.version, f"{where}: seat {seat} epoch ahead of the version"
            if deep or seat in awaiting:
                self.check_view(state, seat, legal, locations, where)
        hash(state.period())
        self.check_view(state, None, (), locations, where)
        self.check_own_views(state, where)
        for timed in state.timed_actions():
            assert 0 <= timed.seat < n and timed.delay_ms >= 0 and timed.since <= state.version, f"{where}: {timed}"
        if deep:
            self.check_alternatives(state, where)
            self.check_refusals(state, where)
        self.hooks.state(state, deep)

    def check_view(self, state: Any, seat: int | None, legal: tuple[Any, ...], locations: Any, where: str) -> None:
        view = state.view(seat)
        assert tuple(view.legal) == legal, f"{where}: seat {seat}'s view lists other actions"
        wire = view.to_wire()
        plain(wire, f"{where} view {seat}")
        assert wire.get("legal") == [a.to_wire() for a in legal], f"{where}: seat {seat} wire legal"
        assert wire.get("version") == state.version and wire.get("seat") == seat, f"{where}: version, seat"
        assert wire.get("game") == self.config.game and wire.get("seats") == self.config.seats, f"{where}: game, seats"
        assert isinstance(wire.get("phase"), str) and wire.get("round") == state.round, f"{where}: phase, round"
        leaked = {s for s in strings(wire) if s in self.names} - visible(locations, seat)
        assert not leaked, f"{where}: seat {seat}'s view names {sorted(leaked)}"
        self.check_secrets(wire, f"{where}: seat {seat}'s view")

    def check_own_views(self, state: Any, where: str) -> None:
        """Where a game tells each seat's own part of its view (``State.own_view``), every seat's view
        is the spectator's with that part laid over it, value for value and type for type (what a
        shell building views in two parts sends is what the view says): the same keys for every seat."""
        spectator = state.view(None).to_wire()
        blank = state.own_view(None)
        if blank is None:
            return
        assert set(blank) <= set(spectator), f"{where}: own_view names keys no view has"
        public = {k: v for k, v in spectator.items() if k not in blank}
        for seat in range(self.config.seats):
            own = state.own_view(seat)
            assert own is not None and own.keys() == blank.keys(), f"{where}: seat {seat}'s own_view keys"
            whole = state.view(seat).to_wire()
            assert whole.keys() == {*public, *own}, f"{where}: seat {seat}'s view has other keys than its parts"
            assert same({**public, **own}, dict(whole)), f"{where}: seat {seat}'s view is not its two parts"

    def check_secrets(self, wire: Any, what: str) -> None:
        assert "seed" not in set(keys(wire)), f"{what}: a key named 'seed'"
        text = json.dumps(wire)
        for secret in self.secrets:
            assert secret not in text, f"{what} holds {secret!r}, a seed or the deal code of the round in progress"

    def check_alternatives(self, state: Any, where: str) -> None:
        """Every legal action of every actor, and every timed action, is accepted (and checked as played)."""
        tries = [(s, a) for s in state.actors() for a in state.legal_actions(s)]
        tries += [(t.seat, t.action) for t in state.timed_actions()]
        for seat, action in tries:
            t = state.apply(seat, action)
            self.check_step(state, seat, action, t.state, t.events, played=False)
            counted = Counter(c for loc in t.state.locations() if loc.counted for c in loc.cards)
            assert counted == Counter(self.deck), f"{where}: seat {seat} {action}: cards not conserved"
            self.stats["alternatives"] += 1

    def check_refusals(self, state: Any, where: str) -> None:
        before = json.dumps(state.to_data(), sort_keys=True)
        rnd = random.Random(state.version)
        tries = self.hooks.candidates(state, rnd)
        if tries is None:
            if self.every:
                tries = [(s, a) for s in range(self.config.seats) for a in self.every]
            else:
                pool = [self.game.decode_action(w) for w in self.pool.values()]
                tries = [(s, a) for s in range(self.config.seats) for a in rnd.sample(pool, min(6, len(pool)))]
        for seat, action in tries:
            if action in state.legal_actions(seat):
                continue
            want = self.hooks.expected_error(state, seat, action)
            try:
                state.apply(seat, action)
            except RulesError as exc:
                assert type(exc) is want, (
                    f"{where}: seat {seat} {action}: {type(exc).__name__} ({exc}), not {want.__name__}"
                )
                assert exc.code == want.code and str(exc), f"{where}: {exc!r}"
                self.stats[f"refused as {exc.code}"] += 1
            else:
                assert self.hooks.accepted(state, seat, action), (
                    f"{where}: seat {seat} was allowed {action}, not in its legal actions"
                )
        some = next(iter(self.pool.values()), None)
        if some is not None:
            action = self.game.decode_action(some)
            for bad_seat in (*NOT_SEATS, self.config.seats):
                with pytest.raises(BadSeatError):
                    state.apply(bad_seat, action)
            seat = state.awaiting()[0] if state.awaiting() else 0
            for not_an_action in (*NOT_ACTIONS, some, str(action)):
                with pytest.raises(BadActionError):
                    state.apply(seat, not_an_action)
        for junk in (*JUNK, *self.hooks_class.malformed):
            with pytest.raises(BadActionError):
                self.game.decode_action(junk)
        assert json.dumps(state.to_data(), sort_keys=True) == before, f"{where}: a refused action changed the state"

    def check_persistence(self, state: Any, where: str) -> Any:
        """``state`` rebuilt from its data through JSON and msgpack; the JSON one is returned."""
        data = state.to_data()
        plain(data, f"{where} to_data", exact=False)
        rebuilt = []
        for text in (json.loads(json.dumps(data)), msgpack.unpackb(msgpack.packb(data, use_bin_type=True))):
            again = self.game.state_from_data(text)
            assert again.to_data() == data, f"{where}: state_from_data(to_data()) differs"
            if type(state).__eq__ is not object.__eq__:
                assert again == state, f"{where}: the rebuilt state is not equal"
            if hasattr(state, "digest"):
                assert again.digest() == state.digest(), f"{where}: digest after reload"
            for seat in range(self.config.seats):
                assert again.legal_actions(seat) == state.legal_actions(seat), f"{where}: legal after reload"
            for seat in (*state.awaiting(), None):
                assert again.view(seat).to_wire() == state.view(seat).to_wire(), f"{where}: view after reload"
            rebuilt.append(again)
        return rebuilt[0]

    # ------------------------------------------------------------------ per action

    def check_step(
        self, before: Any, seat: int, action: Any, after: Any, events: tuple[Event, ...], played: bool = True
    ) -> None:
        where = f"{self.config.id} v{before.version} seat {seat} {action.to_wire()}"
        assert after.version == before.version + 1, f"{where}: version {after.version}"
        audiences = (*range(self.config.seats), None)
        seen_before = {s: visible(before.locations(), s) for s in audiences}
        seen_after = {s: visible(after.locations(), s) for s in audiences}
        kinds = [e.kind for e in events]
        same_round = before.in_round() and after.in_round() and after.round == before.round
        for e in events:
            assert isinstance(e, Event), f"{where}: {e!r}"
            assert e.kind not in TABLE_EVENT_KINDS, f"{where}: the game uses the table's event kind {e.kind!r}"
            wire = e.to_wire()
            plain(wire, f"{where} event {e.kind}")
            assert e.only is None or all(0 <= s < self.config.seats for s in e.only), f"{where}: {e}"
            named = {s for s in strings(wire) if s in self.names}
            for viewer in audiences:
                if e.is_seen_by(viewer):
                    leaked = named - seen_before[viewer] - seen_after[viewer]
                    assert not leaked, f"{where}: event {e.kind} shows {sorted(leaked)} to {viewer}"
            if same_round:
                self.check_secrets(wire, f"{where}: event {e.kind}")
            else:
                self.check_seeds(wire, where)
        for viewer in audiences:
            assert events_for(events, viewer) == tuple(e for e in events if e.is_seen_by(viewer)), where
        began = after.in_round() and (not before.in_round() or after.round != before.round)
        ended = before.in_round() and (not after.in_round() or after.round != before.round)
        if began:
            assert self.info.round_start in kinds, f"{where}: a round began without {self.info.round_start!r}"
        if ended:
            assert self.info.round_end in kinds, f"{where}: a round ended without {self.info.round_end!r}"
        if played:
            self.stats["rounds"] += ended
            self.hooks.step(before, seat, action, after, events)

    def check_seeds(self, wire: Any, where: str) -> None:
        """Across a round's end: the match seed stays secret (the round's seed and code may be revealed)."""
        assert "seed" not in set(keys(wire)), f"{where}: a key named 'seed'"
        text = json.dumps(wire)
        assert all(s not in text for s in self.secrets[:2]), f"{where}: the match seed"

    # ------------------------------------------------------------------ matches

    def walk(self, state: Any, rnd: random.Random) -> tuple[int, Any]:
        choices = [(s, a) for s in state.actors() for a in state.legal_actions(s)]
        timed = state.timed_actions()
        if timed and (not choices or rnd.random() < 0.3):
            pick = rnd.choice(timed)
            return pick.seat, pick.action
        # Lean toward actions that move a card: where drawing is always allowed (Kartu
        # Terakhir) a uniform walk takes thousands of actions a round.
        moves = [c for c in choices if "card" in c[1].to_wire()]
        seat, action = rnd.choice(moves if moves and rnd.random() < 0.8 else choices)
        return seat, action

    def play(self, match: int, checks: bool = True) -> int:
        """One match (or its first round); the number of actions. ``checks=False``: play it only,
        counting its events (to see what the checked runs reach)."""
        config = self.config
        rnd = random.Random(f"{config.id}/{match}")
        seed = rnd.getrandbits(128)
        deep = match == 0 and checks
        whole = match % 3 == 2
        name = self.policy_of(match, whole)
        policy, turn = self.policies.get(name), self.turns()
        self.hooks = self.hooks_class(self)
        start = self.game.new_match(self.options, config.seats, seed)
        state = start.state
        log: list[tuple[int, dict[str, Any]]] = []
        all_events = list(start.events)
        self.stats.update(f"event {e.kind}" for e in start.events)
        self.stats.update(self.hooks.count(start.events))
        actions = in_round = 0
        first_round = state.round
        while state.outcome() is None:
            if not whole and (state.round != first_round or not state.in_round()):
                break
            if state.round > first_round + WHOLE_ROUNDS:
                break
            deep_state = deep and actions < self.hooks_class.deep_states
            self.secrets = secrets(seed, state)
            rebuilt = None
            if checks:
                self.check_state(state, deep_state)
                # What talk the rules allow is one of the three (public: the table map carries it).
                assert state.talk() in TALK_KINDS, f"{config.id} v{state.version}: talk() is {state.talk()!r}"
                if deep_state:
                    rebuilt = self.check_persistence(state, f"{config.id} v{state.version}")
            seat, action = self.walk(state, rnd) if policy is None else turn(state, policy, rnd)
            step = state.apply(seat, action)
            if self.watch is not None:
                self.watch(state, step)
            if checks:
                self.check_step(state, seat, action, step.state, step.events)
            self.stats.update(f"event {e.kind}" for e in step.events)
            self.stats.update(self.hooks.count(step.events))
            if rebuilt is not None:
                again = rebuilt.apply(seat, action)
                assert again.state.to_data() == step.state.to_data(), f"{config.id}: the rebuilt state moved elsewhere"
                assert again.events == step.events, f"{config.id}: the rebuilt state's events differ"
            self.fingerprint.update(f"{seat}:{json.dumps(action.to_wire(), sort_keys=True)};".encode())
            self.fingerprint.update(json.dumps(record(step.events), sort_keys=True).encode())
            self.fingerprint.update(json.dumps(step.state.view(seat).to_wire(), sort_keys=True).encode())
            log.append((seat, action.to_wire()))
            all_events.extend(step.events)
            in_round = in_round + 1 if step.state.round == state.round else 0
            assert in_round < ROUND_CAP, f"{config.id}: a round did not end in {ROUND_CAP} actions"
            state = step.state
            actions += 1
            assert actions < MATCH_CAP, f"{config.id}: a match did not end in {MATCH_CAP} actions"
        self.fingerprint.update(json.dumps(state.to_data(), sort_keys=True).encode())
        self.stats["matches"] += 1
        self.stats[f"{name} matches"] += 1
        if not checks:
            return actions
        self.secrets = secrets(seed, state)
        over = state.outcome() is not None
        self.check_state(state, deep or over)  # (after the match, everything is refused)
        if deep:
            self.check_persistence(state, f"{config.id} v{state.version}")
        self.check_outcome(state, seed)
        self.hooks.end(state, whole)
        # Replay: the same actions through JSON and decode_action give the same match.
        again = self.game.new_match(self.options, config.seats, seed)
        replayed, events = again.state, list(again.events)
        for seat, wire in json.loads(json.dumps(log)):
            step = replayed.apply(seat, self.game.decode_action(wire))
            replayed = step.state
            events.extend(step.events)
        assert json.dumps(replayed.to_data()) == json.dumps(state.to_data()), (
            f"{config.id} match {match}: the replay ends elsewhere"
        )
        if hasattr(state, "digest"):
            assert replayed.digest() == state.digest(), f"{config.id} match {match}: the replay's digest"
        assert events == all_events, f"{config.id} match {match}: the replay's events differ"
        return actions

    def check_outcome(self, state: Any, seed: int) -> None:
        config = self.config
        outcome = state.outcome()
        if outcome is None:
            assert state.carry() is None, f"{config.id}: a carry before the match is over"
            return
        assert not state.actors(), f"{config.id}: someone may act after the match ended"
        assert set(outcome.winners) <= set(range(config.seats)) and len(outcome.scores) == config.seats
        teams = self.game.teams(self.options, config.seats)
        if outcome.team_scores:
            assert len(outcome.team_scores) == len(teams)
            assert outcome.teams and all(0 <= t < len(teams) for t in outcome.teams)
            assert set(outcome.winners) == {s for t in outcome.teams for s in teams[t]}
        plain(outcome.to_wire(), f"{config.id} outcome")
        # What the match hands a rematch: plain data (the record keeps it) that deals one,
        # the same one for the same seed (a replay of the log deals it again).
        carry = state.carry()
        if carry is not None:
            plain(carry, f"{config.id} carry")
            carry = json.loads(json.dumps(carry))
        nxt = self.game.new_match(self.options, config.seats, seed + 1, None, carry)
        assert nxt.state.outcome() is None and nxt.state.in_round()
        assert nxt.events == self.game.new_match(self.options, config.seats, seed + 1, None, carry).events
