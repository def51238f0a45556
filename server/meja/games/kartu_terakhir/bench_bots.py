"""``meja bench bots --game kartu_terakhir``: the duplicate-deal benchmark of docs/bots.md.

Each deal (a deal code: seats, dealer, seed) is played once with bot A in every
seat and bot B in the others (2 games a deal at 2 seats, 4 at 4, 6 at 6), so the
luck of the cards cancels. A game is the deal's one round (the default
``round`` match, docs/rules/kartu-terakhir.md 3.8.1). Bots are called exactly as the server
calls them: ``bot.choose(state.view(seat), history, decision_rng(state, seat))``,
``history`` being the wire dicts of the events the seat saw since the round began.

**Time, as on a server.** Kartu Terakhir has out-of-turn actions (a catch, a
call after playing: 3.6), so who acts first matters. The benchmark keeps a clock
and the server's timers (:func:`meja.server.tables.plan` with the default
settings): every seat in ``actors()`` gets a timer keyed by its epoch, a seat the
game awaits after a thinking pause of 600-1200 ms, a seat out of turn after a
reflex of 400-1500 ms (3.6.2), a Draw Two's timed penalty after ``reaction_ms``
from the version that listed it; the earliest timer fires; a bot that says
``None`` ("not now") is not asked again until its epoch changes. The pauses come
from a :class:`random.Random` seeded by the deal and the seating, so a run is
repeatable.

Figures for A, per deal first (averaged over its seatings), then over deals with
a 95% confidence interval (mean +- 1.96 sd/sqrt(deals)):

- **round-win share**: games A won / games (fair share 1/seats);
- **points margin**: the points A scored minus the mean of the others', per round
  (only the round's winner scores, 3.8.2);
- **decision CPU time** (``time.thread_time``) per decision with more than one
  legal action, per bot: mean, p50, p95, p99, max;
- **illegal actions** (must be 0; an illegal action on turn is replaced by the
  first legal one, out of turn dropped);
- A's catches made, and times A was caught (a missed call).

Seed sets: ``dev`` for tuning, ``heldout`` for the published table; deal ``i`` of a
set is the same on every machine.

The held-out figures (and the tuning that led to them) are published in the README
(Bots, Kartu Terakhir), the one place they are kept. ``normal`` plays as ``greedy``,
so "normal vs greedy" is even by construction. Reproduce a line with, e.g.::

    meja bench bots --game kartu_terakhir --a hard --b greedy --seats 2 --deals 400 --seed-set heldout --jobs 2
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from meja.bots import Bot, decision_rng
from meja.bots import measure as measure_
from meja.bots.measure import fmt_pct as _fmt_pct
from meja.bots.measure import mean_ci as _mean_ci
from meja.bots.measure import percentiles as _percentiles
from meja.rules.game import Event
from meja.rules.rng import Rng

from .bots import make_bot, names
from .dealcode import DealSpec, encode
from .rules import GAME, KartuTerakhirState

__all__ = ["DealResult", "Tally", "add_arguments", "deals", "measure", "parse_bot", "play_deal", "play_game", "run"]

SEED_SETS: Final = ("dev", "heldout")
SEATS: Final = (2, 4, 6)
#: Timers fired after which a game is abandoned (a round of drawing by choice could go on and on).
MAX_EVENTS: Final = 20000
#: The server's default pauses (meja.server.settings): thinking, and an out-of-turn reflex (3.6.2).
THINK_MS: Final = (600, 1200)
REFLEX_MS: Final = (400, 1500)


def deals(seats: int, count: int, seed_set: str, start: int = 0) -> list[str]:
    """Deal codes ``start .. start+count-1`` of a seed set."""
    if seed_set not in SEED_SETS:
        raise ValueError(f"unknown seed set {seed_set!r}; known: {SEED_SETS}")
    out = []
    for i in range(start, start + count):
        rng = Rng(0, f"bench/bots/kartu_terakhir/{seed_set}/{seats}/{i}")
        dealer, rng = rng.randbelow(seats)
        seed, _ = rng.bits(64)
        out.append(encode(DealSpec(seats, dealer, seed)))
    return out


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``"hard"`` or ``"hard:<param>=<value>,..."`` -> name and parameters (for tuning)."""
    return measure_.parse_bot(spec, names())


@dataclass
class Tally:
    """Decision times (ns, per bot label), illegal actions and A's catches, gathered while playing."""

    times: dict[str, list[int]] = field(default_factory=dict)
    illegal: int = 0
    catches: dict[str, int] = field(default_factory=dict)
    caught: dict[str, int] = field(default_factory=dict)


@dataclass
class GameResult:
    """One game: the winner (-1: abandoned) and the points it scored."""

    winner: int
    points: int


