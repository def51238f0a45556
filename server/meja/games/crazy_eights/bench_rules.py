"""``meja bench rules``: random playouts of the rules engine, in rounds and actions per second.

What it measures
----------------
For each preset and seat count (or the one asked for), this deals a round with
``new_match`` and plays it to its end with a random policy, over and over, for
``--seconds`` seconds, in this one process on one core. It prints rounds/s,
actions/s and actions per round. A "round" includes its deal (``new_match``),
so rounds/s is what a server or a bot trainer gets from the engine for whole
rounds; actions/s is ``apply`` throughput including the policy's small cost.

Then, unless ``--no-split``, a shorter instrumented pass (a quarter of the
time) says where the time goes: dealing, ``legal_actions``, the policy's
choice, ``apply``. It is measured apart because the clock calls it needs
(about 0.2 microseconds an action) would slow the main figures by a few
percent.

Policies
--------
``random-card`` (the default) plays like a casual player: a uniformly random
legal play (an 8 counts once per suit it may name, so a uniformly random
legal *action* among the plays); it draws only when it has no play, and
passes only when passing is the one thing left. ``random-any`` picks
uniformly among all legal actions, draws and passes included.

Why ``random-card`` is the default: ``house`` lets a seat draw up to three
cards a turn even when it could play (docs/rules/crazy-eights.md 1.4.3), so ``random-any``
draws far more than anyone would: its house rounds average about 640 actions
(against about 55 for ``random-card``), with hands of dozens of cards and many
reshuffles. That measures a game nobody plays. ``classic`` and ``party`` allow a
draw only when stuck, so there the two policies give similar rounds.

The policies use :class:`random.Random` (fast, seeded by ``--seed``): a
benchmark needs to be repeatable on one machine, not across Python versions
(the rules themselves never use :mod:`random`).

The acceptance target is at least 2,000 ``house`` 2-seat rounds/s with
``random-card``; the output says whether this run met it. It is a figure, not
a test: timing depends on the machine and what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .rules import PRESETS, CrazyEights, CrazyEightsOptions, Kind, Move, Phase

__all__ = [
    "POLICIES",
    "Policy",
    "add_arguments",
    "configurations",
    "playout",
    "random_any",
    "random_card",
    "run",
]

Policy = Callable[[tuple[Move, ...], random.Random], Move]
"""A policy: ``(legal_actions, rng) -> action``; ``legal_actions`` is sorted and not empty."""

#: The acceptance target: ``house``, 2 seats, ``random-card``, rounds per second on one core.
TARGET: Final = ("house", 2, 2000.0)

#: A round that runs past this many actions is a bug (an engine that never ends a round):
#: ``random-any`` house rounds average about 640 actions and the longest seen is a few thousand.
MAX_ROUND_ACTIONS: Final = 1_000_000

_ROUND_LIVE: Final = Phase.CHOOSE_SUIT
# Globals, not Kind.PLAY: an Enum member lookup costs about 130 ns in CPython 3.11,
# which the policy would pay twice per action.
_PLAY: Final = Kind.PLAY
_SUIT: Final = Kind.SUIT  # phases up to this one are a round in progress

WHY_RANDOM_CARD: Final = (
    "random-card is the default: random-any draws itself to death in house (up to 3 voluntary "
    "draws a turn, docs/rules/crazy-eights.md 1.4.3), averaging about 640 actions a round against about 55"
)


def random_card(legal: tuple[Move, ...], rng: random.Random) -> Move:
    """A random legal play; else draw; else pass (or the one action left: suit, ready).

    Legal actions are sorted by kind (play, suit, draw, pass, ready), so the
    plays, or the suit choices, are a prefix of ``legal``.
    """
    first = legal[0]
    kind = first.kind
    if kind in (_PLAY, _SUIT):
        n = 1
        end = len(legal)
        while n < end and legal[n].kind == kind:
            n += 1
        return first if n == 1 else legal[int(rng.random() * n)]
    return first  # draw sorts before pass: draw only when there is no play


def random_any(legal: tuple[Move, ...], rng: random.Random) -> Move:
    """Uniform over every legal action, draws and passes included."""
    return legal[int(rng.random() * len(legal))]


POLICIES: Final[dict[str, Policy]] = {"random-card": random_card, "random-any": random_any}


def configurations(preset: str | None = None, seats: int | None = None) -> list[tuple[str, int]]:
    """Every (preset, seat count) asked for, in preset order then seats; empty if none match."""
    out: list[tuple[str, int]] = []
    for name, options in PRESETS.items():
        if preset is not None and name != preset:
            continue
        for n in range(options.min_seats, options.max_seats + 1):
            if seats is None or n == seats:
                out.append((name, n))
    return out


def playout(
    game: CrazyEights,
    options: CrazyEightsOptions,
    seats: int,
    seed: int,
    policy: Policy,
    rng: random.Random,
) -> int:
    """Deal a round from ``seed`` and play it to its end; return the number of actions."""
    state = game.new_match(options, seats, seed).state
    actions = 0
    while state.phase <= _ROUND_LIVE:
        seat = state.awaiting()[0]
        state = state.apply(seat, policy(state.legal_actions(seat), rng)).state
        actions += 1
        if actions > MAX_ROUND_ACTIONS:
            raise RuntimeError(f"round of seed {seed} did not end in {MAX_ROUND_ACTIONS} actions")
    return actions


@dataclass
class Split:
    """Seconds spent in each part of a playout (the instrumented pass)."""

    deal: float = 0.0
    legal_actions: float = 0.0
    policy: float = 0.0
    apply: float = 0.0
    total: float = 0.0

    def percentages(self) -> dict[str, float]:
        parts = {
            "deal": self.deal,
            "legal_actions": self.legal_actions,
            "policy": self.policy,
            "apply": self.apply,
        }
        total = self.total or 1.0
        out = {k: round(100.0 * v / total, 1) for k, v in parts.items()}
        out["other"] = round(max(0.0, 100.0 - sum(out.values())), 1)
        return out


def _instrumented_playout(
    game: CrazyEights,
    options: CrazyEightsOptions,
    seats: int,
    seed: int,
    policy: Policy,
    rng: random.Random,
    split: Split,
) -> None:
    clock = time.perf_counter
    t0 = clock()
    state = game.new_match(options, seats, seed).state
    t1 = clock()
    split.deal += t1 - t0
    actions = 0
    while state.phase <= _ROUND_LIVE:
        a = clock()
        seat = state.awaiting()[0]
        legal = state.legal_actions(seat)
        b = clock()
        move = policy(legal, rng)
        c = clock()
        state = state.apply(seat, move).state
        d = clock()
        split.legal_actions += b - a
        split.policy += c - b
        split.apply += d - c
        actions += 1
        if actions > MAX_ROUND_ACTIONS:
            raise RuntimeError(f"round of seed {seed} did not end in {MAX_ROUND_ACTIONS} actions")
    split.total += clock() - t0


@dataclass
class Result:
    """The figures for one configuration."""

    preset: str
    seats: int
    policy: str
    rounds: int
    actions: int
    seconds: float
    longest_round: int
    split: dict[str, float] | None = field(default=None)

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def actions_per_round(self) -> float:
        return self.actions / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "seats": self.seats,
            "policy": self.policy,
            "rounds": self.rounds,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "rounds_per_s": round(self.rounds_per_s, 1),
            "actions_per_s": round(self.actions_per_s, 1),
            "actions_per_round": round(self.actions_per_round, 2),
            "longest_round": self.longest_round,
            "split_percent": self.split,
        }


def measure(
    preset: str,
    seats: int,
    policy_name: str,
    seconds: float,
    seed: int,
    split: bool = True,
) -> Result:
    """Play rounds of ``preset`` at ``seats`` for about ``seconds`` (at least one round)."""
    game = CrazyEights()
    options = PRESETS[preset]
    policy = POLICIES[policy_name]
    rng = random.Random(seed)
    base = (seed & 0xFFFFFFFF) << 32
    clock = time.perf_counter
    rounds = actions = longest = 0
    start = clock()
    deadline = start + seconds
    while True:
        n = playout(game, options, seats, base + rounds, policy, rng)
        rounds += 1
        actions += n
        longest = max(longest, n)
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    percentages: dict[str, float] | None = None
    if split:
        parts = Split()
        stop = clock() + seconds / 4
        i = 0
        while True:
            _instrumented_playout(game, options, seats, base + rounds + i, policy, rng, parts)
            i += 1
            if clock() >= stop:
                break
        percentages = parts.percentages()
    return Result(preset, seats, policy_name, rounds, actions, elapsed, longest, percentages)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``meja bench rules``."""
    parser.add_argument(
        "--json", action="store_true", help="print one JSON document instead of a table"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds of playouts per configuration (default 1.0; the time split adds a quarter)",
    )
    parser.add_argument(
        "--policy",
        choices=sorted(POLICIES),
        default="random-card",
        help="random-card (default): random play, draw only when stuck;"
        " random-any: uniform over all legal actions",
    )
    parser.add_argument("--preset", choices=list(PRESETS), help="only this preset (default: all)")
    parser.add_argument(
        "--seats", type=int, metavar="N", help="only this seat count (default: all)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the deals and the policy (default 1)"
    )
    parser.add_argument(
        "--no-split", action="store_true", help="skip the instrumented time-split pass"
    )


