"""Smoke tests of ``meja bench server``: it runs real processes, prints valid JSON, and counts honestly.

The figures themselves are never asserted (speed depends on the machine); only
that they agree with each other and with what was played. The end-to-end run
is tiny (2 tables, one server process, about 2 s measured): about 10 s in all,
most of it starting processes.
"""

from __future__ import annotations

import ast
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from meja.bench import echo
from meja.bench import server as bench
from meja.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_percentile_interpolates_and_orders() -> None:
    values = [5.0, 1.0, 3.0, 2.0, 4.0]
    assert bench.percentile(values, 0) == 1.0
    assert bench.percentile(values, 50) == 3.0
    assert bench.percentile(values, 100) == 5.0
    assert bench.percentile(values, 25) == 2.0
    assert bench.percentile([7.0], 99) == 7.0
    assert math.isnan(bench.percentile([], 50))
    assert bench.percentile(list(range(101)), 95) == pytest.approx(95.0)


def test_frame_headers_follow_rfc_6455() -> None:
    # 7-bit length up to 125, then 16-bit, then 64-bit lengths (server frames are unmasked).
    assert bench.frame_header_bytes(0) == 2
    assert bench.frame_header_bytes(125) == 2
    assert bench.frame_header_bytes(126) == 4
    assert bench.frame_header_bytes(65535) == 4
    assert bench.frame_header_bytes(65536) == 10


def test_round_trips_are_told_from_commands_run_inside_redis() -> None:
    # A window of: 10 commits (each a script: HMGET, HSET, RPUSH, 3 PEXPIRE, PUBLISH), 4 claims
    # (script: ZRANGEBYSCORE + ZADD + HGET each), 2 heartbeats (script: SET + GET), 3 loads
    # (HMGET alone), 4 finished timers (MULTI ZREM HDEL EXEC), 5 log reads (LRANGE), 6 ZRANGE,
    # and the benchmark's own INFO calls, which are not counted.
    delta = {
        "evalsha": 10 + 4 + 2,
        "hmget": 10 + 3,
        "hset": 10,
        "rpush": 10,
        "pexpire": 30,
        "publish": 10,
        "zrangebyscore": 4,
        "zadd": 4,
        "hget": 4,
        "set": 2,
        "get": 2,
        "multi": 4,
        "zrem": 4,
        "hdel": 4,
        "exec": 4,
        "lrange": 5,
        "zrange": 6,
        "info": 3,
    }
    costs = bench.redis_costs(delta)
    # scripts, loads, EXECs, LRANGEs, and the ZRANGEs sent alone (the 4 polls each ran one of the 6)
    assert costs.round_trips == 16 + 3 + 4 + 5 + 2
    assert costs.sent == costs.round_trips + 3 * 4  # each MULTI block: MULTI, ZREM, HDEL, EXEC
    assert costs.commands == sum(delta.values()) - 3
    assert "info" not in costs.by_command


SCRAPE = """\
# HELP meja_actions_total Game actions: accepted by source, refused by error code
# TYPE meja_actions_total counter
meja_actions_total{outcome="accepted",source="person"} 7.0
meja_actions_total{outcome="accepted",source="bot"} 5.0
meja_actions_total{outcome="accepted",source="timer"} 0.0
meja_actions_total{outcome="action/stale_version",source="person"} 2.0
# HELP meja_redis_errors_total Redis errors logged by this process, by module
# TYPE meja_redis_errors_total counter
meja_redis_errors_total{logger="store.redis"} 1.0
# HELP meja_move_latency_seconds A person's accepted act
# TYPE meja_move_latency_seconds histogram
meja_move_latency_seconds_bucket{le="0.01"} 6.0
meja_move_latency_seconds_bucket{le="+Inf"} 7.0
meja_move_latency_seconds_count 7.0
meja_move_latency_seconds_sum 0.05
# HELP meja_store_memory_bytes The store's memory: used, and the limit (NaN: not known)
# TYPE meja_store_memory_bytes gauge
meja_store_memory_bytes{kind="used"} NaN
meja_store_memory_bytes{kind="limit"} NaN
"""


