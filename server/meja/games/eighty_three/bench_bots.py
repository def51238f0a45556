"""``meja bench bots --game eighty_three``: duplicate deals between two partnerships of bots.

Each deal (a deal code: the dealer and the hand's seed) is played twice: with
the candidate pair A in seats 0 and 2 and the other pair B (by default the
frozen ``yardstick``) in seats 1 and 3, then with the pairs swapped. The same
cards reach the same seats both times, so the luck of the cards cancels.
Bots are called exactly as the server calls them:
``bot.choose(state.view(seat), history, decision_rng(state, seat))`` with
``history`` the wire events the seat saw since ``hand_start``; in the discard
and trim phases every awaited seat is asked, in seat order.

**Partnership test** (``--partner NAME``): each pair is then one bot of the
pair's kind and a ``NAME`` partner (``--a hard --b normal --partner yardstick``:
hard and a yardstick against normal and a yardstick). A's bot sits in seat 0
and B's in seat 1, then A's in seat 1 and B's in seat 0, the partners opposite:
the same cards reach the measured bots both times, and the margin says which is
the better partner for the same player.

By default a game is the deal's one hand (``--hands 1``). ``--hands 0`` plays
whole matches to 200: hand 1 is the deal code's, later hands come from a match
seed tied to the deal, so both seatings meet the same later deals too.

Figures for A, per deal first (averaged over its two seatings), then over deals
with a 95% confidence interval (mean +- 1.96 sd/sqrt(deals)):

- **points margin per hand**: A's team hand score minus B's (4.8: the bidders
  all or minus the bid, the defenders what they took);
- **bid success rate**: of the hands A's team won the auction, the share it
  made (and how often it was the bidder); the same for B;
- **match win rate** (with ``--hands 0``): matches A's team won;
- **decision CPU time** (``time.thread_time``) per decision with more than one
  legal action, per pair: mean, p50, p95, p99, max;
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

from meja.bots import measure as measure_
from meja.bots.base import Bot, decision_rng
from meja.bots.measure import mean_ci as _mean_ci
from meja.bots.measure import percentiles as _percentiles
from meja.rules.rng import SEED_BITS, Rng

from .bots import make_bot, names
from .dealcode import DealSpec, encode
from .rules import GAME, READY, EightyThreeState, HandResult, Phase

__all__ = ["DealResult", "Tally", "add_arguments", "deals", "measure", "parse_bot", "play_deal", "play_game", "run"]

SEED_SETS = ("dev", "heldout")
#: Actions after which a hand is a bug (bots take auto_arrange: a hand is about 35 actions).
MAX_ACTIONS_PER_HAND = 2000
#: Hands after which a match is cut short (a match to 200 takes about 6 hands).
MAX_HANDS = 60


def deals(count: int, seed_set: str, start: int = 0) -> list[tuple[str, int]]:
    """Deals ``start .. start+count-1`` of a seed set: ``(deal code, match seed)`` pairs."""
    if seed_set not in SEED_SETS:
        raise ValueError(f"unknown seed set {seed_set!r}; known: {SEED_SETS}")
    out = []
    for i in range(start, start + count):
        rng = Rng(0, f"bench/bots/eighty_three/{seed_set}/{i}")
        dealer, rng = rng.randbelow(4)
        seed, rng = rng.bits(SEED_BITS)
        match_seed, _ = rng.bits(64)
        out.append((encode(DealSpec(dealer, seed)), match_seed))
    return out


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``"hard"`` or ``"hard:<param>=<value>,..."`` -> name and parameters (for tuning)."""
    return measure_.parse_bot(spec, names())


@dataclass
class Tally:
    """Decision times (ns, per pair label) and illegal actions, gathered while playing."""

    times: dict[str, list[int]] = field(default_factory=dict)
    illegal: int = 0


@dataclass
class GameResult:
    """One game: its scored hands, and the winning team (-1: not played to the end)."""

    hands: list[HandResult] = field(default_factory=list)
    winner: int = -1