def play_game(
    state: KartuTerakhirState,
    events: Sequence[Any],
    bots: Sequence[Bot],
    labels: Sequence[str],
    tally: Tally,
    timing: random.Random,
    watch: Callable[[Sequence[Event]], None] | None = None,
) -> GameResult:
    """Play from ``state`` (just dealt, with its ``events``) to the end of the round, on the server's timers.

    A bot with ``sees_state = True`` (a test yardstick that cheats on purpose) is
    also handed the true state: ``choose(view, history, rng, state=state)``. ``watch``, if given, is
    handed every transition's events (``meja demo`` narrates them).
    """
    n = state.seats
    history: list[list[dict[str, Any]]] = [[] for _ in range(n)]

    def deliver(evs: Sequence[Any]) -> None:
        if watch is not None:
            watch(evs)
        for e in evs:
            for s in range(n):
                if e.is_seen_by(s):
                    history[s].append(e.to_wire())
            if e.kind == "catch":
                catcher, target = e.data["seat"], e.data["target"]
                tally.catches[labels[catcher]] = tally.catches.get(labels[catcher], 0) + 1
                tally.caught[labels[target]] = tally.caught.get(labels[target], 0) + 1

    deliver(events)
    clock = 0
    dues: dict[tuple[Any, ...], int] = {}
    declined: set[tuple[Any, ...]] = set()
    fired = 0
    while state.in_round() and fired < MAX_EVENTS:
        awaited = state.awaiting()
        keys: dict[tuple[Any, ...], int] = {}
        for s in state.actors():
            key: tuple[Any, ...] = ("bot", s, state.epoch(s))
            if key in declined:
                continue
            if key in dues:
                keys[key] = dues[key]
            else:
                lo, hi = THINK_MS if s in awaited else REFLEX_MS
                keys[key] = clock + timing.randint(lo, hi)
        for t in state.timed_actions():
            key = ("auto", t.seat, t.since, int(t.action))
            keys[key] = dues.get(key, clock + t.delay_ms)
        dues = keys
        if not dues:
            break
        key = min(dues, key=lambda k: (dues[k], k[0] != "auto", k[1]))
        clock = max(clock, dues.pop(key))
        fired += 1
        if key[0] == "auto":
            tr = state.apply(key[1], next(t.action for t in state.timed_actions() if t.seat == key[1]))
            state = tr.state
            deliver(tr.events)
            continue
        seat = key[1]
        view = state.view(seat)
        legal = view.legal
        rng = decision_rng(state, seat)
        bot = bots[seat]
        t0 = time.thread_time_ns()
        if getattr(bot, "sees_state", False):
            move = bot.choose(view, history[seat], rng, state=state)
        else:
            move = bot.choose(view, history[seat], rng)
        dt = time.thread_time_ns() - t0
        if len(legal) > 1:
            tally.times.setdefault(labels[seat], []).append(dt)
        if move is None and seat not in awaited:
            declined.add(key)
            continue
        if move not in legal:
            tally.illegal += 1
            if seat not in awaited or not legal:
                declined.add(key)
                continue
            move = legal[0]
        tr = state.apply(seat, move)
        state = tr.state
        deliver(tr.events)
    lr = state.last_round
    if state.in_round() or lr is None:
        return GameResult(-1, 0)
    return GameResult(lr.winner, lr.points)


@dataclass
class DealResult:
    """A's figures on one deal, averaged over its seatings."""

    share: float
    margin: float


def play_deal(seats: int, code: str, a: Bot, b: Bot, tally: Tally) -> DealResult:
    """Play one deal with A rotated through every seat and B in the others."""
    game = GAME
    options = game.options()
    shares, margins = [], []
    for seat_a in range(seats):
        bots = [a if s == seat_a else b for s in range(seats)]
        labels = ["A" if s == seat_a else "B" for s in range(seats)]
        tr = game.new_match(options, seats, 0, deal_code=code)
        timing = random.Random(f"{code}/{seat_a}")
        res = play_game(tr.state, tr.events, bots, labels, tally, timing)
        if res.winner < 0:
            shares.append(1.0 / seats)
            margins.append(0.0)
            continue
        won = res.winner == seat_a
        shares.append(1.0 if won else 0.0)
        mine = res.points if won else 0
        others = (0 if won else res.points) / (seats - 1)
        margins.append(mine - others)
    return DealResult(share=sum(shares) / seats, margin=sum(margins) / seats)


def _worker(job: tuple[int, list[str], str, str]) -> tuple[list[DealResult], Tally]:
    seats, chunk, a_spec, b_spec = job
    a_name, a_params = parse_bot(a_spec)
    b_name, b_params = parse_bot(b_spec)
    a = make_bot(a_name, **a_params)
    b = make_bot(b_name, **b_params)
    tally = Tally()
    return [play_deal(seats, code, a, b, tally) for code in chunk], tally


