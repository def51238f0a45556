"""``meja bench bots [--game NAME]``: the duplicate-deal strength of a game's bots (docs/bots.md 3).

The method
----------
Each deal (a deal code where the game has them, and a match seed) is played
once per seating of the candidate A and the other bot B, so that the luck of
the cards cancels:

- where every seat plays for itself, A sits in each seat in turn and B in the
  others (2 games a deal at 2 seats, 3 at 3...);
- where seats play in teams (``Game.teams``), A's kind holds one team and B's
  the other, then the teams swap; with ``--partner NAME`` (partnership test)
  only each team's first seat is A or B, the seats beside them ``NAME``.

Bots are called exactly as the server calls them:
``bot.choose(state.view(seat), history, decision_rng(state, seat))``, ``history``
being the wire events the seat saw since the game's round-start event. A bot
with ``sees_state = True`` (a test yardstick that cheats on purpose) is also
handed the true state as ``choose(view, history, rng, state=state)``.

Who acts next: the first awaited seat; or, in a game whose bench hooks declare
``pauses`` (a game with out-of-turn actions, where who acts first matters), the
server's own timers on a clock: every seat in ``actors()`` gets a timer keyed by
its epoch, after a thinking pause when awaited and a reflex out of turn (the
server's default settings), a game's ``timed_actions`` after their delay; the
earliest fires, and a bot that says ``None`` out of turn is not asked again
until its epoch changes. The pauses come from a :class:`random.Random` seeded by
the deal and the seating, so a run is repeatable.

By default a game is the deal's one round; ``--rounds 0`` (``--hands`` where the
game's round is a hand) plays whole matches and ``--rounds N`` N rounds: round
1 is the deal code's, later rounds come from the match seed tied to the deal,
so every seating meets the same later deals too. Between rounds every seat
plays its one legal action (ready).

Figures for A, per deal first (averaged over its seatings), then over deals
with a 95% confidence interval (mean +- 1.96 sd/sqrt(deals)), from the
contract's round points (``Game.round_points`` of the round-end event):

- **round-win share**: rounds A's side won (the event's ``winner``, else the
  one best side) / rounds played (fair share 1/sides; an abandoned round counts
  1/sides);
- **margin**: A's round points minus the mean of the other sides', per round
  (where fewer points win, the others' mean minus A's; named by the hooks' ``margin``);
- **match win rate** (games of more than one round): matches A's side won
  (``State.outcome``; co-winners share; a match cut short goes to the leaders);
- **decision CPU time** (``time.thread_time``) per decision with more than one
  legal action, per bot: mean, p50, p95, p99, max;
- **illegal actions** (must be 0; an illegal action on turn is replaced by the
  first legal one, out of turn dropped);
- the game's own columns (its hooks' ``count`` and ``report``).

**Paired comparison** (``--compare A2``): every deal is played a second time
with A2 where A sat, on the same deal codes, seatings and timer pauses (the
pause RNG is seeded by deal and seating; a bot's decision RNG comes from the
state, as on the server), every bot made afresh for each candidate. Besides A's
and A2's own figures, the run gives A - A2 per deal (round-win share, margin,
and match win rate over several rounds) with the 95% interval of those
differences (the same ``mean +- 1.96 sd/sqrt(deals)``): the luck the two share
cancels, so a difference of about a point shows in far fewer deals than two
unpaired runs need (the unpaired interval is printed beside it for scale).
A against itself differs by exactly 0 on every deal.

Seed sets: ``dev`` for tuning, ``heldout`` for the published tables; deal ``i``
of a set is the same on every machine.

What a game adds
----------------
Every registered game gets this benchmark. What a game may add is an object
``BENCH`` in the module its plugin names ``bench_bots`` (``bench_bots.py`` in its
folder), with any of the attributes of :class:`Hooks` (each has a default):
how a seed set's deal ``i`` is made (so a deal is the same on every machine),
the table sizes offered, the default deal count and opponent, the name of its
round, whether whole matches are offered, the timer pauses, the action cap, and
its own columns.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from meja import games
from meja.bots import Bot, decision_rng
from meja.bots.measure import fmt_pct, mean_ci, parse_bot, percentiles
from meja.games.plugin import GamePlugin
from meja.rules.game import Event, round_points
from meja.rules.rng import Rng

from .pergame import game_in

__all__ = [
    "SEED_SETS",
    "WANTS_ARGV",
    "Bench",
    "DealResult",
    "GameResult",
    "Hooks",
    "RoundScore",
    "Tally",
    "add_arguments",
    "mean_ci",
    "paired",
    "run",
]

WANTS_ARGV = True  # meja.cli hands add_arguments the command line (to read --game before parsing)

SEED_SETS: Final = ("dev", "heldout")
#: Rounds after which a game of whole matches is cut short (its leaders win it).
MAX_ROUNDS: Final = 60


class Hooks(Protocol):
    """What a game's ``bench_bots.BENCH`` may declare (every attribute is optional; see :data:`DEFAULTS`).

    - ``deal(seed_set, preset, seats, i) -> (deal code or None, match seed)``: deal ``i`` of a seed set;
    - ``seats``: the table sizes offered (the first is the default);
    - ``deals``: the default number of deals; ``b``: the default other bot;
    - ``unit``: what the game calls a round (``"hand"``: the flag is ``--hands``);
    - ``margin``: the name of the margin figure (its JSON key; default ``points_margin``);
    - ``matches``: whether games of several rounds are offered (``--rounds``);
    - ``pauses``: ``((think_lo, think_hi), (reflex_lo, reflex_hi))`` in ms to play on the
      server's timers (a game with out-of-turn actions), or ``None``: the first awaited seat acts;
    - ``max_actions``: decisions after which a round is abandoned (counted as drawn);
    - ``count(event, sides, counts)``: the game's tallies from every event (``sides[seat]``:
      ``"A"`` or ``"B"``, the seat's side), summed over the run;
    - ``report(counts, fig) -> dict``: the game's columns from the tallies (``fig``: the figures so far);
    - ``lines(fig) -> list[str]``: those columns as lines of the table.
    """

    seats: tuple[int, ...] | None
    deals: int
    b: str | None
    unit: str
    margin: str
    matches: bool
    pauses: tuple[tuple[int, int], tuple[int, int]] | None
    max_actions: int

    def deal(self, seed_set: str, preset: str, seats: int, i: int) -> tuple[str | None, int]: ...

    def count(self, event: Event, sides: Sequence[str], counts: Counter[str]) -> None: ...

    def report(self, counts: Mapping[str, int], fig: Mapping[str, Any]) -> dict[str, Any]: ...

    def lines(self, fig: Mapping[str, Any]) -> list[str]: ...


class _Defaults:
    """The hooks of a game that declares none: one deal per seed (no deal code), every table size."""

    seats = None
    deals = 200
    b = None
    unit = "round"
    margin = "points_margin"
    matches = True
    pauses = None
    max_actions = 3000

    def __init__(self, name: str) -> None:
        self.name = name

    def deal(self, seed_set: str, preset: str, seats: int, i: int) -> tuple[str | None, int]:
        seed, _ = Rng(0, f"bench/bots/{self.name}/{seed_set}/{preset}/{seats}/{i}").bits(64)
        return None, seed

    def count(self, event: Event, sides: Sequence[str], counts: Counter[str]) -> None:
        return None

    def report(self, counts: Mapping[str, int], fig: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def lines(self, fig: Mapping[str, Any]) -> list[str]:
        return []


class _Hooks:
    """A game's declared hooks over the defaults."""

    def __init__(self, plugin: GamePlugin) -> None:
        declared: Any = None
        if plugin.bench_bots is not None:
            declared = getattr(importlib.import_module(plugin.bench_bots), "BENCH", None)
        self._declared = declared
        self._defaults = _Defaults(plugin.name)

    def __getattr__(self, name: str) -> Any:
        if self._declared is not None and hasattr(self._declared, name):
            return getattr(self._declared, name)
        return getattr(self._defaults, name)


