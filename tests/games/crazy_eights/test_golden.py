"""Golden transcripts: recorded matches that must replay identically, so no change of behaviour passes unnoticed.

Like python-chess's perft files (``examples/perft/``): each file in
``tests/games/crazy_eights/golden/`` names a preset, its options, a seat count, the deal
code of round 1, the match seed (later rounds), and a deterministic scripted
policy; and records what the engine did: the number of actions and rounds,
the final phase and outcome, a state digest every ``every`` actions, the final
digest, and digests of the action log, of every event (with its audience) and
of every seat's view at each checkpoint. This test replays each file and
compares all of it.

The policies (``policy``; ``policy_seed`` for the random ones) only use
:class:`meja.rules.rng.Rng`, whose output is specified, so a transcript means
the same on every Python version:

- ``first``: the first legal action of the lowest awaited seat (sorted
  order: the lowest playable card, then suit choices, draw, pass, ready);
- ``last-play``: the last play (or suit choice) in sorted order, else the
  first legal action (draw before pass);
- ``random-card``: a uniformly random play (or suit choice), else the first
  legal action: draw only when stuck (as ``meja bench rules``);
- ``random-any``: uniformly random among all legal actions.

The acting seat is always the lowest awaited one (this only matters in the
ready phase, where several seats are awaited).

If this test fails, the engine's behaviour changed. If that was intended (a
rule fix), regenerate with ``tools/regen_golden.py --write`` and say why in
the commit; an optimisation must never change these files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from meja.rules import Event, get_game
from meja.games.crazy_eights.rules import CrazyEightsState, Kind, Move, Phase
from meja.rules.rng import Rng

GOLDEN = Path(__file__).resolve().parent / "golden"
GAME = get_game("crazy_eights")

#: The fields a golden file holds that describe the run, and those that record its result.
CONFIG_FIELDS = (
    "name", "preset", "options", "seats", "match_seed", "deal_code",
    "policy", "policy_seed", "max_actions", "every",
)  # fmt: skip
#: What the seats saw and did: if these match, only the state record's format changed.
BEHAVIOUR_FIELDS = ("actions", "rounds", "phase", "outcome", "actions_digest", "events_digest", "views_digest")
RESULT_FIELDS = (
    "actions", "rounds", "phase", "outcome", "digests", "final_digest",
    "actions_digest", "events_digest", "views_digest",
)  # fmt: skip


class ScriptedPolicy:
    """A deterministic policy (see the module docstring), with its own :class:`Rng`."""

    def __init__(self, name: str, seed: int | None) -> None:
        if name not in ("first", "last-play", "random-card", "random-any"):
            raise ValueError(f"unknown golden policy {name!r}")
        self.name = name
        self.rng = Rng(seed or 0, "golden-policy")

    def _pick(self, n: int) -> int:
        index, self.rng = self.rng.randbelow(n)
        return index

    def choose(self, legal: tuple[Move, ...]) -> Move:
        if self.name == "random-any":
            return legal[self._pick(len(legal))]
        choices = [m for m in legal if m.kind in (Kind.PLAY, Kind.SUIT)]
        if not choices or self.name == "first":
            return legal[0]
        if self.name == "last-play":
            return choices[-1]
        return choices[self._pick(len(choices))]


def _sha(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:32]


def _events(events: tuple[Event, ...]) -> list[Any]:
    return [[e.kind, e.data, e.only, list(e.hidden_from)] for e in events]


def _views(state: CrazyEightsState) -> list[Any]:
    return [state.view(seat).to_wire() for seat in (None, *range(state.seats))]


def transcript(config: dict[str, Any]) -> dict[str, Any]:
    """Play ``config`` and return its result fields (see :data:`RESULT_FIELDS`)."""
    options = GAME.options(config["preset"], **config["options"])
    t = GAME.new_match(options, config["seats"], config["match_seed"], deal_code=config["deal_code"])
    state: CrazyEightsState = t.state
    policy = ScriptedPolicy(config["policy"], config["policy_seed"])
    every = config["every"]
    events = hashlib.sha256()
    views = hashlib.sha256()
    actions = hashlib.sha256()
    events.update(json.dumps(_events(t.events), sort_keys=True).encode())
    views.update(json.dumps(_views(state), sort_keys=True).encode())
    digests = [state.digest()]
    count = 0
    while state.phase != Phase.MATCH_OVER and count < config["max_actions"]:
        seat = state.awaiting()[0]
        move = policy.choose(state.legal_actions(seat))
        actions.update(json.dumps([seat, move.to_wire()], sort_keys=True).encode())
        t = state.apply(seat, move)
        state = t.state
        events.update(json.dumps(_events(t.events), sort_keys=True).encode())
        count += 1
        if count % every == 0:
            digests.append(state.digest())
            views.update(json.dumps(_views(state), sort_keys=True).encode())
    views.update(json.dumps(_views(state), sort_keys=True).encode())
    outcome = state.outcome()
    return {
        "actions": count,
        "rounds": state.round,
        "phase": state.phase.wire,
        "outcome": None
        if outcome is None
        else {"winners": list(outcome.winners), "scores": list(outcome.scores)},
        "digests": digests,
        "final_digest": state.digest(),
        "actions_digest": actions.hexdigest()[:32],
        "events_digest": events.hexdigest()[:32],
        "views_digest": views.hexdigest()[:32],
    }


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def differences(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """Readable differences between a recorded and a replayed result (empty: identical)."""
    out = []
    for key in RESULT_FIELDS:
        if key == "digests":
            continue
        if expected.get(key) != actual.get(key):
            out.append(f"{key}: recorded {expected.get(key)!r}, now {actual.get(key)!r}")
    recorded, now = expected.get("digests", []), actual["digests"]
    for i, (a, b) in enumerate(zip(recorded, now, strict=False)):
        if a != b:
            every = expected["every"]
            lo = (i - 1) * every if i else "the deal"
            out.insert(0, f"states first differ between action {lo} and action {i * every}")
            break
    else:
        if len(recorded) != len(now):
            out.append(f"digests: {len(recorded)} recorded, {len(now)} now")
    same_play = all(expected.get(k) == actual.get(k) for k in BEHAVIOUR_FIELDS)
    if out and same_play:
        out.append(
            "the actions, events and views are all the same: only the state record"
            " (to_data) changed. Stored states depend on it: bump its schema number."
        )
    return out


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_transcript(path: Path) -> None:
    golden = load(path)
    config = {k: golden[k] for k in CONFIG_FIELDS}
    assert config["name"] == path.stem
    problems = differences(golden, transcript(config))
    assert not problems, (
        f"{path.name}: the engine's behaviour changed.\n  "
        + "\n  ".join(problems)
        + "\nIf the change is intended, run tools/regen_golden.py --write and say why in the commit."
    )


def test_there_are_golden_transcripts_for_every_preset() -> None:
    goldens = [load(p) for p in golden_files()]
    assert len(goldens) >= 12
    assert {g["preset"] for g in goldens} == {"house", "classic", "party"}
    assert {g["policy"] for g in goldens} == {"first", "last-play", "random-card", "random-any"}
    # most run whole matches, and every file holds a real record
    assert sum(g["phase"] == "match_over" for g in goldens) >= len(goldens) - 2
    for g in goldens:
        assert g["actions"] > 0 and len(g["digests"]) == 1 + g["actions"] // g["every"]
        assert set(g) >= set(CONFIG_FIELDS) | set(RESULT_FIELDS)


def test_a_changed_transcript_is_detected() -> None:
    # The comparison itself works: a policy that differs after a while is caught at its checkpoint.
    path = golden_files()[0]
    golden = load(path)
    config = {k: golden[k] for k in CONFIG_FIELDS}
    other = dict(config, policy="last-play" if config["policy"] != "last-play" else "first")
    problems = differences(golden, transcript(other))
    assert problems and any("actions_digest" in p for p in problems)


def test_policies_are_deterministic() -> None:
    legal = (Move.play("5H"), Move.play("8C", "S"), Move.play("8C", "H"))
    for name in ("random-card", "random-any"):
        a = [ScriptedPolicy(name, 7).choose(legal) for _ in range(3)]
        p, q = ScriptedPolicy(name, 7), ScriptedPolicy(name, 7)
        assert [p.choose(legal) for _ in range(20)] == [q.choose(legal) for _ in range(20)]
        assert len(set(a)) == 1  # a fresh policy with the same seed starts the same way
    assert ScriptedPolicy("first", None).choose(legal) == legal[0]
    assert ScriptedPolicy("last-play", None).choose(legal) == legal[-1]
