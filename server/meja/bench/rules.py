"""``meja bench rules [--game NAME]``: random playouts of a game's rules engine, in rounds and actions per second.

What it measures
----------------
For each preset and seat count (the game's own default seat counts, or the one
asked for), this deals a round with ``new_match`` and plays it to its end with a
random policy (:func:`meja.rules.playout.playout`), over and over, for
``--seconds`` seconds, in this one process on one core. It prints rounds/s,
actions/s (wall clock), actions per CPU second (``actions_per_cpu_s``: this
process's CPU time, which a loaded shared machine disturbs less) and actions
per round. A round includes its deal, so rounds/s is what a server or a bot
trainer gets from the engine for whole rounds; actions/s is ``apply``
throughput with ``legal_actions`` and the policy's small cost.

Then, unless ``--no-split``, a shorter instrumented pass (a quarter of the
time) says where the time goes: dealing, ``legal_actions`` (with finding the
seat to act), the policy's choice, ``apply``. It is measured apart because the
clock calls it needs would slow the main figures by a few percent.

Every game gets this by registering: what it adds is a
:class:`meja.rules.playout.Playouts` on its plugin (its policies, a turn of its
own where seats act out of turn, its default seat counts, option flags, the name
of its round, a target and a note); a game that declares none is played by
``random-any``. The policies use :class:`random.Random` (fast, seeded by
``--seed``): a benchmark needs to be repeatable on one machine, not across
Python versions (the rules themselves never use :mod:`random`). Figures, not
tests: timing depends on the machine and what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meja import games
from meja.games.plugin import GamePlugin
from meja.rules.playout import MAX_ROUND_ACTIONS, Playouts, Policy, Turn, playout

from .pergame import game_in

__all__ = ["WANTS_ARGV", "Result", "add_arguments", "configurations", "measure", "run"]

WANTS_ARGV = True  # meja.cli hands add_arguments the command line (to read --game before parsing)


def configurations(plugin: GamePlugin, preset: str | None = None, seats: int | None = None) -> list[tuple[str, int]]:
    """Every (preset, seat count) asked for, in preset order then seats; empty if none match."""
    default_seats = plugin.playouts.seats
    out: list[tuple[str, int]] = []
    for info in plugin.game.info.presets:
        if preset is not None and info.name != preset:
            continue
        for n in info.seat_range():
            if (seats is None and (not default_seats or n in default_seats)) or n == seats:
                out.append((info.name, n))
    return out


@dataclass
class Split:
    """Seconds spent in each part of a playout (the instrumented pass)."""

    deal: float = 0.0
    legal_actions: float = 0.0
    policy: float = 0.0
    apply: float = 0.0
    total: float = 0.0

    def percentages(self) -> dict[str, float]:
        parts = {"deal": self.deal, "legal_actions": self.legal_actions, "policy": self.policy, "apply": self.apply}
        total = self.total or 1.0
        out = {k: round(100.0 * v / total, 1) for k, v in parts.items()}
        out["other"] = round(max(0.0, 100.0 - sum(out.values())), 1)
        return out


def _instrumented_playout(
    game: Any, options: Any, seats: int, seed: int, policy: Policy, rng: random.Random, turn: Turn, split: Split
) -> None:
    """:func:`meja.rules.playout.playout` with a clock around each part (the policy's own time measured inside)."""
    clock = time.perf_counter
    chosen = 0.0

    def timed_policy(legal: tuple[Any, ...], chance: Any) -> Any:
        nonlocal chosen
        t = clock()
        action = policy(legal, chance)
        chosen += clock() - t
        return action

    t0 = clock()
    state = game.new_match(options, seats, seed).state
    split.deal += clock() - t0
    actions = 0
    while state.in_round():
        a = clock()
        seat, action = turn(state, timed_policy, rng)
        b = clock()
        state = state.apply(seat, action).state
        split.apply += clock() - b
        split.legal_actions += b - a
        actions += 1
        if actions > MAX_ROUND_ACTIONS:
            raise RuntimeError(f"the round of seed {seed} did not end in {MAX_ROUND_ACTIONS} actions")
    split.policy += chosen
    split.legal_actions -= chosen
    split.total += clock() - t0


@dataclass
class Result:
    """The figures for one configuration; ``unit`` names its rounds in the JSON (``hands``...)."""

    preset: str
    seats: int
    policy: str
    options: dict[str, Any]
    rounds: int
    actions: int
    seconds: float
    longest_round: int
    cpu_seconds: float = 0.0
    split: dict[str, float] | None = field(default=None)
    unit: str = "round"

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def actions_per_cpu_s(self) -> float:
        return self.actions / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def actions_per_round(self) -> float:
        return self.actions / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, Any]:
        u = self.unit
        return {
            "preset": self.preset,
            "seats": self.seats,
            "policy": self.policy,
            "options": self.options,
            f"{u}s": self.rounds,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            f"{u}s_per_s": round(self.rounds_per_s, 1),
            "actions_per_s": round(self.actions_per_s, 1),
            "cpu_seconds": round(self.cpu_seconds, 4),
            "actions_per_cpu_s": round(self.actions_per_cpu_s, 1),
            f"actions_per_{u}": round(self.actions_per_round, 2),
            f"longest_{u}": self.longest_round,
            "split_percent": self.split,
        }


