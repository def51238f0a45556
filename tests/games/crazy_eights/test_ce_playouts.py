"""Smoke tests of ``meja bench rules``: the command runs, prints valid JSON, and counts honestly.

They run for a fraction of a second: the figures themselves are not asserted
(speed depends on the machine; the benchmark prints it), only that they are
consistent with what was played.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from meja.games.crazy_eights import bench_rules as bench
from meja.cli import main
from meja.rules import get_game
from meja.games.crazy_eights.rules import DRAW, PASS, READY, Move

ROOT = Path(__file__).resolve().parents[2]


def test_json_output_for_one_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "rules", "--json", "--seconds", "0.05", "--preset", "house", "--seats", "2"]
    status = main(args)
    assert status == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["benchmark"] == "rules"
    assert doc["policy"] == "random-card"
    assert "random-any" in doc["note"]
    [config] = doc["configurations"]
    assert (config["preset"], config["seats"]) == ("house", 2)
    assert config["rounds"] >= 1
    # every round has at least one action (a seat must empty its 7-card hand)
    assert config["actions"] >= 7 * config["rounds"]
    per_round = config["actions"] / config["rounds"]
    assert config["actions_per_round"] == pytest.approx(per_round, abs=0.01)
    assert config["rounds_per_s"] == pytest.approx(config["rounds"] / config["seconds"], rel=0.01)
    assert config["longest_round"] >= config["actions_per_round"]
    split = config["split_percent"]
    assert set(split) == {"deal", "legal_actions", "policy", "apply", "other"}
    assert sum(split.values()) == pytest.approx(100.0, abs=0.5)
    target = doc["target"]
    assert target["rounds_per_s"] == 2000
    assert target["met"] == (config["rounds_per_s"] >= 2000)


def test_every_configuration_by_default_in_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rules", "--seconds", "0.01", "--no-split"]) == 0
    out = capsys.readouterr().out
    presets = (["house"], ["classic"], ["party"])
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in presets]
    assert [(r[0], int(r[1])) for r in rows] == bench.configurations()
    assert len(rows) == 2 + 3 + 7
    assert "target: house 2 seats" in out


def test_random_any_and_a_seat_count_across_presets(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "rules", "--json", "--seconds", "0.01", "--seats", "4"]
    args += ["--policy", "random-any"]
    assert main([*args, "--no-split"]) == 0
    doc = json.loads(capsys.readouterr().out)
    configs = doc["configurations"]
    assert [(c["preset"], c["seats"]) for c in configs] == [("classic", 4), ("party", 4)]
    assert all(c["policy"] == "random-any" and c["split_percent"] is None for c in configs)
    assert doc["target"] is None  # the target is for house 2 seats with random-card


def test_impossible_configuration_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "rules", "--preset", "house", "--seats", "5", "--seconds", "0.01"]
    assert main(args) == 2
    assert "no 5-seat table" in capsys.readouterr().err


def test_random_card_policy_plays_when_it_can_and_draws_only_when_stuck() -> None:
    import random

    rng = random.Random(0)
    plays = (Move.play("5H"), Move.play("8C", "S"), Move.play("8C", "H"), DRAW)
    seen = {bench.random_card(plays, rng) for _ in range(200)}
    assert seen == set(plays[:3])  # never draws while it holds a play
    assert bench.random_card((DRAW, PASS), rng) == DRAW
    assert bench.random_card((PASS,), rng) == PASS
    assert bench.random_card((READY,), rng) == READY
    assert {bench.random_any((DRAW, PASS), rng) for _ in range(100)} == {DRAW, PASS}


def test_playout_ends_the_round() -> None:
    import random

    game = get_game("crazy_eights")
    options = game.options("party")
    n = bench.playout(game, options, 5, 123, bench.random_card, random.Random(1))  # type: ignore[arg-type]
    assert n >= 5


def test_console_script_runs_in_a_subprocess() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    proc = subprocess.run(
        [sys.executable, "-m", "meja.cli", "bench", "rules", "--json", "--seconds", "0.02",
         "--preset", "classic", "--seats", "3", "--no-split"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["configurations"][0]["rounds"] >= 1
