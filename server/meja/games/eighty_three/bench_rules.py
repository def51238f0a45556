"""``meja bench rules --game eighty_three``: random playouts of the rules engine, in hands and actions per second.

What it measures
----------------
It deals a hand with ``new_match`` and plays it to its end (``hand_over``)
with a random policy, over and over, for ``--seconds`` seconds, in this one
process on one core. It prints hands/s, actions/s and actions per hand. A hand
includes its deal, so hands/s is what a server or a bot trainer gets from the
engine for whole hands; actions/s is ``apply`` throughput including the cost of
``legal_actions`` and the policy's small cost. Where several seats may act (the
discard and trim phases) the acting seat is drawn among them at random.

Then, unless ``--no-split``, a shorter instrumented pass (a quarter of the
time) says where the time goes: dealing, ``legal_actions``, the policy,
``apply`` (measured apart: its clock calls would slow the main figures).

Policies
--------
``random-any`` (the default): uniform over every legal action, the step-by-step
discard decision included (``undo`` too, so its walks wander before they end);
it is the interim bot of every level. ``random-arrange``: uniform, except that
in the discard and trim phases it takes ``auto_arrange``, as a real bot will:
hands of about 30 actions instead of about 57.

The policies use :class:`random.Random` (fast, seeded by ``--seed``): a
benchmark needs to be repeatable on one machine, not across Python versions
(the rules themselves never use :mod:`random`).

What made it fast (the lessons of the Crazy Eights engine): states copy their
instance dict instead of ``dataclasses.replace``; legal actions are cached on
the (immutable) state, because a policy asks and then ``apply`` checks; the
per-trump tables (effective suit, power, points of each card id) are computed
once at import; a discard step's legality depends only on the class of its
card (plain, non-point trump, point trump), so four O(1) feasibility checks
decide a whole step list.
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

from .rules import AUTO, GAME, Action, Phase

__all__ = ["POLICIES", "Policy", "add_arguments", "measure", "playout", "random_any", "random_arrange", "run"]

Policy = Callable[[tuple[Action, ...], random.Random], Action]
"""A policy: ``(legal_actions, rng) -> action``; ``legal_actions`` is sorted and not empty."""

#: A hand past this many actions is a bug (a walk that never ends): random-any hands average about 57.
MAX_HAND_ACTIONS: Final = 100_000
_LIVE: Final = Phase.PLAY  # phases up to this one are a hand in progress


def random_any(legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Uniform over every legal action."""
    return legal[int(rng.random() * len(legal))]


def random_arrange(legal: tuple[Action, ...], rng: random.Random) -> Action:
    """``auto_arrange`` whenever it is legal (the discard and trim phases), else uniform."""
    if legal[0] is AUTO:
        return AUTO
    return legal[int(rng.random() * len(legal))]


POLICIES: Final[dict[str, Policy]] = {"random-any": random_any, "random-arrange": random_arrange}


def playout(seed: int, policy: Policy, rng: random.Random) -> int:
    """Deal a hand from match seed ``seed`` and play it to its end; return the number of actions."""
    state = GAME.new_match("standard", 4, seed).state
    actions = 0
    while state.phase <= _LIVE:
        awaiting = state.awaiting()
        seat = awaiting[0] if len(awaiting) == 1 else awaiting[int(rng.random() * len(awaiting))]
        state = state.apply(seat, policy(state.legal_actions(seat), rng)).state
        actions += 1
        if actions > MAX_HAND_ACTIONS:
            raise RuntimeError(f"the hand of seed {seed} did not end in {MAX_HAND_ACTIONS} actions")
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
        parts = {"deal": self.deal, "legal_actions": self.legal_actions, "policy": self.policy, "apply": self.apply}
        total = self.total or 1.0
        out = {k: round(100.0 * v / total, 1) for k, v in parts.items()}
        out["other"] = round(max(0.0, 100.0 - sum(out.values())), 1)
        return out


