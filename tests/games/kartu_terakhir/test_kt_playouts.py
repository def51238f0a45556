"""Smoke tests of ``meja bench rules --game kartu_terakhir``: it runs, prints valid JSON, and counts honestly.

A fraction of a second each: the figures themselves are not asserted (speed
depends on the machine; the benchmark prints it), only that they agree with what
was played.
"""

from __future__ import annotations

import json
import random
import sys

import pytest
from meja.cli import main
from meja.games.kartu_terakhir import bench_rules as bench
from meja.games.kartu_terakhir.rules import KartuTerakhirOptions

from .kt_helpers import PLUGIN


def test_json_for_one_seat_count(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert PLUGIN.bench_rules == "meja.games.kartu_terakhir.bench_rules"
    args = ["bench", "rules", "--game", "kartu_terakhir", "--json", "--seconds", "0.05", "--seats", "2"]
    # meja.bench.pergame picks the game's module from sys.argv, not from main(argv): as from a shell
    monkeypatch.setattr(sys, "argv", ["meja", *args])
    status = main(args)
    assert status == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["benchmark"] == "rules" and doc["game"] == "kartu_terakhir" and doc["policy"] == "random-card"
    [config] = doc["configurations"]
    assert config["seats"] == 2 and config["rounds"] >= 1
    assert config["actions"] >= 7 * config["rounds"]  # a seat must empty its 7-card hand
    assert config["actions_per_round"] == pytest.approx(config["actions"] / config["rounds"], abs=0.01)
    assert config["rounds_per_s"] == pytest.approx(config["rounds"] / config["seconds"], rel=0.01)
    assert set(config["split_percent"]) == {"deal", "legal_actions", "policy", "apply", "other"}
    assert sum(config["split_percent"].values()) == pytest.approx(100.0, abs=0.5)
    target = doc["target"]
    assert target["actions_per_cpu_s"] == bench.TARGET and target["seats"] == [2]
    assert target["met"] == (config["actions_per_cpu_s"] >= bench.TARGET)


def test_every_default_seat_count_in_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seconds", "0.01", "--no-split", "--policy", "random-any", "--stacking"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert [int(r[0]) for r in rows] == list(bench.SEATS) == [2, 4, 7, 10]
    assert "stacking on" in out


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seats", "11"]) == 2
    assert bench.main(["--seconds", "0"]) == 2
    assert "2-10 seats" in capsys.readouterr().err


def test_a_playout_plays_a_whole_round_with_catches_and_calls() -> None:
    rng = random.Random(3)
    total = 0
    for seed in range(30):
        total += bench.playout(KartuTerakhirOptions(), 4, seed, bench.random_card, rng)
    assert total > 30 * 7
    legal = (bench.TAKE, bench.CHALLENGE)
    assert {bench.random_card(legal, random.Random(i)) for i in range(20)} == set(legal)