def measure(
    seats: int, count: int, a_spec: str, b_spec: str, seed_set: str = "dev", jobs: int = 1, start: int = 0
) -> dict[str, Any]:
    """Run the benchmark and return its figures as plain data (what ``--json`` prints)."""
    parse_bot(a_spec)
    parse_bot(b_spec)
    if not 2 <= seats <= 10:
        raise ValueError(f"Kartu Terakhir is for 2-10 seats, not {seats}")
    todo = deals(seats, count, seed_set, start)
    t0 = time.perf_counter()
    if jobs > 1:
        size = max(1, math.ceil(len(todo) / (jobs * 4)))
        chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs) as pool:
            parts = pool.map(_worker, [(seats, c, a_spec, b_spec) for c in chunks])
    else:
        parts = [_worker((seats, todo, a_spec, b_spec))]
    wall = time.perf_counter() - t0
    results: list[DealResult] = []
    times: dict[str, list[int]] = {}
    illegal = 0
    catches: dict[str, int] = {}
    caught: dict[str, int] = {}
    for res, tally in parts:
        results.extend(res)
        illegal += tally.illegal
        for label, ts in tally.times.items():
            times.setdefault(label, []).extend(ts)
        for src, dst in ((tally.catches, catches), (tally.caught, caught)):
            for label, k in src.items():
                dst[label] = dst.get(label, 0) + k
    share = _mean_ci([r.share for r in results])
    margin = _mean_ci([r.margin for r in results])
    games = len(results) * seats
    return {
        "benchmark": "bots",
        "game": "kartu_terakhir",
        "seats": seats,
        "deals": len(results),
        "games": games,
        "seed_set": seed_set,
        "start": start,
        "a": a_spec,
        "b": b_spec,
        "fair_share": 1.0 / seats,
        "round_win_share": {"mean": share[0], "ci95": [share[1], share[2]]},
        "points_margin": {"mean": margin[0], "ci95": [margin[1], margin[2]]},
        "decision_cpu_ms": {"a": _percentiles(times.get("A", [])), "b": _percentiles(times.get("B", []))},
        "illegal_actions": illegal,
        "a_catches_per_game": catches.get("A", 0) / games if games else 0.0,
        "a_caught_per_game": caught.get("A", 0) / games if games else 0.0,
        "wall_seconds": wall,
        "command": (
            f"meja bench bots --game kartu_terakhir --seats {seats} --deals {count} --a {a_spec} --b {b_spec}"
            f" --seed-set {seed_set}" + (f" --start {start}" if start else "")
        ),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--seats", type=int, default=2, help="table size, 2-10 (default 2; the table reports 2, 4, 6)")
    parser.add_argument("--deals", type=int, default=200, help="deals to play (default 200)")
    parser.add_argument(
        "--a", default="hard", help="the bot measured (a level or yardstick; name:key=value,... to tune)"
    )
    parser.add_argument("--b", default="greedy", help="the bot in the other seats (default greedy)")
    parser.add_argument(
        "--seed-set", default="dev", choices=SEED_SETS, help="dev (for tuning) or heldout (for reporting)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--start", type=int, default=0, help="index of the first deal of the seed set")


def run(args: argparse.Namespace) -> int:
    try:
        fig = measure(args.seats, args.deals, args.a, args.b, args.seed_set, args.jobs, args.start)
    except ValueError as exc:
        print(f"meja bench bots: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(fig, indent=2))
        return 0 if fig["illegal_actions"] == 0 else 1
    m = fig["points_margin"]
    print(
        f"{fig['a']} vs {fig['b']}: kartu_terakhir, {fig['seats']} seats, {fig['deals']} deals"
        f" ({fig['seed_set']}), {fig['games']} games of one round"
    )
    print(f"  round-win share  {_fmt_pct(fig['round_win_share'])}  (fair {100 * fig['fair_share']:.1f}%)")
    print(f"  points margin    {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] points/round")
    for key, name in (("a", fig["a"]), ("b", fig["b"])):
        t = fig["decision_cpu_ms"][key]
        if t["n"]:
            print(
                f"  decision CPU ms  {name}: mean {t['mean']:.2f}  p50 {t['p50']:.2f}  p95 {t['p95']:.2f}"
                f"  p99 {t['p99']:.2f}  max {t['max']:.2f}  ({t['n']} decisions)"
            )
    print(f"  A catches/game   {fig['a_catches_per_game']:.3f}   A caught/game {fig['a_caught_per_game']:.3f}")
    print(f"  illegal actions  {fig['illegal_actions']}")
    print(f"  wall time        {fig['wall_seconds']:.1f} s")
    return 0 if fig["illegal_actions"] == 0 else 1