@dataclass
class Tally:
    """Decision times (ns, per bot label), illegal actions and the game's counts, gathered while playing."""

    times: dict[str, list[int]] = field(default_factory=dict)
    illegal: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.illegal += other.illegal
        self.counts.update(other.counts)
        for label, ts in other.times.items():
            self.times.setdefault(label, []).extend(ts)


@dataclass(frozen=True)
class RoundScore:
    """One round: the winning side (-1: none, or abandoned), each side's points (more is better),
    and the round-end event's data (``None``: abandoned)."""

    winner: int
    points: tuple[float, ...]
    data: Mapping[str, Any] | None


@dataclass
class GameResult:
    """One game: its rounds, the sides that won the match (the leaders if it was cut short), the last state."""

    rounds: list[RoundScore]
    winners: tuple[int, ...]
    state: Any


@dataclass
class DealResult:
    """A's figures on one deal, averaged over its seatings; rounds played in all."""

    share: float
    margin: float
    match: float
    rounds: int


class Bench:
    """The duplicate-deal benchmark of one registered game."""

    def __init__(self, name: str) -> None:
        self.plugin = games.get(name)
        self.game = self.plugin.game
        self.hooks: Hooks = _Hooks(self.plugin)
        self.teamed = any(len(t) > 1 for t in self.game.teams(self.options(), self.seat_choices()[0]))

    @property
    def name(self) -> str:
        return self.plugin.name

    def options(self, preset: str | None = None) -> Any:
        return self.game.options_from_wire({"preset": preset} if preset else None)

    def seat_choices(self, preset: str | None = None) -> tuple[int, ...]:
        """The table sizes measured: the game's hooks' list, else what the preset seats."""
        if self.hooks.seats is not None:
            return tuple(self.hooks.seats)
        return tuple(self.game.seat_range(self.options(preset)))

    def all_seat_choices(self) -> tuple[int, ...]:
        """Every table size some preset measures (what ``--seats`` accepts)."""
        presets: list[str | None] = [p.name for p in self.game.info.presets] or [None]
        return tuple(sorted({n for p in presets for n in self.seat_choices(p)}))

    def default_b(self) -> str:
        named = self.hooks.b
        return named if named is not None else (self.plugin.yardsticks or self.plugin.levels)[0]

    def make(self, spec: str) -> Bot:
        """``"hard"`` or ``"hard:<param>=<value>,..."``: the bot (``ValueError`` for a name the game has not)."""
        name, params = parse_bot(spec, self.plugin.bot_names())
        return self.plugin.bot(name, **params)

    def deals(
        self, count: int, seed_set: str = "dev", start: int = 0, *, preset: str | None = None, seats: int | None = None
    ) -> list[tuple[str | None, int]]:
        """Deals ``start .. start+count-1`` of a seed set: ``(deal code, match seed)`` pairs."""
        if seed_set not in SEED_SETS:
            raise ValueError(f"unknown seed set {seed_set!r}; known: {SEED_SETS}")
        preset = preset or self.game.info.default_preset
        seats = seats or self.seat_choices(preset)[0]
        return [self.hooks.deal(seed_set, preset, seats, i) for i in range(start, start + count)]

    # ----------------------------------------------------------------------- playing

    def play_game(
        self,
        state: Any,
        events: Sequence[Event],
        bots: Sequence[Bot],
        labels: Sequence[str],
        tally: Tally,
        *,
        rounds: int = 1,
        options: Any = None,
        timing: random.Random | None = None,
        sides: Sequence[str] | None = None,
        watch: Callable[[Sequence[Event]], None] | None = None,
    ) -> GameResult:
        """Play from ``state`` (just dealt with ``options``, with its ``events``) until the match ends or
        ``rounds`` rounds are done (0: the whole match).

        ``labels[seat]`` names the seat's bot in the CPU times, ``sides[seat]`` its side in the game's
        counts (default: the labels); ``timing`` draws the pauses of a game on timers (default: seeded
        by the deal code); ``watch``, if given, is handed every transition's events.
        """
        options = self.options() if options is None else options
        info = self.game.info
        count = self.hooks.count
        n = state.seats
        side_names = labels if sides is None else sides
        history: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        ended: list[Mapping[str, Any]] = []

        def deliver(evs: Sequence[Event]) -> None:
            if watch is not None:
                watch(evs)
            for e in evs:
                if e.kind == info.round_start:
                    for h in history:
                        h.clear()
                for s in range(n):
                    if e.is_seen_by(s):
                        history[s].append(e.to_wire())
                if e.kind == info.round_end:
                    ended.append(e.data)
                count(e, side_names, tally.counts)

        timing = random.Random(str(state.deal_code)) if timing is None else timing
        teams = self.game.teams(options, n)
        side_of = {s: i for i, team in enumerate(teams) for s in team}
        scores: list[RoundScore] = []
        deliver(events)
        while True:
            ended.clear()
            state = self._play_round(state, bots, labels, history, tally, timing, deliver)
            if state.in_round() or not ended:  # abandoned
                scores.append(RoundScore(-1, (0.0,) * len(teams), None))
                break
            score = self._score(options, state.seats, ended[-1], teams, side_of)
            scores.append(score)
            if state.outcome() is not None or (rounds and len(scores) >= rounds) or len(scores) >= MAX_ROUNDS:
                break
            for s in range(n):  # ready: each seat's one legal action between rounds
                if s in state.awaiting():
                    tr = state.apply(s, state.legal_actions(s)[0])
                    state = tr.state
                    deliver(tr.events)
        outcome = state.outcome()
        winners: tuple[int, ...] = ()
        if outcome is not None:
            winners = tuple(outcome.teams) or tuple(dict.fromkeys(side_of[s] for s in outcome.winners))
        elif scores[-1].data is not None:
            totals = [sum(r.points[i] for r in scores) for i in range(len(teams))]
            winners = tuple(i for i, t in enumerate(totals) if t == max(totals))
        return GameResult(scores, winners, state)

    def _score(
        self,
        options: Any,
        seats: int,
        data: Mapping[str, Any],
        teams: Sequence[Sequence[int]],
        side_of: Mapping[int, int],
    ) -> RoundScore:
        """The round of the round-end event ``data`` by the game's round points, per side (more is better)."""
        rp = round_points(self.game, options, seats, data)
        if rp is None:
            return RoundScore(-1, (0.0,) * len(teams), data)
        sign = -1 if rp.lower_wins else 1
        points = tuple(float(sign * rp.points[team[0]]) for team in teams)
        winner = data.get("winner")
        if isinstance(winner, int) and winner in side_of:
            side = side_of[winner]
        else:
            best = [i for i, p in enumerate(points) if p == max(points)]
            side = best[0] if len(best) == 1 else -1
        return RoundScore(side, points, data)

    def _play_round(
        self,
        state: Any,
        bots: Sequence[Bot],
        labels: Sequence[str],
        history: Sequence[list[dict[str, Any]]],
        tally: Tally,
        timing: random.Random,
        deliver: Callable[[Sequence[Event]], None],
    ) -> Any:
        """Play to the end of the round (or ``max_actions`` decisions: abandoned); the state then."""
        pauses = self.hooks.pauses
        limit = self.hooks.max_actions
        clock = 0
        dues: dict[tuple[Any, ...], int] = {}
        declined: set[tuple[Any, ...]] = set()
        fired = 0
        while state.in_round() and fired < limit:
            awaited = state.awaiting()
            key: tuple[Any, ...]
            if pauses is None:  # the first awaited seat acts at once
                if not awaited:
                    break
                key = ("bot", awaited[0])
            else:  # the server's timers: the earliest fires
                keys: dict[tuple[Any, ...], int] = {}
                for s in state.actors():
                    key = ("bot", s, state.epoch(s))
                    if key in declined:
                        continue
                    if key in dues:
                        keys[key] = dues[key]
                    else:
                        lo, hi = pauses[0] if s in awaited else pauses[1]
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
            seat = key[1]
            if key[0] == "auto":
                tr = state.apply(seat, next(t.action for t in state.timed_actions() if t.seat == seat))
                state = tr.state
                deliver(tr.events)
                continue
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
        return state

    def seatings(self, seats: int, partner: bool = False) -> list[tuple[list[str], list[str]]]:
        """Each seating of a deal: the bot label of every seat (``A``, ``B``, ``P`` for a partner) and
        its side (``A`` or ``B``). A rotates through the seats, or A's team through the teams."""
        teams = self.game.teams(self.options(), seats)
        out = []
        for i in range(len(teams)):
            sides = ["A" if s in teams[i] else "B" for s in range(seats)]
            labels = list(sides)
            if partner:
                for team in teams:
                    for s in team[1:]:
                        labels[s] = "P"
            out.append((labels, sides))
        return out

    def play_deal(
        self,
        code: str | None,
        match_seed: int,
        a: Bot,
        b: Bot,
        tally: Tally,
        *,
        preset: str | None = None,
        seats: int | None = None,
        rounds: int = 1,
        partner: Bot | None = None,
    ) -> DealResult:
        """Play one deal in every seating of A and B (see :meth:`seatings`)."""
        options = self.options(preset)
        seats = seats or self.seat_choices(preset)[0]
        bot_of = {"A": a, "B": b, "P": partner}
        shares, margins, matches = [], [], []
        total = 0
        for side_a, (labels, sides) in enumerate(self.seatings(seats, partner is not None)):
            bots: list[Bot] = [bot_of[label] for label in labels]  # type: ignore[misc]
            tr = self.game.new_match(options, seats, match_seed, deal_code=code)
            timing = random.Random(f"{code}/{side_a}")
            res = self.play_game(
                tr.state, tr.events, bots, labels, tally, rounds=rounds, options=options, timing=timing, sides=sides
            )
            n = len(res.rounds[0].points)
            won = 0.0
            margin = 0.0
            for r in res.rounds:
                won += 1.0 if r.winner == side_a else (1.0 / n if r.winner < 0 else 0.0)
                mine = r.points[side_a]
                margin += mine - (sum(r.points) - mine) / (n - 1)
            k = len(res.rounds)
            total += k
            shares.append(won / k)
            margins.append(margin / k)
            w = res.winners
            matches.append((1.0 / len(w) if side_a in w else 0.0) if w else 1.0 / n)
        count = len(shares)
        return DealResult(sum(shares) / count, sum(margins) / count, sum(matches) / count, total)

    # ----------------------------------------------------------------------- the run

    def measure(
        self,
        count: int,
        a_spec: str = "hard",
        b_spec: str | None = None,
        *,
        seed_set: str = "dev",
        preset: str | None = None,
        seats: int | None = None,
        rounds: int = 1,
        partner: str | None = None,
        jobs: int = 1,
        start: int = 0,
        compare: str | None = None,
    ) -> dict[str, Any]:
        """Run the benchmark and return its figures as plain data (what ``--json`` prints).

        With ``compare`` (a bot spec, A2), every deal is also played with A2 where A sat, the same
        seatings, deal codes and timer pauses: the figures then hold ``compare`` (A2's own, as A's)
        and ``paired`` (A - A2 per deal, see :func:`paired`).
        """
        b_spec = b_spec or self.default_b()
        preset = preset or self.game.info.default_preset
        seats = seats or self.seat_choices(preset)[0]
        for spec in (a_spec, b_spec, *([partner] if partner else []), *([compare] if compare else [])):
            self.make(spec)
        if seats not in self.seat_choices(preset):
            raise ValueError(
                f"{self.name} ({preset}) is measured at {list(self.seat_choices(preset))} seats, not {seats}"
            )
        todo = self.deals(count, seed_set, start, preset=preset, seats=seats)
        job = (self.name, preset, seats, a_spec, b_spec, partner, rounds, compare)
        t0 = time.perf_counter()
        if jobs > 1:
            size = max(1, math.ceil(len(todo) / (jobs * 4)))
            chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                parts = pool.map(_worker, [(*job, c) for c in chunks])
        else:
            parts = [_worker((*job, todo))]
        wall = time.perf_counter() - t0
        runs = [_Run([], Tally()) for _ in parts[0]]  # A's, then A2's
        for part in parts:
            for run, (res, tally) in zip(runs, part, strict=True):
                run.results.extend(res)
                run.tally.add(tally)
        unit = self.hooks.unit
        sides = len(self.game.teams(self.options(preset), seats))
        results = runs[0].results
        fig: dict[str, Any] = {
            "benchmark": "bots",
            "game": self.name,
            "preset": preset,
            "seats": seats,
            "deals": len(results),
            "games": len(results) * sides,
            "seed_set": seed_set,
            "start": start,
            f"{unit}s_per_game": rounds or "match",
            "a": a_spec,
            "b": b_spec,
            **({"partner": partner} if self.teamed else {}),
            "fair_share": 1.0 / sides,
            f"{unit}s_played": sum(r.rounds for r in results),
        }
        fig.update(self._figures(runs[0], fig, rounds, partner))
        if compare is not None:
            # (its opponent too: a game's own lines may name both bots)
            mine = {"a": compare, "b": b_spec, f"{unit}s_played": sum(r.rounds for r in runs[1].results)}
            fig["compare"] = mine | self._figures(runs[1], fig | mine, rounds, partner)
            fig["paired"] = paired(results, runs[1].results, self.hooks.margin, matches=rounds != 1)
        fig["wall_seconds"] = wall
        fig["command"] = " ".join(
            [
                f"meja bench bots --game {self.name}",
                *([f"--preset {preset}"] if len(self.game.info.presets) > 1 else []),
                *([f"--seats {seats}"] if len(self.all_seat_choices()) > 1 else []),
                f"--deals {count} --a {a_spec} --b {b_spec} --seed-set {seed_set}",
                *([f"--start {start}"] if start else []),
                *([f"--{unit}s {rounds}"] if rounds != 1 else []),
                *([f"--partner {partner}"] if partner else []),
                *([f"--compare {compare}"] if compare else []),
            ]
        )
        return fig

    def _figures(self, run: _Run, fig: Mapping[str, Any], rounds: int, partner: str | None) -> dict[str, Any]:
        """The figures of one candidate's run (A's, or A2's with ``--compare``) and the game's columns."""
        share = mean_ci([r.share for r in run.results])
        margin = mean_ci([r.margin for r in run.results])
        mean, lo, hi = mean_ci([r.match for r in run.results])
        times = run.tally.times
        out: dict[str, Any] = {
            "round_win_share": {"mean": share[0], "ci95": [share[1], share[2]]},
            self.hooks.margin: {"mean": margin[0], "ci95": [margin[1], margin[2]]},
            # a rate: its interval stays within 0-100%; with one round a game it is the round's
            "match_win_rate": {"mean": mean, "ci95": [max(0.0, lo), min(1.0, hi)]} if rounds != 1 else None,
            "decision_cpu_ms": {
                "a": percentiles(times.get("A", [])),
                "b": percentiles(times.get("B", [])),
                **({"partner": percentiles(times.get("P", []))} if partner else {}),
            },
            "illegal_actions": run.tally.illegal,
        }
        out.update(self.hooks.report(run.tally.counts, {**fig, **out}))
        return out


