"""A fourth game gets the project's harness by registering itself, with no harness code of its own.

The test-only game (``tests/toy_game``, Snap: registered by ``tests/conftest.py``
with ``meja.games.load("toy_game")``) holds its rules, its bots, its protocol
section and its plugin, nothing else. This shows what it gets from that alone:
``meja bench rules`` (with the default policy, since it declares no
:class:`~meja.rules.playout.Playouts`), the conformance suite
(``tests/games/test_contract.py`` over ``tests/games/conformance.py``: every
check of every state and action, typed refusals, persistence, replay, the
planted-fault checks, the hash-seed fingerprint), golden transcripts (``tests/games/golden.py``:
its files are headers the writer filled in) and the leak judge
(``tests/fuzz/test_fuzz_leaks_games.py``, over real servers, runs there).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from meja import games
from meja.bench import rules as bench
from meja.cli import main
from meja.rules.playout import Playouts

from . import test_contract
from .conformance import Invariants, Run, configs, invariants
from .golden import files, header, transcript

TOY = Path(__file__).resolve().parents[1] / "toy_game"
NAME = "snap"


def test_its_folder_holds_no_harness() -> None:
    assert sorted(p.name for p in TOY.iterdir() if p.name != "__pycache__") == [
        "PROTOCOL.md", "__init__.py", "bots.py", "rules.py",
    ]  # fmt: skip
    plugin = games.get(NAME)
    assert plugin.playouts == Playouts()  # nothing declared for the benchmark
    assert (plugin.bench_bots, plugin.narration, plugin.fixtures) == (None, None, None)


def test_it_gets_the_rules_benchmark(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "rules", "--game", NAME, "--json", "--seconds", "0.02"]
    monkeypatch.setattr(sys, "argv", ["meja", *argv])
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    presets = {(c["preset"], c["seats"]) for c in doc["configurations"]}
    assert presets == set(bench.configurations(games.get(NAME))) and ("pairs", 4) in presets
    assert all(
        c["policy"] == "random-any" and c["rounds"] >= 1 and c["actions"] > c["rounds"] for c in doc["configurations"]
    )


def test_it_gets_the_conformance_suite() -> None:
    assert invariants(NAME) is Invariants  # no invariants of its own: the contract's checks alone
    mine = [c for c in configs() if c.game == NAME]
    assert {c.options["preset"] for c in mine} == {"pairs", "solo"}
    assert all(c in test_contract.CONFIGS for c in mine)
    for name in (
        "test_the_runs_reach_every_event_kind",
        "test_every_action_decodes_from_its_wire_form",
        "test_the_checks_catch_planted_faults",
    ):
        [mark] = [m for m in getattr(test_contract, name).pytestmark if m.name == "parametrize"]
        assert NAME in mark.args[1], name
    for config in mine:
        run = Run(config)
        assert run.play(0) > 0  # the deep match: every legal action tried, everything else refused
        stats = run.stats
        assert stats["alternatives"] > 0 and stats["rounds"] >= 1
        assert stats["refused as action/illegal"] > 0 and stats["refused as action/round_over"] > 0


def test_it_gets_golden_transcripts() -> None:
    paths = files(NAME)
    assert {header(p.read_text(encoding="utf-8"))["preset"] for p in paths} == {"pairs", "solo"}
    for path in paths:
        assert transcript(header(path.read_text(encoding="utf-8"))) == path.read_text(encoding="utf-8")


def test_it_gets_the_leak_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TOY.parent / "fuzz"))  # as the fuzz folder's own tests see it
    from fuzz import test_fuzz_leaks_games as leaks

    for test in (leaks.test_no_frame_shows_a_connection_what_it_may_not_see, leaks.test_a_planted_leak_is_caught):
        [mark] = [m for m in test.pytestmark if m.name == "parametrize"]  # type: ignore[attr-defined]
        assert NAME in mark.args[1]
