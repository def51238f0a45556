"""``meja bench bots``: the duplicate-deal benchmark of docs/bots.md.

Each deal (a deal code, so just a seed) is played once with bot A in every
seat and bot B in the others (2 games a deal at 2 seats, 3 at 3 seats), so the
luck of the cards cancels. Bots are called exactly as the server calls them:
``bot.choose(state.view(seat), history, state.bot_rng(seat).derive(f"decision/{version}"))``
where ``history`` is the wire dicts of the events the seat saw since the round
started.

By default a game is the deal's one round (docs/bots.md: about 1,000 deals at 2
seats and 700 at 3 give +-2 points of share). ``--rounds 0`` plays whole
matches (to 100 points) and ``--rounds N`` N rounds: round 1 is the deal
code's deal, later rounds come from a match seed tied to the deal, so every
seating meets the same later deals too (led by the previous round's winner,
as the rules say). A whole match costs about 7 rounds at 2 seats.

Figures for A, per deal first (averaged over its seatings), then over deals
with a 95% confidence interval (mean +- 1.96 sd/sqrt(deals)):

- **round-win share**: rounds A won / rounds played (fair share 1/seats);
- **penalty margin**: mean penalty of the other seats minus A's, per round;
- **match win rate**: matches A won (co-winners share); with one round per
  game it is the round-win rate, and is printed as such;
- **decision CPU time** (``time.thread_time``) per decision with more than one
  legal action, per bot: mean, p50, p95, p99, max;
- **illegal actions** (must be 0; an illegal action is replaced by the first legal one).

Seed sets: ``dev`` for tuning, ``heldout`` for the published table; deal ``i``
of a set is the same on every machine.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meja.bots import Bot, decision_rng
from meja.bots import measure as measure_
from meja.bots.measure import fmt_pct as _fmt_pct
from meja.bots.measure import mean_ci as _mean_ci
from meja.bots.measure import percentiles as _percentiles
from meja.rules.rng import Rng

from .bots import make_bot, names
from .dealcode import DealSpec, encode
from .rules import GAME, READY, CrazyEightsState, Phase

__all__ = ["DealResult", "add_arguments", "deals", "parse_bot", "play_deal", "play_game", "run"]

SEED_SETS = ("dev", "heldout")
#: Actions after which a round is abandoned as drawn (a round where everyone is
#: stuck with nothing to draw could pass forever; 1.5.4).
MAX_ACTIONS_PER_ROUND = 3000


def deals(preset: str, seats: int, count: int, seed_set: str, start: int = 0) -> list[tuple[str, int]]:
    """Deal ``start .. start+count-1`` of a seed set: ``(deal code, match seed)`` pairs."""
    if seed_set not in SEED_SETS:
        raise ValueError(f"unknown seed set {seed_set!r}; known: {SEED_SETS}")
    out = []
    for i in range(start, start + count):
        rng = Rng(0, f"bench/bots/{seed_set}/{preset}/{seats}/{i}")
        seed, rng = rng.bits(40)
        match_seed, _ = rng.bits(64)
        out.append((encode(DealSpec(preset, seats, 0, seed)), match_seed))
    return out


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``"hard"`` or ``"hard:<param>=<value>,..."`` -> name and parameters (for tuning)."""
    return measure_.parse_bot(spec, names())


@dataclass
class GameResult:
    """One game: per round the winner (-1: abandoned) and penalties; the match winners."""

    rounds: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


@dataclass
class Tally:
    """Decision times (ns, per bot label) and illegal actions, gathered while playing."""

    times: dict[str, list[int]] = field(default_factory=dict)
    illegal: int = 0