def _options(plugin: GamePlugin, preset: str, flags: Sequence[str]) -> tuple[Any, dict[str, Any]]:
    """The game's options for ``preset`` with ``flags`` on, and those of them that differ from the preset's."""
    options = plugin.game.options_from_wire({"preset": preset, **{name: True for name in flags}})
    plain = plugin.game.options_from_wire({"preset": preset})
    wire: dict[str, Any] = getattr(options, "to_wire", dict)()
    plain_wire: dict[str, Any] = getattr(plain, "to_wire", dict)()
    changed = {k: v for k, v in wire.items() if v != plain_wire.get(k)}
    return options, changed


def measure(
    plugin: GamePlugin,
    preset: str,
    seats: int,
    policy_name: str,
    seconds: float,
    seed: int,
    split: bool = True,
    flags: Sequence[str] = (),
) -> Result:
    """Play rounds of ``preset`` at ``seats`` for about ``seconds`` (at least one round)."""
    hooks = plugin.playouts
    game = plugin.game
    options, changed = _options(plugin, preset, flags)
    policy = hooks.policies[policy_name]
    rng = random.Random(seed)
    base = (seed & 0xFFFFFFFF) << 32
    clock = time.perf_counter
    rounds = actions = longest = 0
    start = clock()
    cpu_start = time.process_time()
    deadline = start + seconds
    while True:
        n = playout(game, options, seats, base + rounds, policy, rng, hooks.turns())
        rounds += 1
        actions += n
        longest = max(longest, n)
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = time.process_time() - cpu_start
    percentages: dict[str, float] | None = None
    if split:
        parts = Split()
        stop = clock() + seconds / 4
        i = 0
        while True:
            _instrumented_playout(game, options, seats, base + rounds + i, policy, rng, hooks.turns(), parts)
            i += 1
            if clock() >= stop:
                break
        percentages = parts.percentages()
    return Result(preset, seats, policy_name, changed, rounds, actions, elapsed, longest, cpu, percentages, hooks.unit)


def _plugin_of(argv: Sequence[str] | None) -> GamePlugin | None:
    try:
        return games.get(game_in(sys.argv[1:] if argv is None else argv))
    except KeyError:
        return None  # argparse refuses the --game value with the list of games