def _instrumented_playout(seed: int, policy: Policy, rng: random.Random, split: Split) -> None:
    clock = time.perf_counter
    t0 = clock()
    state = GAME.new_match("standard", 4, seed).state
    split.deal += clock() - t0
    while state.phase <= _LIVE:
        a = clock()
        awaiting = state.awaiting()
        seat = awaiting[0] if len(awaiting) == 1 else awaiting[int(rng.random() * len(awaiting))]
        legal = state.legal_actions(seat)
        b = clock()
        move = policy(legal, rng)
        c = clock()
        state = state.apply(seat, move).state
        d = clock()
        split.legal_actions += b - a
        split.policy += c - b
        split.apply += d - c
    split.total += clock() - t0


@dataclass
class Result:
    policy: str
    hands: int
    actions: int
    seconds: float
    longest_hand: int
    split: dict[str, float] | None = field(default=None)

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def actions_per_hand(self) -> float:
        return self.actions / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": "standard",
            "seats": 4,
            "policy": self.policy,
            "hands": self.hands,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "hands_per_s": round(self.hands_per_s, 1),
            "actions_per_s": round(self.actions_per_s, 1),
            "actions_per_hand": round(self.actions_per_hand, 2),
            "longest_hand": self.longest_hand,
            "split_percent": self.split,
        }


def measure(policy_name: str, seconds: float, seed: int, split: bool = True) -> Result:
    """Play hands for about ``seconds`` (at least one)."""
    policy = POLICIES[policy_name]
    rng = random.Random(seed)
    base = (seed & 0xFFFFFFFF) << 32
    clock = time.perf_counter
    hands = actions = longest = 0
    start = clock()
    deadline = start + seconds
    while True:
        n = playout(base + hands, policy, rng)
        hands += 1
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
            _instrumented_playout(base + hands + i, policy, rng, parts)
            i += 1
            if clock() >= stop:
                break
        percentages = parts.percentages()
    return Result(policy_name, hands, actions, elapsed, longest, percentages)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``meja bench rules --game eighty_three``."""
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
    parser.add_argument(
        "--seconds", type=float, default=1.0, metavar="S", help="seconds of playouts per policy (default 1.0)"
    )
    parser.add_argument(
        "--policy",
        choices=[*sorted(POLICIES), "all"],
        default="all",
        help="random-any: uniform over legal actions; random-arrange: auto_arrange in the discard"
        " and trim phases; all (default): both",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the policy (default 1)")
    parser.add_argument("--no-split", action="store_true", help="skip the instrumented time-split pass")


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
        f"meja bench rules: eighty_three standard, 4 seats, {args.seconds:g} s per policy,"
        f" one process, {env['implementation']} {env['python']} on {env['machine']}"
    )
    header = f"{'policy':<16}{'hands':>8}{'hands/s':>10}{'actions/s':>12}{'act/hand':>10}{'longest':>9}"
    if not args.no_split:
        header += "   split % deal/legal/policy/apply/other"
    print(header)
    for r in results:
        line = (
            f"{r.policy:<16}{r.hands:>8}{r.hands_per_s:>10,.0f}{r.actions_per_s:>12,.0f}"
            f"{r.actions_per_hand:>10.1f}{r.longest_hand:>9}"
        )
        if r.split is not None:
            s = r.split
            line += f"   {s['deal']:.0f}/{s['legal_actions']:.0f}/{s['policy']:.0f}/{s['apply']:.0f}/{s['other']:.0f}"
        print(line)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; print a table (or JSON with ``--json``). Returns the exit status."""
    if not args.seconds > 0:
        print(f"meja bench rules: --seconds must be positive, not {args.seconds!r}", file=sys.stderr)
        return 2
    names = sorted(POLICIES) if args.policy == "all" else [args.policy]
    results = [measure(name, args.seconds, args.seed, split=not args.no_split) for name in names]
    if args.json:
        doc = {
            "benchmark": "rules",
            "game": GAME.name,
            "seconds_per_configuration": args.seconds,
            "seed": args.seed,
            "environment": _environment(),
            "configurations": [r.to_json() for r in results],
        }
        print(json.dumps(doc, indent=2))
    else:
        _print_table(results, args)
    return 0
