"""Every game's golden transcripts, replayed by one test (:mod:`games.golden`: the format and the writer).

Each file under ``tests/games/<game>/golden/`` is replayed from its header and
must come out the same, line for line; a failure shows the diff at the first
step that changed (the seat, the action, the events per audience, the view).
Every registered game has transcripts, the test-only one too (it gets them by
registering: its files are headers the writer filled in, with no code of its own).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from meja import games

from .golden import POLICIES, differences, files, folder, header, policies, transcript


@pytest.mark.parametrize("path", files(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_golden_transcript(path: Path) -> None:
    recorded = path.read_text(encoding="utf-8")
    config = header(recorded)
    assert (config["game"], config["name"]) == (path.parent.parent.name, path.stem)
    problems = differences(recorded, transcript(config))
    assert not problems, (
        f"{path.name}: the engine's behaviour changed.\n"
        + "\n".join(problems)
        + "\nIf intended, run .venv/bin/python tests/games/golden.py --write and say why in the commit."
    )


@pytest.mark.parametrize("name", games.names())
def test_every_game_has_transcripts_of_every_preset(name: str) -> None:
    recorded = [header(p.read_text(encoding="utf-8")) for p in files(name)]
    assert {c["preset"] for c in recorded} == {p.name for p in games.get(name).game.info.presets}
    assert {c["policy"] for c in recorded} <= set(policies(name))
    assert all(p.parent == folder(name) for p in files(name))
    for path in files(name):
        text = path.read_text(encoding="utf-8")
        assert "\ndeal\n" in text and "\n1 seat " in text and "\noutcome: " in text


def test_a_changed_transcript_shows_where() -> None:
    """The comparison itself: the same match under another policy differs at a step, shown as lines."""
    path = files("crazy_eights")[0]
    recorded = path.read_text(encoding="utf-8")
    config = header(recorded)
    other = dict(config, policy="random-any" if config["policy"] != "random-any" else "first", policy_seed=5)
    problems = differences(recorded, transcript(other))
    assert problems and problems[0].startswith("--- recorded")
    assert any(line.startswith("-") and " seat " in line for line in problems[2:])


def test_the_policies_are_deterministic() -> None:
    config = header(files("kartu_terakhir")[0].read_text(encoding="utf-8"))
    for policy in ("random-any", "random-card", "random-all"):
        run = dict(config, policy=policy, policy_seed=9, max_actions=60)
        assert transcript(run) == transcript(run)
    assert set(POLICIES) == {"first", "random-any"}