@dataclass
class _Run:
    """One candidate's deals (in order) and tally, gathered from the workers."""

    results: list[DealResult]
    tally: Tally


def paired(
    a: Sequence[DealResult], a2: Sequence[DealResult], margin: str = "points_margin", *, matches: bool = False
) -> dict[str, Any]:
    """A - A2 on the same deals: per figure, the mean of the per-deal differences with its 95% interval
    (:func:`mean_ci` of those differences), the interval the two runs' own intervals would give unpaired
    (sqrt(se_A^2 + se_A2^2)) for scale, and the per-deal differences themselves; and how many deals A's
    round-win share was ahead of, level with, behind A2's."""
    if len(a) != len(a2):
        raise ValueError(f"paired runs of {len(a)} and {len(a2)} deals")
    figures = {"round_win_share": "share", margin: "margin", **({"match_win_rate": "match"} if matches else {})}
    out: dict[str, Any] = {}
    for key, attr in figures.items():
        xs = [getattr(r, attr) for r in a]
        ys = [getattr(r, attr) for r in a2]
        diffs = [x - y for x, y in zip(xs, ys, strict=True)]
        mean, lo, hi = mean_ci(diffs)
        half = math.hypot(*(h - m for m, _, h in (mean_ci(xs), mean_ci(ys))))
        out[key] = {"mean": mean, "ci95": [lo, hi], "unpaired_ci95": [mean - half, mean + half], "per_deal": diffs}
    shares = out["round_win_share"]["per_deal"]
    out["deals_a_ahead_level_behind"] = [sum(d > 0 for d in shares), shares.count(0.0), sum(d < 0 for d in shares)]
    return out


