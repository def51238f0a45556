"""``meja bench rules`` over every registered game (the test-only one too): one harness, the games' hooks.

A fraction of a second each: the figures themselves are not asserted (speed
depends on the machine; the benchmark prints it), only that they are
consistent with what was played and that each game's hooks
(:class:`meja.rules.playout.Playouts`) shape the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from meja import games
from meja.bench import rules as bench
from meja.cli import main

ROOT = Path(__file__).resolve().parents[2]


def bench_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    """``meja bench rules ARGS`` as from a shell (the command reads ``--game`` from ``sys.argv`` first)."""
    argv = ["bench", "rules", *args]
    monkeypatch.setattr(sys, "argv", ["meja", *argv])
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("name", games.names())
def test_every_game_is_measured_by_registering(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = games.get(name)
    hooks = plugin.playouts
    status, out, _ = bench_rules(monkeypatch, capsys, "--game", name, "--json", "--seconds", "0.01", "--no-split")
    assert status == 0
    doc = json.loads(out)
    assert (doc["benchmark"], doc["game"], doc["policy"]) == ("rules", name, hooks.default_policy)
    policies = sorted(hooks.policies) if hooks.default_policy == "all" else [hooks.default_policy]
    configs = bench.configurations(plugin)
    assert configs and all(preset in [p.name for p in plugin.game.info.presets] for preset, _ in configs)
    if hooks.seats:  # the game's own seat counts (Kartu Terakhir's 2, 4, 7 and 10)
        assert sorted({seats for _, seats in configs}) == sorted(hooks.seats)
    assert [(c["preset"], c["seats"], c["policy"]) for c in doc["configurations"]] == [
        (preset, seats, policy) for preset, seats in configs for policy in policies
    ]
    u = hooks.unit
    for c in doc["configurations"]:
        assert c[f"{u}s"] >= 1 and c["actions"] >= c[f"{u}s"]
        assert c[f"actions_per_{u}"] == pytest.approx(c["actions"] / c[f"{u}s"], abs=0.01)
        assert c[f"{u}s_per_s"] == pytest.approx(c[f"{u}s"] / c["seconds"], rel=0.01)
        assert c[f"longest_{u}"] >= c[f"actions_per_{u}"] and c["split_percent"] is None


@pytest.mark.parametrize("name", games.names())
def test_the_time_split_and_the_table(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = games.get(name)
    preset, seats = bench.configurations(plugin)[0]
    policy = sorted(plugin.playouts.policies)[0]
    result = bench.measure(plugin, preset, seats, policy, 0.01, seed=2)
    assert result.split is not None and set(result.split) == {"deal", "legal_actions", "policy", "apply", "other"}
    assert sum(result.split.values()) == pytest.approx(100.0, abs=0.5)
    args = ("--game", name, "--seconds", "0.01", "--no-split", "--preset", preset, "--seats", str(seats))
    status, out, _ = bench_rules(monkeypatch, capsys, *args)
    assert status == 0
    rows = [line.split() for line in out.splitlines() if line.split()[:2] == [preset, str(seats)]]
    assert len(rows) == (len(plugin.playouts.policies) if plugin.playouts.default_policy == "all" else 1)
    assert f"{plugin.playouts.unit}s/s" in out


def test_a_target_is_judged_on_its_configurations(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Crazy Eights' target (house, 2 seats, random-card, rounds/s) and Kartu Terakhir's (per CPU second)."""
    args = ("--json", "--seconds", "0.02", "--no-split")
    _, out, _ = bench_rules(monkeypatch, capsys, "--game", "crazy_eights", "--preset", "house", "--seats", "2", *args)
    doc = json.loads(out)
    [config] = doc["configurations"]
    target = doc["target"]
    assert (target["preset"], target["seats"], target["rounds_per_s"]) == ("house", [2], 2000)
    assert target["met"] == (config["rounds_per_s"] >= 2000) and "random-any" in doc["note"]
    ce_any = ("--game", "crazy_eights", "--seats", "4", "--policy", "random-any")
    _, out, _ = bench_rules(monkeypatch, capsys, *ce_any, *args)
    doc = json.loads(out)
    assert [(c["preset"], c["seats"]) for c in doc["configurations"]] == [("classic", 4), ("party", 4)]
    assert doc["target"] is None  # its policy is random-card
    _, out, _ = bench_rules(monkeypatch, capsys, "--game", "kartu_terakhir", "--seats", "2", "--stacking", *args)
    doc = json.loads(out)
    [config] = doc["configurations"]
    assert config["options"] == {"stacking": True}
    target: dict[str, Any] = doc["target"]
    assert target["actions_per_cpu_s"] == 70_000 and target["seats"] == [2]
    assert target["met"] == (config["actions_per_cpu_s"] >= 70_000)


def test_impossible_configurations_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = bench_rules(monkeypatch, capsys, "--preset", "house", "--seats", "5", "--seconds", "0.01")
    assert status == 2 and "no 5-seat table" in err
    status, _, err = bench_rules(monkeypatch, capsys, "--game", "kartu_terakhir", "--seats", "11")
    assert status == 2 and "no 11-seat table" in err
    status, _, err = bench_rules(monkeypatch, capsys, "--game", "eighty_three", "--preset", "house")
    assert status == 2 and "no preset 'house'" in err
    status, _, err = bench_rules(monkeypatch, capsys, "--seconds", "0")
    assert status == 2 and "must be positive" in err


def test_console_script_runs_in_a_subprocess() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    proc = subprocess.run(
        [sys.executable, "-m", "meja.cli", "bench", "rules", "--game", "eighty_three", "--json", "--seconds", "0.02",
         "--policy", "random-arrange", "--no-split"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    [config] = json.loads(proc.stdout)["configurations"]
    assert config["hands"] >= 1 and config["policy"] == "random-arrange"