def test_metrics_scrapes_are_summed_over_processes_and_differenced() -> None:
    earlier = bench.MetricsScrape.parse([SCRAPE])
    assert earlier.accepted == {"person": 7, "bot": 5, "timer": 0} and earlier.moves == 12
    assert earlier.rejected == {"action/stale_version": 2}
    assert earlier.redis_errors == 1 and earlier.latency_count == 7
    both = bench.MetricsScrape.parse([SCRAPE, SCRAPE.replace(" 5.0", " 9.0")])
    assert both.accepted == {"person": 14, "bot": 14, "timer": 0} and both.latency_count == 14
    later = both.since(earlier)
    assert later.accepted == {"person": 7, "bot": 9, "timer": 0} and later.moves == 16
    assert later.rejected == {"action/stale_version": 2} and later.redis_errors == 1


def test_the_echo_program_is_a_program_that_imports_nothing_of_meja() -> None:
    cmd = echo.command(1234)
    assert cmd[0] == sys.executable and cmd[1] == "-c" and cmd[2] == echo.PROGRAM and cmd[3] == "1234"
    tree = ast.parse(echo.PROGRAM, "<echo>")
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    # (its comments may name meja: they say which of meja serve's settings it copies)
    assert imported and not any(name.split(".")[0] == "meja" for name in imported), imported