def _worker(
    job: tuple[str, str, int, str, str, str | None, int, str | None, list[tuple[str | None, int]]],
) -> list[tuple[list[DealResult], Tally]]:
    """A's deals and tally, then (with a compare spec) A2's on the same deals: every bot made afresh for
    each candidate, so that A2 meets B as A did."""
    name, preset, seats, a_spec, b_spec, partner, rounds, compare, chunk = job
    bench = Bench(name)
    out = []
    for spec in (a_spec, *([compare] if compare else [])):
        a, b = bench.make(spec), bench.make(b_spec)
        p = bench.make(partner) if partner else None
        tally = Tally()
        results = [
            bench.play_deal(code, ms, a, b, tally, preset=preset, seats=seats, rounds=rounds, partner=p)
            for code, ms in chunk
        ]
        out.append((results, tally))
    return out


# --------------------------------------------------------------------------- the command


def _bench_of(argv: Sequence[str] | None) -> Bench | None:
    try:
        return Bench(game_in(sys.argv[1:] if argv is None else argv))
    except KeyError:
        return None  # argparse refuses the --game value with the list of games


def add_arguments(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> None:
    """The options of ``meja bench bots``: the same for every game, with the table sizes, presets, round
    name and partner mode of ``--game``."""
    parser.add_argument(
        "--game", default=games.names()[0], choices=games.names(), help="the game (default: %(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench = _bench_of(argv)
    if bench is None:
        return
    hooks = bench.hooks
    presets = [p.name for p in bench.game.info.presets]
    if len(presets) > 1:
        parser.add_argument("--preset", default=presets[0], choices=presets, help="the preset (default %(default)s)")
    seats = bench.all_seat_choices()
    if len(seats) > 1:
        parser.add_argument(
            "--seats", type=int, default=None, choices=seats, metavar="N",
            help=f"table size, {seats[0]}-{seats[-1]} as the preset allows (default: the preset's fewest)",
        )  # fmt: skip
    parser.add_argument("--deals", type=int, default=hooks.deals, help="duplicate deals to play (default %(default)s)")
    parser.add_argument(
        "--a", default="hard", help="the bot measured (a level or yardstick; name:key=value,... to tune)"
    )
    parser.add_argument("--b", default=bench.default_b(), help="the bot it plays against (default %(default)s)")
    parser.add_argument(
        "--compare", default=None, metavar="A2",
        help="also play A2 where A sat on the same deals (same codes, seatings, pauses) and print A - A2"
        " per deal with its paired 95%% interval",
    )  # fmt: skip
    parser.add_argument("--seed-set", default="dev", choices=SEED_SETS, help="dev (tuning) or heldout (reporting)")
    unit = hooks.unit
    if hooks.matches:
        parser.add_argument(
            f"--{unit}s", dest="rounds", type=int, default=1,
            help=f"{unit}s per game: 1 (default) the deal's {unit} only, as docs/bots.md; 0 whole matches",
        )  # fmt: skip
    if bench.teamed:
        parser.add_argument(
            "--partner", default=None,
            help="partnership test: A and B each partner this bot (e.g. yardstick) instead of their own kind",
        )  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--start", type=int, default=0, help="index of the first deal of the seed set")


def run(args: argparse.Namespace) -> int:
    bench = Bench(args.game)
    try:
        fig = bench.measure(
            args.deals,
            args.a,
            args.b,
            seed_set=args.seed_set,
            preset=getattr(args, "preset", None),
            seats=getattr(args, "seats", None),
            rounds=getattr(args, "rounds", 1),
            partner=getattr(args, "partner", None),
            jobs=args.jobs,
            start=args.start,
            compare=args.compare,
        )
    except ValueError as exc:
        print(f"meja bench bots: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(fig, indent=2))
    else:
        _print(bench, fig)
    illegal = fig["illegal_actions"] + (fig["compare"]["illegal_actions"] if "compare" in fig else 0)
    return 0 if illegal == 0 else 1


def _print(bench: Bench, fig: Mapping[str, Any]) -> None:
    unit = bench.hooks.unit
    per_game = fig[f"{unit}s_per_game"]
    games_are = "whole matches" if per_game == "match" else f"{per_game} {unit}(s)"
    partner = fig.get("partner")
    with_partner = f" (each partnering {partner})" if partner else ""
    print(
        f"{fig['a']} vs {fig['b']}{with_partner}: {fig['game']}, {fig['preset']}, {fig['seats']} seats,"
        f" {fig['deals']} deals ({fig['seed_set']}), {fig[f'{unit}s_played']} {unit}s, games = {games_are}"
    )
    _print_run(bench, fig, fig)
    a2 = fig.get("compare")
    if a2 is not None:
        print(f"{a2['a']} vs {fig['b']}{with_partner}: the same deals, {a2[f'{unit}s_played']} {unit}s")
        _print_run(bench, fig, a2)
        _print_paired(bench, fig)
    print(f"  wall time        {fig['wall_seconds']:.1f} s")


def _print_run(bench: Bench, fig: Mapping[str, Any], run: Mapping[str, Any]) -> None:
    """One candidate's lines (``run``: ``fig`` itself for A, ``fig["compare"]`` for A2)."""
    unit = bench.hooks.unit
    print(f"  round-win share  {fmt_pct(run['round_win_share'])}  (fair {100 * fig['fair_share']:.1f}%)")
    key = bench.hooks.margin
    m = run[key]
    name = key.split("_per_")[0].replace("_", " ")
    print(f"  {name:<16} {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] points/{unit}")
    for line in bench.hooks.lines(run):
        print(f"  {line}")
    if run["match_win_rate"] is None:
        if bench.hooks.matches:
            print(f"  match win rate   n/a (one {unit} per game; --{unit}s 0 plays whole matches)")
    else:
        print(f"  match win rate   {fmt_pct(run['match_win_rate'])}")
    partner = fig.get("partner")
    for label, name in (("a", run["a"]), ("b", fig["b"]), ("partner", f"{partner} (partners)")):
        t = run["decision_cpu_ms"].get(label, {"n": 0})
        if t["n"] and (run is fig or label == "a"):
            print(
                f"  decision CPU ms  {name}: mean {t['mean']:.2f}  p50 {t['p50']:.2f}  p95 {t['p95']:.2f}"
                f"  p99 {t['p99']:.2f}  max {t['max']:.2f}  ({t['n']} decisions)"
            )
    print(f"  illegal actions  {run['illegal_actions']}")


def _print_paired(bench: Bench, fig: Mapping[str, Any]) -> None:
    """A - A2 per deal, with the paired interval and, for scale, the unpaired one."""
    pair = fig["paired"]
    unit = bench.hooks.unit
    print(f"{fig['a']} - {fig['compare']['a']}, paired per deal ({fig['deals']} deals):")
    key = bench.hooks.margin
    rows = [
        ("round-win share", "round_win_share", 100.0, ".1f", "pts"),
        (key.split("_per_")[0].replace("_", " "), key, 1.0, ".2f", ""),
    ]
    if "match_win_rate" in pair:
        rows.append(("match win rate", "match_win_rate", 100.0, ".1f", "pts"))
    for title, key, scale, f, pts in rows:
        d = pair[key]
        mean, (lo, hi), (ulo, uhi) = d["mean"], d["ci95"], d["unpaired_ci95"]
        what = pts or f"points/{unit}"
        print(
            f"  {title:<16} {scale * mean:+{f}} [{scale * lo:+{f}}, {scale * hi:+{f}}] {what}"
            f"  (unpaired it would be [{scale * ulo:+{f}}, {scale * uhi:+{f}}])"
        )
    ahead, level, behind = pair["deals_a_ahead_level_behind"]
    print(f"  deals by share   {fig['a']} ahead {ahead}, level {level}, behind {behind}")
