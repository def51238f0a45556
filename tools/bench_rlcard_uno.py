#!/usr/bin/env python3
"""Random legal playouts of RLCard's UNO, in games/s and actions/s: the yardstick for Kartu Terakhir's engine.

Standalone: it imports ``rlcard`` and nothing of Meja, and rlcard is never a
dependency of the project. Run it from a scratch virtual environment::

    python3 -m venv /tmp/rlcard-venv
    /tmp/rlcard-venv/bin/pip install rlcard==1.2 numpy
    /tmp/rlcard-venv/bin/python tools/bench_rlcard_uno.py --players 2 4 --seconds 5 [--json]

and compare with ``meja bench rules --game kartu_terakhir`` run in the same
sitting, on the same core.

What it measures, for each player count, on one core, for ``--seconds``:

- ``game`` (the default, and the fair comparison with a rules engine): RLCard's
  game object, ``rlcard.games.uno.game.UnoGame``: ``init_game()`` deals, then
  ``step(action)`` with an action drawn uniformly from the current state's
  ``legal_actions`` until ``is_over()``. Each ``step`` returns the next player's
  state (hand, target, legal actions, counts), so it does about what Meja's
  ``apply`` plus ``legal_actions`` do. RLCard's rules are simpler than Kartu
  Terakhir's: ``draw`` is offered only when nothing else is, a drawn card that can
  be played is played at once within the same step, there are no challenges,
  calls, catches, stacking or scores.
- ``env``: the reinforcement-learning environment, ``rlcard.make("uno")``, with
  ``env.step(action_id)`` on a uniformly random legal action id: the game plus the
  numpy observation encoding an agent trains on.
- ``run``: RLCard's own random-play loop, as its ``examples/run_random.py`` runs it:
  ``env.run(is_training=False)`` with a ``rlcard.agents.RandomAgent`` in every seat
  (numpy's choice, the agents' probabilities, the trajectories).

Measured on the shared 2-core machine of this project (CPython 3.11), the three
levels differ by about five times (roughly 170,000, 70,000 and 30,000 actions a
second at 2 players), so say which one a figure is.

A "game" includes its deal. actions/s is wall-clock; act/cpu-s divides by this
process's CPU time (less disturbed by other work on a shared machine), as
``meja bench rules --game kartu_terakhir`` also prints. The random choice uses :class:`random.Random`
seeded by ``--seed`` (RLCard's own shuffles use its numpy RandomState, seeded
the same way), so runs are repeatable on one machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any


def _game_playout(game: Any, rnd: random.Random) -> int:
    state, _ = game.init_game()
    actions = 0
    while not game.is_over():
        legal = state["legal_actions"]
        state, _ = game.step(legal[int(rnd.random() * len(legal))])
        actions += 1
    return actions


def _env_playout(env: Any, rnd: random.Random) -> int:
    state, _ = env.reset()
    actions = 0
    while not env.is_over():
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[int(rnd.random() * len(legal))])
        actions += 1
    return actions


def measure(players: int, seconds: float, level: str, seed: int) -> dict[str, Any]:
    import numpy as np

    rnd = random.Random(seed)
    if level == "game":
        from rlcard.games.uno.game import UnoGame

        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed)

        def playout() -> int:
            return _game_playout(game, rnd)
    elif level == "env":
        import rlcard

        env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})

        def playout() -> int:
            return _env_playout(env, rnd)
    else:
        import rlcard
        from rlcard.agents import RandomAgent

        np.random.seed(seed)
        env = rlcard.make("uno", config={"game_num_players": players, "seed": seed})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])
        steps = [0]
        step = env.step

        def counted(action: Any, raw_action: bool = False) -> Any:
            steps[0] += 1
            return step(action, raw_action)

        env.step = counted  # count the actions of env.run without changing what it does

        def playout() -> int:
            before = steps[0]
            env.run(is_training=False)
            return steps[0] - before

    clock = time.perf_counter
    games = actions = longest = 0
    start = clock()
    cpu_start = time.process_time()
    deadline = start + seconds
    while True:
        n = playout()
        games += 1
        actions += n
        longest = max(longest, n)
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    cpu = time.process_time() - cpu_start
    return {
        "players": players,
        "level": level,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "cpu_seconds": round(cpu, 4),
        "actions_per_cpu_s": round(actions / cpu, 1) if cpu else 0.0,
        "actions_per_game": round(actions / games, 2),
        "longest_game": longest,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts (default: 2 4)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per player count (default 5)")
    parser.add_argument(
        "--level", choices=("game", "env", "run", "all"), default="game", help="what to drive (default: game)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the random choices (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a table")
    args = parser.parse_args(argv)
    try:
        import rlcard
    except ImportError:
        print("bench_rlcard_uno: rlcard is not installed here (pip install rlcard==1.2 numpy)", file=sys.stderr)
        return 2
    levels = ("game", "env", "run") if args.level == "all" else (args.level,)
    results = [measure(p, args.seconds, level, args.seed) for level in levels for p in args.players]
    env = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "rlcard": getattr(rlcard, "__version__", "?"),
        "processes": 1,
    }
    if args.json:
        doc = {"benchmark": "rlcard-uno", "seconds_per_configuration": args.seconds, "seed": args.seed,
               "environment": env, "configurations": results}
        print(json.dumps(doc, indent=2))
        return 0
    print(
        f"rlcard {env['rlcard']} UNO, random legal actions, {args.seconds:g} s per configuration, one process,"
        f" {env['implementation']} {env['python']} on {env['machine']}"
    )
    print(f"{'level':<6}{'players':>8}{'games':>8}{'games/s':>10}{'actions/s':>12}{'act/cpu-s':>12}{'act/game':>10}")
    for r in results:
        print(
            f"{r['level']:<6}{r['players']:>8}{r['games']:>8}{r['games_per_s']:>10,.0f}"
            f"{r['actions_per_s']:>12,.0f}{r['actions_per_cpu_s']:>12,.0f}{r['actions_per_game']:>10.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
