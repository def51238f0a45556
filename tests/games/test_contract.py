"""The game contract, checked the same way for every registered game (after OpenSpiel's basic_tests).

Every game in :mod:`meja.games` (the test-only one too) is played by random
legal actions and by its playout policies, each of its presets at its smallest,
default and largest seat count, with its options as defaulted and with every
option moved off its default (and the configurations the game adds), every state
and action checked: :mod:`games.conformance` says what is checked, and how a game
adds its own invariants (``tests/games/<game>/invariants.py``). Besides: the runs
reach every event kind the game names; every action value the game lists
round-trips through its wire form and malformed ones are refused; the same seeded
runs give the same fingerprint (actions, events, the acting seat's views, final
states) under two ``PYTHONHASHSEED`` values and in this process; the checks
themselves catch planted faults; each game's PROTOCOL.md names every field it
sends.

Each game keeps its own stacked-deck rule scenarios (tests/games/<name>/); this
suite is what holds for all of them, so a new game is held to it the day it
registers. Sizes: ``MEJA_CONTRACT_MATCHES`` matches per configuration (default
3; the first is deep), a whole match one time in three (up to
:data:`~games.conformance.WHOLE_ROUNDS` rounds), otherwise its first round.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from meja import games
from meja.rules.errors import BadActionError
from meja.rules.game import TABLE_EVENT_KINDS, Event

from .conformance import JUNK, MATCHES, Config, Run, configs, invariants, secrets

CONFIGS = configs()


@pytest.mark.parametrize("config", CONFIGS, ids=[c.id for c in CONFIGS])
def test_the_contract_holds(config: Config) -> None:
    run = Run(config)
    played = sum(run.play(m) for m in range(max(MATCHES, run.hooks_class.matches)))
    # The run exercised what it claims to check (so a broken generator cannot pass vacuously).
    stats = run.stats
    assert played > 0 and stats["rounds"] >= 1 and stats["alternatives"] > 0, dict(stats)
    assert stats[f"event {run.info.round_end}"] >= stats["rounds"], dict(stats)
    for code in run.hooks_class.refusals:
        assert stats[f"refused as {code}"] > 0, f"{config.id}: no refusal as {code}: {dict(stats)}"


@pytest.mark.parametrize("name", games.names())
def test_the_runs_reach_every_event_kind(name: str) -> None:
    """The same seeded matches as the checked runs, all configurations of the game together, reach
    every event kind (and whatever else) the game names: so no check is vacuous for any of them."""
    seen: Counter[str] = Counter()
    for config in (c for c in CONFIGS if c.game == name):
        run = Run(config)
        for match in range(max(MATCHES, run.hooks_class.matches)):
            run.play(match, checks=False)
        seen.update(run.stats)
    info = games.get_game(name).info
    for what in {f"event {info.round_start}", f"event {info.round_end}"} | invariants(name).reached:
        assert seen[what] > 0, f"{name}: its runs show no {what!r}"


@pytest.mark.parametrize("name", games.names())
def test_every_action_decodes_from_its_wire_form(name: str) -> None:
    """Every action value the game lists decodes back to itself; malformed wire values are refused."""
    game = games.get_game(name)
    hooks = invariants(name)
    for preset in game.info.presets:
        options = game.options_from_wire({"preset": preset.name})
        for action in hooks.actions(options, preset.max_seats):
            assert game.decode_action(json.loads(json.dumps(action.to_wire()))) == action, action
    for wire in (*JUNK, *hooks.malformed):
        with pytest.raises(BadActionError):
            game.decode_action(wire)


def test_every_registered_game_is_covered() -> None:
    assert {c.game for c in CONFIGS} == set(games.names())
    assert "snap" in games.names(), "the test-only game is registered (tests/conftest.py)"


def test_the_shell_never_uses_a_table_event_kind() -> None:
    """The server's table events are the ones the contract reserves (meja.rules.game.TABLE_EVENT_KINDS)."""
    from meja.server.tables import TABLE_EVENTS

    assert TABLE_EVENTS == TABLE_EVENT_KINDS


def _fingerprint() -> str:
    """What a seeded match (its first round) of every configuration produces (played, not checked)."""
    out = hashlib.sha256()
    for config in CONFIGS:
        run = Run(config)
        run.play(1, checks=False)
        out.update(run.fingerprint.digest())
    return out.hexdigest()


def test_the_same_under_two_hash_seeds() -> None:
    """Sets of strings and plain Enums change their order with PYTHONHASHSEED; no game may depend on it."""
    tests = Path(__file__).resolve().parents[1]
    script = (
        f"import sys; sys.path[:0] = [{str(tests)!r}]\n"
        "import meja.games; meja.games.load('toy_game')\n"
        "from games.test_contract import _fingerprint\n"
        "print(_fingerprint())\n"
    )
    prints = set()
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
        prints.add(out.stdout.strip().splitlines()[-1])
    assert len(prints) == 1, prints
    assert prints == {_fingerprint()}, "this process (whatever its hash seed) agrees"