def play_game(
    state: EightyThreeState,
    events: Sequence[Any],
    bots: Sequence[Bot],
    labels: Sequence[str],
    tally: Tally,
    hands: int = 1,
) -> GameResult:
    """Play from ``state`` (just dealt, with its ``events``) until the match ends or ``hands`` hands are scored.

    A bot with ``sees_state = True`` (a test bot that cheats on purpose) is also
    handed the true state as ``choose(view, history, rng, state=state)``.
    """
    history: list[list[dict[str, Any]]] = [[] for _ in range(4)]
    result = GameResult()

    def deliver(evs: Sequence[Any]) -> None:
        for e in evs:
            if e.kind == "hand_start":
                for h in history:
                    h.clear()
            for s in range(4):
                if e.is_seen_by(s):
                    history[s].append(e.to_wire())

    deliver(events)
    actions = 0
    while True:
        phase = state.phase
        if phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
            assert state.last_hand is not None
            result.hands.append(state.last_hand)
            if phase == Phase.MATCH_OVER:
                result.winner = state.winner
                break
            if (hands and len(result.hands) >= hands) or len(result.hands) >= MAX_HANDS:
                break
            for s in range(4):
                tr = state.apply(s, READY)
                state = tr.state
                deliver(tr.events)
            actions = 0
            continue
        if actions > MAX_ACTIONS_PER_HAND:
            raise AssertionError(f"a hand of more than {MAX_ACTIONS_PER_HAND} actions")
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
    return result


@dataclass
class DealResult:
    """A's figures on one deal, averaged over its two seatings; bid counts summed."""

    margin: float
    match: float
    hands: int
    a_bids: int
    a_made: int
    b_bids: int
    b_made: int


def play_deal(
    code: str, match_seed: int, a: Bot, b: Bot, tally: Tally, hands: int = 1, partner: Bot | None = None
) -> DealResult:
    """Play one deal with pair A in seats 0 and 2, then in seats 1 and 3, against pair B.

    With ``partner``, A and B each hold the team's first seat (0 or 1) and ``partner`` the seat opposite.
    """
    options = GAME.options("standard")
    margins, matches = [], []
    total = a_bids = a_made = b_bids = b_made = 0
    for team_a in (0, 1):
        bots = [a if s % 2 == team_a else b for s in range(4)]
        labels = ["A" if s % 2 == team_a else "B" for s in range(4)]
        if partner is not None:
            for s in (2, 3):
                bots[s], labels[s] = partner, "P"
        tr = GAME.new_match(options, 4, match_seed, deal_code=code)
        res = play_game(tr.state, tr.events, bots, labels, tally, hands)
        m = 0.0
        for h in res.hands:
            m += h.delta[team_a] - h.delta[1 - team_a]
            if h.bidder % 2 == team_a:
                a_bids += 1
                a_made += h.made
            else:
                b_bids += 1
                b_made += h.made
        total += len(res.hands)
        margins.append(m / len(res.hands))
        matches.append(1.0 if res.winner == team_a else 0.5 if res.winner < 0 else 0.0)
    return DealResult(sum(margins) / 2, sum(matches) / 2, total, a_bids, a_made, b_bids, b_made)


def _bids(bids: int, made: int, played: int) -> dict[str, Any]:
    rate = made / bids if bids else None
    return {"bids": bids, "made": made, "rate": rate, "bid_share": bids / played if played else None}


def _make(spec: str) -> Bot:
    name, params = parse_bot(spec)
    return make_bot(name, **params)


def _worker(job: tuple[list[tuple[str, int]], str, str, int, str | None]) -> tuple[list[DealResult], Tally]:
    chunk, a_spec, b_spec, hands, partner_spec = job
    a, b = _make(a_spec), _make(b_spec)
    partner = _make(partner_spec) if partner_spec else None
    tally = Tally()
    return [play_deal(code, ms, a, b, tally, hands, partner) for code, ms in chunk], tally