def play_game(
    state: CrazyEightsState,
    events: Sequence[Any],
    bots: Sequence[Bot],
    labels: Sequence[str],
    tally: Tally,
    rounds: int = 0,
) -> GameResult:
    """Play from ``state`` (just dealt, with its ``events``) until the match ends or ``rounds`` rounds are done.

    A bot with ``sees_state = True`` (a test yardstick that cheats on purpose)
    is also handed the true state as ``choose(view, history, rng, state=state)``.
    """
    n = state.seats
    history: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    result = GameResult()

    def deliver(evs: Sequence[Any]) -> None:
        for e in evs:
            if e.kind == "round_start":
                for h in history:
                    h.clear()
            for s in range(n):
                if e.is_seen_by(s):
                    history[s].append(e.to_wire())

    deliver(events)
    actions = 0
    while True:
        phase = state.phase
        if phase in (Phase.ROUND_OVER, Phase.MATCH_OVER) or actions > MAX_ACTIONS_PER_ROUND:
            if actions > MAX_ACTIONS_PER_ROUND:
                result.rounds.append((-1, tuple(len(h) for h in state.hands)))
                result.scores = state.scores
                break
            lr = state.last_round
            assert lr is not None
            result.rounds.append((lr.winner, lr.penalties))
            result.scores = state.scores
            if phase == Phase.MATCH_OVER:
                result.winners = state.winners
                break
            if rounds and len(result.rounds) >= rounds:
                break
            for s in range(n):
                tr = state.apply(s, READY)
                state = tr.state
                deliver(tr.events)
            actions = 0
            continue
        seat = state.awaiting()[0]
        view = state.view(seat)
        legal = view.legal
        rng = decision_rng(state, seat)
        bot = bots[seat]
        t0 = time.thread_time_ns()
        if getattr(bot, "sees_state", False):
            move = bot.choose(view, history[seat], rng, state=state)  # type: ignore[call-arg]
        else:
            move = bot.choose(view, history[seat], rng)
        dt = time.thread_time_ns() - t0
        if len(legal) > 1:
            tally.times.setdefault(labels[seat], []).append(dt)
        if move not in legal:
            tally.illegal += 1
            move = legal[0]
        tr = state.apply(seat, move)
        state = tr.state
        deliver(tr.events)
        actions += 1
    if not result.winners:
        best = min(result.scores)
        result.winners = tuple(s for s in range(n) if result.scores[s] == best)
    return result


@dataclass
class DealResult:
    """A's figures on one deal, averaged over its seatings."""

    share: float
    margin: float
    match: float
    rounds: int


def play_deal(
    preset: str,
    seats: int,
    code: str,
    match_seed: int,
    a: Bot,
    b: Bot,
    tally: Tally,
    rounds: int = 0,
) -> DealResult:
    """Play one deal with A rotated through every seat and B in the others."""
    game = GAME
    options = game.options(preset)
    shares, margins, matches = [], [], []
    total_rounds = 0
    for seat_a in range(seats):
        bots = [a if s == seat_a else b for s in range(seats)]
        labels = ["A" if s == seat_a else "B" for s in range(seats)]
        tr = game.new_match(options, seats, match_seed, deal_code=code)
        res = play_game(tr.state, tr.events, bots, labels, tally, rounds)
        won = 0.0
        margin = 0.0
        for winner, pens in res.rounds:
            won += 1.0 if winner == seat_a else (1.0 / seats if winner < 0 else 0.0)
            mine = pens[seat_a]
            margin += (sum(pens) - mine) / (seats - 1) - mine
        k = len(res.rounds)
        total_rounds += k
        shares.append(won / k)
        margins.append(margin / k)
        matches.append(1.0 / len(res.winners) if seat_a in res.winners else 0.0)
    return DealResult(
        share=sum(shares) / seats,
        margin=sum(margins) / seats,
        match=sum(matches) / seats,
        rounds=total_rounds,
    )


def _worker(job: tuple[str, int, list[tuple[str, int]], str, str, int]) -> tuple[list[DealResult], Tally]:
    preset, seats, chunk, a_spec, b_spec, rounds = job
    a_name, a_params = parse_bot(a_spec)
    b_name, b_params = parse_bot(b_spec)
    a = make_bot(a_name, **a_params)
    b = make_bot(b_name, **b_params)
    tally = Tally()
    results = [play_deal(preset, seats, code, ms, a, b, tally, rounds) for code, ms in chunk]
    return results, tally