def _environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "processes": 1,
    }


def _print_table(results: Sequence[Result], args: argparse.Namespace) -> None:
    env = _environment()
    print(
        f"meja bench rules: policy {args.policy}, {args.seconds:g} s per configuration,"
        f" one process, {env['implementation']} {env['python']} on {env['machine']}"
    )
    header = (
        f"{'preset':<8}{'seats':>6}{'rounds':>9}{'rounds/s':>11}{'actions/s':>12}{'act/round':>11}"
    )
    if not args.no_split:
        header += "   split % deal/legal/policy/apply/other"
    print(header)
    for r in results:
        line = (
            f"{r.preset:<8}{r.seats:>6}{r.rounds:>9}{r.rounds_per_s:>11,.0f}"
            f"{r.actions_per_s:>12,.0f}{r.actions_per_round:>11.1f}"
        )
        if r.split is not None:
            s = r.split
            line += (
                f"   {s['deal']:.0f}/{s['legal_actions']:.0f}/{s['policy']:.0f}"
                f"/{s['apply']:.0f}/{s['other']:.0f}"
            )
        print(line)
    target = _target(results, args.policy)
    if target is not None:
        verdict = "met" if target["met"] else "not met"
        print(
            f"target: house 2 seats, random-card, >= {target['rounds_per_s']:,.0f} rounds/s:"
            f" {target['measured']:,.0f} ({verdict})"
        )
    print(f"note: {WHY_RANDOM_CARD}")