def measure(
    count: int,
    a_spec: str = "hard",
    b_spec: str = "yardstick",
    seed_set: str = "dev",
    hands: int = 1,
    jobs: int = 1,
    start: int = 0,
    partner: str | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return its figures as plain data (what ``--json`` prints)."""
    parse_bot(a_spec)
    parse_bot(b_spec)
    if partner:
        parse_bot(partner)
    todo = deals(count, seed_set, start)
    t0 = time.perf_counter()
    if jobs > 1:
        size = max(1, math.ceil(len(todo) / (jobs * 4)))
        chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_worker, [(c, a_spec, b_spec, hands, partner) for c in chunks])
    else:
        parts = [_worker((todo, a_spec, b_spec, hands, partner))]
    wall = time.perf_counter() - t0
    results: list[DealResult] = []
    times: dict[str, list[int]] = {}
    illegal = 0
    for res, tally in parts:
        results.extend(res)
        illegal += tally.illegal
        for label, ts in tally.times.items():
            times.setdefault(label, []).extend(ts)
    margin = _mean_ci([r.margin for r in results])
    mean, lo, hi = _mean_ci([r.match for r in results])
    match = (mean, max(0.0, lo), min(1.0, hi))  # a rate: its interval stays within 0-100%
    a_bids = sum(r.a_bids for r in results)
    b_bids = sum(r.b_bids for r in results)
    played = sum(r.hands for r in results)
    return {
        "benchmark": "bots",
        "game": "eighty_three",
        "deals": len(results),
        "seed_set": seed_set,
        "start": start,
        "hands_per_game": hands or "match",
        "a": a_spec,
        "b": b_spec,
        "partner": partner,
        "hands_played": played,
        "points_margin_per_hand": {"mean": margin[0], "ci95": [margin[1], margin[2]]},
        "bid_success": {
            "a": _bids(a_bids, sum(r.a_made for r in results), played),
            "b": _bids(b_bids, sum(r.b_made for r in results), played),
        },
        "match_win_rate": {"mean": match[0], "ci95": [match[1], match[2]]} if not hands else None,
        "decision_cpu_ms": {
            "a": _percentiles(times.get("A", [])),
            "b": _percentiles(times.get("B", [])),
            **({"partner": _percentiles(times.get("P", []))} if partner else {}),
        },
        "illegal_actions": illegal,
        "wall_seconds": wall,
        "command": (
            f"meja bench bots --game eighty_three --deals {count} --a {a_spec} --b {b_spec} --seed-set {seed_set}"
            + (f" --start {start}" if start else "")
            + (f" --hands {hands}" if hands != 1 else "")
            + (f" --partner {partner}" if partner else "")
        ),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals to play (default 100; 2 games each)")
    parser.add_argument(
        "--a", default="hard", help="the pair measured (a level or yardstick; name:key=value,... to tune)"
    )
    parser.add_argument("--b", default="yardstick", help="the pair it plays against (default yardstick)")
    parser.add_argument("--seed-set", default="dev", choices=SEED_SETS, help="dev (tuning) or heldout (reporting)")
    parser.add_argument(
        "--hands", type=int, default=1,
        help="hands per game: 1 (default) the deal's hand only; 0 whole matches to 200 (match win rate)",
    )  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--start", type=int, default=0, help="index of the first deal of the seed set")
    parser.add_argument(
        "--partner", default=None,
        help="partnership test: A and B each partner this bot (e.g. yardstick) instead of their own kind",
    )  # fmt: skip


def _fmt_bids(d: dict[str, Any]) -> str:
    if not d["bids"]:
        return "no bids"
    return f"{100 * d['rate']:.1f}% made of {d['bids']} bids ({100 * d['bid_share']:.1f}% of hands)"


def run(args: argparse.Namespace) -> int:
    try:
        fig = measure(args.deals, args.a, args.b, args.seed_set, args.hands, args.jobs, args.start, args.partner)
    except ValueError as exc:
        print(f"meja bench bots: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(fig, indent=2))
        return 0 if fig["illegal_actions"] == 0 else 1
    m = fig["points_margin_per_hand"]
    games = "whole matches" if fig["hands_per_game"] == "match" else f"{fig['hands_per_game']} hand(s)"
    with_partner = f" (each partnering {fig['partner']})" if fig["partner"] else ""
    print(
        f"{fig['a']} vs {fig['b']}{with_partner}: eighty_three, {fig['deals']} duplicate deals ({fig['seed_set']}),"
        f" {fig['hands_played']} hands, games = {games}"
    )
    print(f"  points margin    {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] per hand")
    print(f"  bid success      {fig['a']}: {_fmt_bids(fig['bid_success']['a'])}")
    print(f"                   {fig['b']}: {_fmt_bids(fig['bid_success']['b'])}")
    if fig["match_win_rate"] is None:
        print("  match win rate   n/a (one hand per game; --hands 0 plays whole matches)")
    else:
        w = fig["match_win_rate"]
        print(f"  match win rate   {100 * w['mean']:.1f}% [{100 * w['ci95'][0]:.1f}, {100 * w['ci95'][1]:.1f}]")
    for key, name in (("a", fig["a"]), ("b", fig["b"]), ("partner", f"{fig['partner']} (partners)")):
        t = fig["decision_cpu_ms"].get(key, {"n": 0})
        if t["n"]:
            print(
                f"  decision CPU ms  {name}: mean {t['mean']:.2f}  p50 {t['p50']:.2f}  p95 {t['p95']:.2f}"
                f"  p99 {t['p99']:.2f}  max {t['max']:.2f}  ({t['n']} decisions)"
            )
    print(f"  illegal actions  {fig['illegal_actions']}")
    print(f"  wall time        {fig['wall_seconds']:.1f} s")
    return 0 if fig["illegal_actions"] == 0 else 1
