"""The game contract, checked the same way for every registered game (docs/architecture.md 4.6, OpenSpiel's basic_tests).

Every game in :mod:`meja.games` (the test-only one too) is played by random
legal actions, each of its presets at its smallest, default and largest seat
count, with its options as defaulted and with every option moved off its
default. At every state reached:

- **legal actions** are sorted and distinct; the seats with some are exactly
  ``actors()``, and ``awaiting()`` is among them; each seat's view lists the same
  actions, in the same order, in its ``legal`` wire field; every action's wire
  form decodes back to it; a spectator's view lists none;
- **defaults**: an awaited seat's ``default_action`` is ``None`` or an action
  the state accepts from that seat (one of its legal actions, or a timer-only
  one, such as Kartu Terakhir's ``draw_keep``), whose wire form decodes back to
  it; between rounds it is never ``None``; epochs are not ahead of the version;
  the period is hashable;
- **a rematch**: once a match is over, its ``carry()`` is plain data (or
  ``None``) with which ``new_match`` deals the next match, the same for the same
  seed; before, it is ``None``;
- **cards are conserved**: the counted ``locations()`` hold exactly
  ``Game.deck()``, and location names are unique;
- **nothing leaks**: every card name in a seat's view (a spectator's too) lies
  in a location that seat may see; no key is called ``seed``; the deal code of
  a round in progress appears in no view and no event;
- **everything else is refused** (in the deep matches): actions seen legal
  elsewhere in the run but not legal here raise a
  :class:`~meja.rules.errors.RulesError` for that seat and leave ``to_data()``
  unchanged; so do seats that do not exist; non-actions fail ``decode_action``
  with ``BadActionError``;
- **persistence** (deep matches): ``state_from_data`` of ``to_data`` through JSON
  and msgpack gives the same data, legal actions and views.

At every action: the version goes up by one; no event uses a table event's
kind; every event's data is plain; each audience of an event is sent only card
names it may see before or after the action; a round that begins says so with
``GameInfo.round_start`` and one that ends with ``round_end``; a timed action
the state lists is accepted. At the end of every match: the outcome is well
formed (teams where the game has them), and replaying the match's actions
through ``decode_action`` from ``new_match`` gives the same state and events.
And the same seeded runs give the same fingerprint under two ``PYTHONHASHSEED``
values.

Each game keeps its own, deeper suite (tests/games/<name>/); this one is what
holds for all of them, so a new game is held to it the day it registers. Sizes:
``MEJA_CONTRACT_MATCHES`` matches per configuration (default 3; the first is
deep), a whole match one time in three (up to :data:`WHOLE_ROUNDS` rounds),
otherwise its first round.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import pytest
from meja import games
from meja.rules.errors import BadActionError, RulesError
from meja.rules.game import TABLE_EVENT_KINDS, TALK_KINDS, Event, Location

MATCHES = int(os.environ.get("MEJA_CONTRACT_MATCHES", "3"))
#: actions after which a round counts as never ending (a random walk may be slow, never stuck)
ROUND_CAP = 4000
MATCH_CAP = 20000
#: rounds a "whole match" plays at most (random play may never reach a game's target: Eighty-Three's
#: random bids fail and both teams sink; every round must still end)
WHOLE_ROUNDS = 6


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
    return out


def _strings(value: Any) -> Iterator[str]:
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


def _keys(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield from (k for k in v if isinstance(k, str))
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


def _plain(value: Any, where: str) -> None:
    """Wire data: None, bool, int, str, list, dict with string keys (msgpack and JSON both take it)."""
    json.dumps(value)
    msgpack.packb(value, use_bin_type=True)
    for v in _walk(value):
        assert v is None or isinstance(v, bool | int | str | list | dict), f"{where}: {type(v).__name__} {v!r}"


def _walk(value: Any) -> Iterator[Any]:
    stack = [value]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, dict):
            assert all(isinstance(k, str) for k in v), f"non-string key in {v!r}"
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


class Run:
    """One configuration's matches, with what it saw (the pool of legal actions' wire forms)."""

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
        assert counted == Counter(self.deck), f"{where}: cards not conserved: {counted - Counter(self.deck)} / " \
            f"{Counter(self.deck) - counted}"
        between = not state.in_round() and state.outcome() is None
        code = state.deal_code if state.in_round() else None
        for seat in range(n):
            legal = state.legal_actions(seat)
            assert isinstance(legal, tuple), f"{where}: legal_actions is not a tuple"
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
                self.check_view(state, seat, legal, locations, code, where)
        hash(state.period())
        self.check_view(state, None, (), locations, code, where)
        for timed in state.timed_actions():
            assert 0 <= timed.seat < n and timed.delay_ms >= 0 and timed.since <= state.version, f"{where}: {timed}"
        if deep:
            self.check_refusals(state, where)
            self.check_persistence(state, where)

    def check_view(
        self, state: Any, seat: int | None, legal: tuple[Any, ...], locations: Any, code: str | None, where: str
    ) -> None:
        view = state.view(seat)
        assert tuple(view.legal) == legal, f"{where}: seat {seat}'s view lists other actions"
        wire = view.to_wire()
        _plain(wire, f"{where} view {seat}")
        assert wire.get("legal") == [a.to_wire() for a in legal], f"{where}: seat {seat} wire legal"
        assert wire.get("version") == state.version and wire.get("seat") == seat, f"{where}: version, seat"
        assert wire.get("game") == self.config.game and wire.get("seats") == self.config.seats, f"{where}: game, seats"
        assert isinstance(wire.get("phase"), str) and wire.get("round") == state.round, f"{where}: phase, round"
        leaked = {s for s in _strings(wire) if s in self.names} - visible(locations, seat)
        assert not leaked, f"{where}: seat {seat}'s view names {sorted(leaked)}"
        assert "seed" not in set(_keys(wire)), f"{where}: a 'seed' key in seat {seat}'s view"
        if code is not None:
            assert code not in json.dumps(wire), f"{where}: the deal code in seat {seat}'s view during the round"

    def check_refusals(self, state: Any, where: str) -> None:
        before = json.dumps(state.to_data(), sort_keys=True)
        rnd = random.Random(state.version)
        pool = list(self.pool.values())
        for seat in range(self.config.seats):
            legal = state.legal_actions(seat)
            for wire in rnd.sample(pool, min(6, len(pool))):
                action = self.game.decode_action(wire)
                if action in legal:
                    continue
                try:
                    state.apply(seat, action)
                except RulesError:
                    pass
                else:
                    if not any(t.seat == seat and t.action == action for t in state.timed_actions()):
                        raise AssertionError(f"{where}: seat {seat} was allowed {wire}, not in its legal actions")
        if pool:
            for bad_seat in (-1, self.config.seats, 99):
                with pytest.raises(RulesError):
                    state.apply(bad_seat, self.game.decode_action(pool[0]))
        for junk in (None, 3, "draw", [], {}, {"kind": 7}, {"kind": "no such action"}):
            with pytest.raises(BadActionError):
                self.game.decode_action(junk)
        assert json.dumps(state.to_data(), sort_keys=True) == before, f"{where}: a refused action changed the state"

    def check_persistence(self, state: Any, where: str) -> None:
        data = state.to_data()
        _plain(data, f"{where} to_data")
        for text in (json.loads(json.dumps(data)), msgpack.unpackb(msgpack.packb(data, use_bin_type=True))):
            again = self.game.state_from_data(text)
            assert again.to_data() == data, f"{where}: state_from_data(to_data()) differs"
            for seat in range(self.config.seats):
                assert again.legal_actions(seat) == state.legal_actions(seat), f"{where}: legal after reload"
            for seat in (*state.awaiting(), None):
                assert again.view(seat).to_wire() == state.view(seat).to_wire(), f"{where}: view after reload"

    # ------------------------------------------------------------------ per action

    def check_step(self, before: Any, seat: int, action: Any, after: Any, events: tuple[Event, ...]) -> None:
        where = f"{self.config.id} v{before.version} seat {seat} {action.to_wire()}"
        assert after.version == before.version + 1, f"{where}: version {after.version}"
        seen_before = {s: visible(before.locations(), s) for s in (*range(self.config.seats), None)}
        seen_after = {s: visible(after.locations(), s) for s in (*range(self.config.seats), None)}
        kinds = [e.kind for e in events]
        for e in events:
            assert isinstance(e, Event), f"{where}: {e!r}"
            assert e.kind not in TABLE_EVENT_KINDS, f"{where}: the game uses the table's event kind {e.kind!r}"
            _plain(e.to_wire(), f"{where} event {e.kind}")
            assert e.only is None or all(0 <= s < self.config.seats for s in e.only), f"{where}: {e}"
            for viewer in (*range(self.config.seats), None):
                if e.is_seen_by(viewer):
                    named = {s for s in _strings(e.to_wire()) if s in self.names}
                    leaked = named - seen_before[viewer] - seen_after[viewer]
                    assert not leaked, f"{where}: event {e.kind} shows {sorted(leaked)} to {viewer}"
                    assert "seed" not in set(_keys(e.to_wire())), f"{where}: a seed in event {e.kind}"
            code = before.deal_code if before.in_round() and after.in_round() else None
            if code is not None and after.round == before.round:
                assert code not in json.dumps(e.to_wire()), f"{where}: the deal code in event {e.kind}"
        began = after.in_round() and (not before.in_round() or after.round != before.round)
        ended = before.in_round() and (not after.in_round() or after.round != before.round)
        if began:
            assert self.info.round_start in kinds, f"{where}: a round began without {self.info.round_start!r}"
        if ended:
            assert self.info.round_end in kinds, f"{where}: a round ended without {self.info.round_end!r}"
        self.fingerprint.update(f"{seat}:{json.dumps(action.to_wire(), sort_keys=True)};".encode())
        self.fingerprint.update(json.dumps([list(e) for e in events], sort_keys=True, default=list).encode())

    # ------------------------------------------------------------------ matches

    def play(self, match: int) -> int:
        """One match (or its first round); the number of actions."""
        config = self.config
        rnd = random.Random(f"{config.id}/{match}")
        seed = rnd.getrandbits(128)
        deep = match == 0
        whole = match % 3 == 2
        start = self.game.new_match(self.options, config.seats, seed)
        state = start.state
        log: list[tuple[int, dict[str, Any]]] = []
        all_events = list(start.events)
        actions = in_round = 0
        first_round = state.round
        while state.outcome() is None:
            if not whole and (state.round != first_round or not state.in_round()):
                break
            if state.round > first_round + WHOLE_ROUNDS:
                break
            self.check_state(state, deep)
            # What talk the rules allow is one of the three (public: the table map carries it).
            assert state.talk() in TALK_KINDS, f"{config.id} v{state.version}: talk() is {state.talk()!r}"
            choices = [(s, a) for s in state.actors() for a in state.legal_actions(s)]
            timed = state.timed_actions()
            if timed and (not choices or rnd.random() < 0.3):
                pick = rnd.choice(timed)
                seat, action = pick.seat, pick.action
            else:
                assert choices, f"{config.id} v{state.version}: nobody may act and nothing is timed: stuck"
                # Lean toward actions that move a card: where drawing is always allowed (Kartu
                # Terakhir) a uniform walk takes thousands of actions a round.
                moves = [c for c in choices if "card" in c[1].to_wire()]
                seat, action = rnd.choice(moves if moves and rnd.random() < 0.8 else choices)
            step = state.apply(seat, action)
            self.check_step(state, seat, action, step.state, step.events)
            log.append((seat, action.to_wire()))
            all_events.extend(step.events)
            in_round = in_round + 1 if step.state.round == state.round else 0
            assert in_round < ROUND_CAP, f"{config.id}: a round did not end in {ROUND_CAP} actions"
            state = step.state
            actions += 1
            assert actions < MATCH_CAP, f"{config.id}: a match did not end in {MATCH_CAP} actions"
        outcome = state.outcome()
        if outcome is not None:
            assert not state.actors(), f"{config.id}: someone may act after the match ended"
            assert set(outcome.winners) <= set(range(config.seats)) and len(outcome.scores) == config.seats
            teams = self.game.teams(self.options, config.seats)
            if outcome.team_scores:
                assert len(outcome.team_scores) == len(teams)
                assert outcome.teams and all(0 <= t < len(teams) for t in outcome.teams)
                assert set(outcome.winners) == {s for t in outcome.teams for s in teams[t]}
            _plain(outcome.to_wire(), f"{config.id} outcome")
            # What the match hands a rematch: plain data (the record keeps it) that deals one,
            # the same one for the same seed (a replay of the log deals it again).
            carry = state.carry()
            if carry is not None:
                _plain(carry, f"{config.id} carry")
                carry = json.loads(json.dumps(carry))
            nxt = self.game.new_match(self.options, config.seats, seed + 1, None, carry)
            assert nxt.state.outcome() is None and nxt.state.in_round()
            assert nxt.events == self.game.new_match(self.options, config.seats, seed + 1, None, carry).events
        else:
            assert state.carry() is None, f"{config.id}: a carry before the match is over"
        # Replay: the same actions through decode_action give the same match.
        again = self.game.new_match(self.options, config.seats, seed)
        replayed, events = again.state, list(again.events)
        for seat, wire in log:
            step = replayed.apply(seat, self.game.decode_action(wire))
            replayed = step.state
            events.extend(step.events)
        assert replayed.to_data() == state.to_data(), f"{config.id} match {match}: the replay ends elsewhere"
        assert events == all_events, f"{config.id} match {match}: the replay's events differ"
        return actions


CONFIGS = configs()


@pytest.mark.parametrize("config", CONFIGS, ids=[c.id for c in CONFIGS])
def test_the_contract_holds(config: Config) -> None:
    run = Run(config)
    played = sum(run.play(m) for m in range(MATCHES))
    assert played > 0


def test_every_registered_game_is_covered() -> None:
    assert {c.game for c in CONFIGS} == set(games.names())
    assert "snap" in games.names(), "the test-only game is registered (tests/conftest.py)"


def test_the_shell_never_uses_a_table_event_kind() -> None:
    """The server's table events are the ones the contract reserves (meja.rules.game.TABLE_EVENT_KINDS)."""
    from meja.server.tables import TABLE_EVENTS

    assert TABLE_EVENTS == TABLE_EVENT_KINDS