def _target(results: Sequence[Result], policy: str) -> dict[str, Any] | None:
    preset, seats, rate = TARGET
    for r in results:
        if r.preset == preset and r.seats == seats and policy == "random-card":
            return {
                "preset": preset,
                "seats": seats,
                "policy": "random-card",
                "rounds_per_s": rate,
                "measured": round(r.rounds_per_s, 1),
                "met": r.rounds_per_s >= rate,
            }
    return None


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; print a table (or JSON with ``--json``). Returns the exit status."""
    configs = configurations(args.preset, args.seats)
    if not configs:
        where = f"preset {args.preset!r}" if args.preset else "any preset"
        print(f"meja bench rules: {where} has no {args.seats}-seat table", file=sys.stderr)
        return 2
    if not args.seconds > 0:
        print(
            f"meja bench rules: --seconds must be positive, not {args.seconds!r}", file=sys.stderr
        )
        return 2
    results = [
        measure(preset, seats, args.policy, args.seconds, args.seed, split=not args.no_split)
        for preset, seats in configs
    ]
    if args.json:
        doc = {
            "benchmark": "rules",
            "game": CrazyEights.name,
            "policy": args.policy,
            "seconds_per_configuration": args.seconds,
            "seed": args.seed,
            "environment": _environment(),
            "configurations": [r.to_json() for r in results],
            "target": _target(results, args.policy),
            "note": WHY_RANDOM_CARD,
        }
        print(json.dumps(doc, indent=2))
    else:
        _print_table(results, args)
    return 0
