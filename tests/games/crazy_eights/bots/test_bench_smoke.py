"""A CI-sized run of ``meja bench bots``: no illegal action, and coarse floors that a broken bot misses.

The floors are far below the measured figures (see :mod:`meja.bots`) so that
they hold on any deal sample of this size; what they catch is a bot that plays
at random, gives away its 8s, or cannot finish a round. Costs about a minute.
"""

from __future__ import annotations

import json

import pytest
from meja.bench.bots import Bench
from meja.cli import main

BENCH = Bench("crazy_eights")


@pytest.mark.parametrize(
    ("a", "b", "seats", "count", "floor"),
    [
        ("greedy", "random-any", 2, 60, 0.75),
        ("normal", "easy", 2, 80, 0.5),
        ("easy", "random-any", 3, 40, 0.55),
        ("hard:work=8000", "random-card", 2, 30, 0.5),
        ("hard:work=8000", "greedy", 3, 20, 0.25),
    ],
)
def test_smoke_floors(a: str, b: str, seats: int, count: int, floor: float) -> None:
    fig = BENCH.measure(count, a, b, preset="house", seats=seats, start=20000)
    assert fig["illegal_actions"] == 0
    assert fig["deals"] == count
    assert fig["rounds_played"] == count * seats
    assert fig["round_win_share"]["mean"] > floor
    assert fig["decision_cpu_ms"]["a"]["n"] > 0


@pytest.mark.parametrize("preset", ["classic", "party"])
def test_presets_run(preset: str) -> None:
    fig = BENCH.measure(8, "hard:work=4000", "easy", preset=preset, seats=3)
    assert fig["illegal_actions"] == 0
    assert fig["rounds_played"] == 24


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "bots", "--json", "--deals", "3", "--a", "hard:work=3000", "--seed-set", "heldout"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["illegal_actions"] == 0
    assert out["seed_set"] == "heldout" and out["deals"] == 3
    lo, hi = out["round_win_share"]["ci95"]
    assert lo <= out["round_win_share"]["mean"] <= hi
    assert set(out["decision_cpu_ms"]["a"]) >= {"mean", "p50", "p95", "p99", "max"}


def test_the_command_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--deals", "2", "--a", "easy", "--b", "greedy", "--seats", "3"]) == 0
    out = capsys.readouterr().out
    assert "round-win share" in out and "penalty margin" in out and "illegal actions  0" in out


def test_seed_sets_are_fixed_and_disjoint() -> None:
    dev = BENCH.deals(50, "dev")
    assert dev == BENCH.deals(50, "dev", preset="house", seats=2)
    assert not {c for c, _ in dev} & {c for c, _ in BENCH.deals(50, "heldout")}
    with pytest.raises(ValueError, match="seed set"):
        BENCH.deals(1, "test")