def _fingerprint() -> str:
    out = hashlib.sha256()
    for config in CONFIGS:
        run = Run(config)
        run.play(1)
        out.update(run.fingerprint.digest())
    return out.hexdigest()


def test_the_same_under_two_hash_seeds() -> None:
    """Sets of strings and plain Enums change their order with PYTHONHASHSEED; no game may depend on it."""
    here = Path(__file__).resolve()
    script = (
        "import sys; sys.path[:0] = [%r, %r]\n"
        "import meja.games; meja.games.load('toy_game')\n"
        "import importlib.util\n"
        "spec = importlib.util.spec_from_file_location('contract', %r)\n"
        "m = importlib.util.module_from_spec(spec); sys.modules['contract'] = m; spec.loader.exec_module(m)\n"
        "print(m._fingerprint())\n"
    ) % (str(here.parents[1]), str(here.parent), str(here))
    prints = set()
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "MEJA_CONTRACT_MATCHES": "2"}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
        prints.add(out.stdout.strip().splitlines()[-1])
    assert len(prints) == 1, prints


def _wire_names(config: Config) -> tuple[set[str], set[str], set[str]]:
    """The view fields, event kinds and event fields a few random matches of ``config`` show."""
    run = Run(config)
    views: set[str] = set()
    kinds: set[str] = set()
    fields: set[str] = set()
    game = run.game
    for match in range(2):
        rnd = random.Random(f"doc/{config.id}/{match}")
        state = game.new_match(run.options, config.seats, rnd.getrandbits(128)).state
        for _ in range(3000):
            if state.outcome() is not None:
                break
            for seat in (*range(config.seats), None):
                views |= set(state.view(seat).to_wire())
            choices = [(s, a) for s in state.actors() for a in state.legal_actions(s)]
            timed = state.timed_actions()
            if timed and (not choices or rnd.random() < 0.3):
                step = state.apply(timed[0].seat, timed[0].action)
            else:
                seat, action = rnd.choice(choices)
                step = state.apply(seat, action)
            for e in step.events:
                kinds.add(e.kind)
                fields |= set(e.data)
            state = step.state
    return views, kinds, fields