def add_arguments(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> None:
    """The options of ``meja bench rules``: the same for every game, with the policies and flags of ``--game``."""
    parser.add_argument(
        "--game", default=games.names()[0], choices=games.names(), help="the game (default: %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
    parser.add_argument(
        "--seconds", type=float, default=1.0, metavar="S",
        help="seconds of playouts per configuration (default 1.0; the time split adds a quarter)",
    )  # fmt: skip
    parser.add_argument("--preset", help="only this preset (default: all)")
    parser.add_argument("--seats", type=int, metavar="N", help="only this seat count (default: the game's)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the policy (default 1)")
    parser.add_argument("--no-split", action="store_true", help="skip the instrumented time-split pass")
    plugin = _plugin_of(argv)
    hooks = plugin.playouts if plugin is not None else Playouts()
    parser.add_argument(
        "--policy", choices=[*sorted(hooks.policies), "all"], default=hooks.default_policy, help=hooks.policy_help
    )
    for name in hooks.flags:
        parser.add_argument(f"--{name}", action="store_true", help=f"play with the {name} option on")


def _environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processes": 1,
    }


def _target(hooks: Playouts, results: Sequence[Result], policy: str) -> dict[str, Any] | None:
    """The game's target, judged on this run's figures (``None``: the run measured none of its configurations)."""
    target = hooks.target
    if target is None or policy not in (target.policy, "all"):
        return None
    measured = {
        r.seats: round(getattr(r, target.metric), 1)
        for r in results
        if r.seats in target.seats and r.policy == target.policy and target.preset in (None, r.preset)
    }
    if not measured:
        return None
    return {
        "preset": target.preset,
        "seats": sorted(measured),
        "policy": target.policy,
        target.metric: target.value,
        "measured": measured,
        "met": all(v >= target.value for v in measured.values()),
        "yardstick": target.yardstick,
    }


def _print_table(plugin: GamePlugin, results: Sequence[Result], args: argparse.Namespace) -> None:
    env = _environment()
    hooks = plugin.playouts
    u = hooks.unit
    flags = "".join(f", {name} on" for name in hooks.flags if getattr(args, name, False))
    print(
        f"meja bench rules --game {plugin.name}: policy {args.policy}, {args.seconds:g} s per configuration,"
        f" one process, {env['implementation']} {env['python']} on {env['machine']}{flags}"
    )
    header = (
        f"{'preset':<10}{'seats':>6} {'policy':<16}{u + 's':>8}{u + 's/s':>10}"
        f"{'actions/s':>12}{'act/cpu-s':>12}{'act/' + u:>10}{'longest':>9}"
    )
    if not args.no_split:
        header += "   split % deal/legal/policy/apply/other"
    print(header)
    for r in results:
        line = (
            f"{r.preset:<10}{r.seats:>6} {r.policy:<16}{r.rounds:>8}{r.rounds_per_s:>10,.0f}"
            f"{r.actions_per_s:>12,.0f}{r.actions_per_cpu_s:>12,.0f}{r.actions_per_round:>10.1f}{r.longest_round:>9}"
        )
        if r.split is not None:
            s = r.split
            line += f"   {s['deal']:.0f}/{s['legal_actions']:.0f}/{s['policy']:.0f}/{s['apply']:.0f}/{s['other']:.0f}"
        print(line)
    target = _target(hooks, results, args.policy)
    if target is not None and hooks.target is not None:
        t = hooks.target
        verdict = "met" if target["met"] else "not met"
        where = f"{t.preset} " if t.preset else ""
        got = ", ".join(f"{n} seats {v:,.0f}" for n, v in target["measured"].items())
        print(f"target: {where}{t.policy}, {t.metric} >= {t.value:,.0f}: {got} ({verdict})")
    if hooks.note:
        print(f"note: {hooks.note}")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; print a table (or JSON with ``--json``). Returns the exit status."""
    plugin = games.get(args.game)
    hooks = plugin.playouts
    presets = [p.name for p in plugin.game.info.presets]
    if args.preset is not None and args.preset not in presets:
        print(f"meja bench rules: {plugin.name} has no preset {args.preset!r}; known: {presets}", file=sys.stderr)
        return 2
    configs = configurations(plugin, args.preset, args.seats)
    if not configs:
        where = f"preset {args.preset!r}" if args.preset else plugin.name
        print(f"meja bench rules: {where} has no {args.seats}-seat table", file=sys.stderr)
        return 2
    if not args.seconds > 0:
        print(f"meja bench rules: --seconds must be positive, not {args.seconds!r}", file=sys.stderr)
        return 2
    policies = sorted(hooks.policies) if args.policy == "all" else [args.policy]
    flags = [name for name in hooks.flags if getattr(args, name, False)]
    results = [
        measure(plugin, preset, seats, policy, args.seconds, args.seed, split=not args.no_split, flags=flags)
        for preset, seats in configs
        for policy in policies
    ]
    if args.json:
        doc = {
            "benchmark": "rules",
            "game": plugin.name,
            "policy": args.policy,
            "unit": hooks.unit,
            "seconds_per_configuration": args.seconds,
            "seed": args.seed,
            "environment": _environment(),
            "configurations": [r.to_json() for r in results],
            "target": _target(hooks, results, args.policy),
            "note": hooks.note,
        }
        print(json.dumps(doc, indent=2))
    else:
        _print_table(plugin, results, args)
    return 0