def measure(
    preset: str,
    seats: int,
    count: int,
    a_spec: str,
    b_spec: str,
    seed_set: str = "dev",
    rounds: int = 0,
    jobs: int = 1,
    start: int = 0,
) -> dict[str, Any]:
    """Run the benchmark and return its figures as plain data (what ``--json`` prints)."""
    parse_bot(a_spec)
    parse_bot(b_spec)
    todo = deals(preset, seats, count, seed_set, start)
    t0 = time.perf_counter()
    if jobs > 1:
        size = max(1, math.ceil(len(todo) / (jobs * 4)))
        chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs) as pool:
            parts = pool.map(_worker, [(preset, seats, c, a_spec, b_spec, rounds) for c in chunks])
    else:
        parts = [_worker((preset, seats, todo, a_spec, b_spec, rounds))]
    wall = time.perf_counter() - t0
    results: list[DealResult] = []
    times: dict[str, list[int]] = {}
    illegal = 0
    for res, tally in parts:
        results.extend(res)
        illegal += tally.illegal
        for label, ts in tally.times.items():
            times.setdefault(label, []).extend(ts)
    share = _mean_ci([r.share for r in results])
    margin = _mean_ci([r.margin for r in results])
    match = _mean_ci([r.match for r in results])
    return {
        "benchmark": "bots",
        "preset": preset,
        "seats": seats,
        "deals": len(results),
        "seed_set": seed_set,
        "rounds_per_game": rounds or "match",
        "a": a_spec,
        "b": b_spec,
        "fair_share": 1.0 / seats,
        "rounds_played": sum(r.rounds for r in results),
        "round_win_share": {"mean": share[0], "ci95": [share[1], share[2]]},
        "penalty_margin": {"mean": margin[0], "ci95": [margin[1], margin[2]]},
        "match_win_rate": {"mean": match[0], "ci95": [match[1], match[2]]},
        "decision_cpu_ms": {
            "a": _percentiles(times.get("A", [])),
            "b": _percentiles(times.get("B", [])),
        },
        "illegal_actions": illegal,
        "wall_seconds": wall,
        "command": (
            f"meja bench bots --preset {preset} --seats {seats} --deals {count} --a {a_spec}"
            f" --b {b_spec} --seed-set {seed_set}" + (f" --rounds {rounds}" if rounds else "")
        ),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--preset", default="house", choices=("house", "classic", "party"))
    parser.add_argument("--seats", type=int, default=2, choices=(2, 3), help="table size (default 2)")
    parser.add_argument("--deals", type=int, default=200, help="deals to play (default 200)")
    parser.add_argument(
        "--a", default="hard", help="the bot measured (a level or yardstick; name:key=value,... to tune)"
    )
    parser.add_argument("--b", default="greedy", help="the bot in the other seats (default greedy)")
    parser.add_argument("--seed-set", default="dev", choices=SEED_SETS, help="dev (tuning) or heldout (reporting)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="rounds per game: 1 (default) the deal's round only, as docs/bots.md; 0 a whole match to 100",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--start", type=int, default=0, help="index of the first deal of the seed set")


def run(args: argparse.Namespace) -> int:
    try:
        fig = measure(
            args.preset,
            args.seats,
            args.deals,
            args.a,
            args.b,
            args.seed_set,
            args.rounds,
            args.jobs,
            args.start,
        )
    except ValueError as exc:
        print(f"meja bench bots: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(fig, indent=2))
        return 0 if fig["illegal_actions"] == 0 else 1
    m = fig["penalty_margin"]
    print(
        f"{fig['a']} vs {fig['b']}: {fig['preset']}, {fig['seats']} seats, {fig['deals']} deals"
        f" ({fig['seed_set']}), {fig['rounds_played']} rounds, games = "
        f"{'whole matches' if fig['rounds_per_game'] == 'match' else str(fig['rounds_per_game']) + ' round(s)'}"
    )
    print(f"  round-win share  {_fmt_pct(fig['round_win_share'])}  (fair {100 * fig['fair_share']:.1f}%)")
    print(f"  penalty margin   {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] points/round")
    if fig["rounds_per_game"] == 1:
        print("  match win rate   n/a (one round per game; --rounds 0 plays whole matches)")
    else:
        print(f"  match win rate   {_fmt_pct(fig['match_win_rate'])}")
    for key, name in (("a", fig["a"]), ("b", fig["b"])):
        t = fig["decision_cpu_ms"][key]
        if t["n"]:
            print(
                f"  decision CPU ms  {name}: mean {t['mean']:.2f}  p50 {t['p50']:.2f}  p95 {t['p95']:.2f}"
                f"  p99 {t['p99']:.2f}  max {t['max']:.2f}  ({t['n']} decisions)"
            )
    print(f"  illegal actions  {fig['illegal_actions']}")
    print(f"  wall time        {fig['wall_seconds']:.1f} s")
    return 0 if fig["illegal_actions"] == 0 else 1