def test_cores_busy_from_proc_stat_ticks() -> None:
    before = [(100, 1000), (500, 1000)]
    after = [(150, 1100), (500, 1100)]  # core 0: 50 busy of 100 ticks; core 1: idle
    assert bench.cores_busy(before, after) == [50.0, 0.0]
    assert bench.cores_busy(before, before) == [0.0, 0.0]


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "server", "--tables", "0"]) == 2
    assert main(["bench", "server", "--pace", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server (make deps)")
def test_a_tiny_run_prints_consistent_figures() -> None:
    args = ["bench", "server", "--json", "--tables", "2", "--processes", "1", "--seconds", "2", "--warmup", "0.5"]
    done = subprocess.run(
        [sys.executable, "-m", "meja.cli", *args], capture_output=True, text=True, timeout=180, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    doc = json.loads(done.stdout)
    assert doc["benchmark"] == "server" and doc["mode"] == "throughput"
    assert doc["redis_server"].startswith("private")
    assert doc["connections"] == 4
    assert doc["moves"] > 0, doc
    assert doc["moves_per_s"] == pytest.approx(doc["moves"] / doc["window_s"], rel=0.01)
    # Every player's action answered in the window has its latency; bots' moves are counted too.
    latency = doc["latency_ms"]
    assert latency["count"] == doc["human_moves"] > 0
    assert doc["moves"] >= doc["human_moves"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]
    # Each committed move reaches both players: at least one frame each, a few hundred bytes at least.
    assert doc["frames_per_move"] >= 1.5
    assert doc["bytes_per_move"] > doc["payload_bytes_per_move"] > 100
    redis = doc["redis"]
    assert redis["commands_per_move"] >= redis["round_trips_per_move"] >= 1.0  # a commit at least
    assert redis["calls_per_move"]["publish"] == pytest.approx(1.0, abs=0.25)  # one publish per commit
    assert doc["server_cpu_ms_per_move"] > 0
    table = doc["memory"]["redis_table"]
    assert table["tables_sampled"] == 2 and table["log_entries"] > 1 and table["record_bytes"] > 100
    assert doc["memory"]["server_rss_bytes_start"] > 0
    # How busy each core and the generator were (is the generator the limit?), in both runs.
    cores = os.cpu_count() or 1
    assert len(doc["cores_busy_percent"]) == cores and all(0 <= c <= 100 for c in doc["cores_busy_percent"])
    assert 0 < doc["generator_cpu_percent"] <= 100 * cores
    echo_doc = doc["echo"]
    assert len(echo_doc["cores_busy_percent"]) == cores and echo_doc["generator_cpu_percent"] > 0
    assert echo_doc["connections"] == 4 and echo_doc["messages"] > 0
    assert doc["moves_per_echo_message"] == pytest.approx(doc["moves_per_s"] / echo_doc["messages_per_s"], rel=0.01)
    assert "machine" in doc["note"]
    # The servers' /metrics agree with the generator: exactly over the whole run (once the tables went
    # quiet), within the bound computed from the run over the window; the players' moves are the
    # accepted acts, and the refused ones have the same codes as the generator's errors.
    metrics = doc["metrics"]
    whole, window = metrics["run"], metrics["window"]
    assert whole["settled"] and whole["difference"] == 0 and whole["moves"] == whole["bench_moves"] > 0, metrics
    assert whole["by_source"]["person"] > 0 and whole["by_source"]["bot"] > 0 and whole["by_source"]["other"] == 0
    assert window["bench_moves"] == doc["moves"] and window["agree"], metrics
    assert abs(window["difference"]) <= window["bound"]
    assert window["latency_count"] == window["by_source"]["person"]
    assert abs(window["by_source"]["person"] - doc["human_moves"]) <= window["bound"]
    # (the generator's errors include its rematch requests': only actions have action/ codes)
    refused = {code: n for code, n in doc["errors"].items() if code.startswith("action/")}
    assert {code: n for code, n in metrics["rejected"].items() if code.startswith("action/")} == refused
    assert metrics["redis_errors"] == 0


def test_compare_frames_layouts_are_parsed_or_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.parse_layouts("crazy_eights:3:2:500, kartu_terakhir:10:10", 7) == [
        ("crazy_eights", 3, 2, 500),
        ("kartu_terakhir", 10, 10, 7),
    ]
    assert main(["bench", "server", "--compare-frames", "crazy_eights:3"]) == 2
    assert main(["bench", "server", "--compare-frames", "crazy_eights:3:4"]) == 2
    assert "GAME:SEATS:HUMANS" in capsys.readouterr().err
    assert main(["bench", "server", "--compare-frames", "crazy_eights:3:2", "--rounds", "0"]) == 2
    assert "--rounds" in capsys.readouterr().err


def test_a_form_measured_in_several_runs_is_summed_over_them() -> None:
    """``--rounds``: a form's per-move figures are its total over its total moves (a run with more
    moves weighs more), its rates over the summed windows; each run's own figures are kept."""

    def run(moves: int, window: float, cpu: float, size: float, p50: float, settled: bool = True) -> dict[str, Any]:
        return {
            "connections": 30, "moves": moves, "window_s": window, "moves_per_s": moves / window,
            "bytes_per_move": size, "frames_per_move": 10.0, "server_cpu_ms_per_move": cpu,
            "server_system_cpu_ms_per_move": cpu / 4,
            "server_cpu_percent": 50.0, "generator_cpu_percent": 80.0, "errors": {"timeout": 1},
            "latency_ms": {"p50": p50, "p95": 2 * p50, "p99": 3 * p50}, "metrics": {"run": {"settled": settled}},
        }  # fmt: skip

    doc = bench.over_runs([run(100, 10.0, 1.0, 3000.0, 5.0), run(300, 10.0, 2.0, 1000.0, 7.0), run(0, 5.0, 0, 0, 9)])
    assert doc["moves"] == 400 and doc["moves_per_s"] == 16.0
    assert doc["server_cpu_ms_per_move"] == 1.75  # (100 * 1.0 + 300 * 2.0) / 400
    assert doc["server_system_cpu_ms_per_move"] == 0.438
    assert doc["bytes_per_move"] == 1500.0
    assert doc["latency_ms"] == {"p50": 7.0, "p95": 14.0, "p99": 21.0}  # the median run's
    assert doc["errors"] == {"timeout": 3} and doc["settled"]
    assert [r["moves"] for r in doc["runs"]] == [100, 300, 0]
    assert not bench.over_runs([run(10, 1.0, 1.0, 1.0, 1.0, settled=False)])["settled"]


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server (make deps)")
def test_compare_frames_measures_both_forms_in_one_run() -> None:
    """Whole views, then patches (PROTOCOL.md 7.5), per layout: the patches carry fewer bytes per move
    (bytes are counted, not timed), every move is counted by the servers' /metrics as well."""
    args = [
        "bench",
        "server",
        "--json",
        "--compare-frames",
        "kartu_terakhir:4:4:2",
        "--processes",
        "1",
        "--seconds",
        "2",
        "--warmup",
        "0.5",
        "--no-echo",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "meja.cli", *args], capture_output=True, text=True, timeout=300, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(done.stdout)["compare_frames"]
    assert [(r["seats"], r["frames"]) for r in rows] == [(4, "whole"), (4, "diffs")]
    whole, diffs = rows
    assert whole["moves"] > 0 and diffs["moves"] > 0 and whole["settled"] and diffs["settled"]
    assert diffs["frames_per_move"] >= 3  # every seat still gets each move
    assert diffs["bytes_per_move"] < whole["bytes_per_move"] / 2, rows
    for row in rows:  # the kernel's share of the servers' CPU is part of it
        assert 0 <= row["server_system_cpu_ms_per_move"] <= row["server_cpu_ms_per_move"], row