class Faulty:
    """A state with some of its answers replaced (to show the checks a fault)."""

    def __init__(self, state: Any, **answers: Any) -> None:
        self._state = state
        self._answers = answers

    def __getattr__(self, name: str) -> Any:
        return self._answers[name] if name in self._answers else getattr(self._state, name)


class View:
    def __init__(self, legal: tuple[Any, ...], wire: dict[str, Any]) -> None:
        self.legal = legal
        self._wire = wire

    def to_wire(self) -> dict[str, Any]:
        return self._wire


@pytest.mark.parametrize("name", games.names())
def test_the_checks_catch_planted_faults(name: str) -> None:
    """The checks would pass vacuously if they could not see a fault: show them some, in every game."""
    run = Run(next(c for c in CONFIGS if c.game == name))
    seed = 1 << 100
    state = run.game.new_match(run.options, run.config.seats, seed).state
    run.secrets = secrets(seed, state)
    run.check_state(state, deep=False)  # the real state passes
    seat = state.awaiting()[0]  # (its view is checked at every state)
    hidden = next(c for loc in state.locations() if loc.seen_by != "all" and seat not in loc.seen_by for c in loc.cards)
    legal = state.legal_actions(seat)
    wire = state.view(seat).to_wire()

    def fails(faulty: Any, match: str | None) -> None:
        with pytest.raises(AssertionError, match=match):
            run.check_state(faulty, deep=False)

    def view_with(extra: dict[str, Any]) -> Any:
        return Faulty(state, view=lambda s: View(legal, {**wire, **extra}) if s == seat else state.view(s))

    fails(view_with({"x": hidden}), "names")
    fails(view_with({"x": [[hidden]]}), "names")
    fails(view_with({"seed": 1}), "seed")
    fails(view_with({"n": str(seed)}), "holds")
    fails(view_with({"x": (1,)}), "tuple")
    if state.deal_code:
        fails(view_with({"code": state.deal_code}), "holds")
        fails(view_with({"code": state.deal_code.replace("-", "")}), "holds")
    fails(view_with({"version": state.version + 1}), "version")
    fails(view_with({"legal": []}) if legal else view_with({"legal": [{"kind": "x"}]}), "legal")
    own = state.own_view(seat)
    if own is not None:  # a seat's own part that is not what its view says
        for wrong in ({**own, "seat": None}, {k: v for k, v in own.items() if k != "seat"}):
            faulty = Faulty(state, own_view=lambda s, wrong=wrong: wrong if s == seat else state.own_view(s))
            fails(faulty, "own_view|parts")
    locations = state.locations()
    lost = tuple(loc._replace(cards=loc.cards[1:]) if loc.cards == locations[0].cards else loc for loc in locations)
    fails(Faulty(state, locations=lambda: lost), "not conserved")
    twice = (locations[0]._replace(cards=(*locations[0].cards, hidden)), *locations[1:])
    fails(Faulty(state, locations=lambda: twice), "not conserved")
    actor = state.actors()[0]
    mine = state.legal_actions(actor)
    others = {s: state.legal_actions(s) for s in range(run.config.seats)}
    for bad in (tuple(reversed(mine)) if len(mine) > 1 else (), mine + mine[:1], list(mine)):
        if bad != mine:
            fails(Faulty(state, legal_actions=lambda s, bad=bad: bad if s == actor else others[s]), None)
    # an event that shows a hidden card to everyone, or a seed, or the deal code in its round
    step = state.apply(actor, mine[0])
    run.check_step(state, actor, mine[0], step.state, step.events)
    for planted in (Event("x", {"card": hidden}), Event("x", {"seed": 1}), Event("x", {"n": [str(seed)]})):
        with pytest.raises(AssertionError):
            run.check_step(state, actor, mine[0], step.state, (*step.events, planted))
    with pytest.raises(AssertionError, match="table's event kind"):
        run.check_step(state, actor, mine[0], step.state, (Event(next(iter(TABLE_EVENT_KINDS)), {}),))
    with pytest.raises(AssertionError, match="version"):
        run.check_step(state, actor, mine[0], state, step.events)


def _wire_names(config: Config) -> tuple[set[str], set[str], set[str]]:
    """The view fields (every seat's and a spectator's), event kinds and event fields the matches
    of the conformance run of ``config`` show."""
    run = Run(config)
    views: set[str] = set()
    kinds: set[str] = set()
    fields: set[str] = set()

    def watch(state: Any, step: Any) -> None:
        for seat in (*range(config.seats), None):
            views.update(state.view(seat).to_wire())
        for e in step.events:
            kinds.add(e.kind)
            fields.update(e.data)

    run.watch = watch
    for match in range(max(MATCHES, run.hooks_class.matches)):
        run.play(match, checks=False)
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