@pytest.mark.parametrize("name", [p.name for p in games.plugins() if p.protocol is not None])
def test_the_protocol_section_names_every_field(name: str) -> None:
    """Each game's PROTOCOL.md section names every view field, event kind and event field it sends."""
    plugin = games.get(name)
    assert plugin.protocol is not None and plugin.protocol.is_file(), f"{name}: no protocol section"
    text = plugin.protocol.read_text(encoding="utf-8")
    missing: set[str] = set()
    for config in [c for c in CONFIGS if c.game == name]:
        views, kinds, fields = _wire_names(config)
        # the fields every view has are the core's (client-protocol/PROTOCOL.md 7.2)
        common = {"game", "seat", "seats", "version", "phase", "round", "legal"}
        missing |= {f for f in (views - common) | kinds | fields if f"`{f}`" not in text}
    assert not missing, f"{plugin.protocol}: not documented: {sorted(missing)}"


@pytest.mark.parametrize("name", games.names())
def test_an_options_when_names_options_of_its_preset(name: str) -> None:
    """``OptionSpec.when`` refers to other options of the same preset, by values they can take."""
    for preset in games.get_game(name).info.presets:
        specs = {o.name: o for o in preset.options}
        for spec in preset.options:
            for other, allowed in spec.when:
                assert other in specs and other != spec.name, f"{name}/{preset.name}: {spec.name} names {other}"
                for value in allowed:
                    assert specs[other].check(value) == value
