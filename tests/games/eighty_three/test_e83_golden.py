"""Golden transcripts of Eighty-Three: recorded matches that must replay identically.

Like python-chess's perft files and ``tests/games/crazy_eights/test_golden.py``:
each file in ``golden/`` names its options, the match seed, the deal code of
hand 1 (or none), a deterministic scripted policy and a cap on actions, and
records what the engine did: the number of actions and hands, the final phase
and outcome, a state digest every ``every`` actions, the final digest, and
digests of the action log, of every event (with its audience) and of every
seat's and a spectator's view at each checkpoint.

The policies use only :class:`meja.rules.rng.Rng` (specified), so a transcript
means the same on every Python version:

- ``first``: the lowest awaited seat takes its first legal action (``auto_arrange``
  in the discard and trim phases: the first legal action always moves on);
- ``random-any``: a random awaited seat, a uniformly random legal action;
- ``modest``: a random awaited seat; in the auction it passes 7 times in 10
  (where it may) or bids the lowest bid; elsewhere a random legal action;
- ``arrange``: as ``modest``, but ``auto_arrange`` in the discard and trim phases.

If this test fails, the engine's behaviour changed. If that was intended (a rule
fix), regenerate with ``python tests/games/eighty_three/test_e83_golden.py --write``
and say why in the commit; an optimisation must never change these files.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

if __package__ in (None, ""):  # run as a script: the writer (see the module docstring)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    __package__ = "games.eighty_three"

from meja.games.eighty_three import dealcode
from meja.games.eighty_three.rules import AUTO, PASS, Action, EightyThreeState, Phase
from meja.rules import Event
from meja.rules.rng import Rng

from .e83_helpers import GAME

GOLDEN = Path(__file__).resolve().parent / "golden"
CONFIG_FIELDS = ("name", "options", "match_seed", "deal_code", "policy", "policy_seed", "max_actions", "every")
BEHAVIOUR_FIELDS = ("actions", "hands", "phase", "outcome", "actions_digest", "events_digest", "views_digest")
RESULT_FIELDS = (*BEHAVIOUR_FIELDS, "digests", "final_digest")

#: What the writer records (``--write``).
CONFIGS: list[dict[str, Any]] = [
    {"name": "first", "options": {}, "match_seed": 1, "deal_code": None, "policy": "first",
     "policy_seed": None, "max_actions": 300, "every": 10},
    {"name": "random-any", "options": {}, "match_seed": 2, "deal_code": None, "policy": "random-any",
     "policy_seed": 5, "max_actions": 600, "every": 20},
    {"name": "modest-match", "options": {}, "match_seed": 3, "deal_code": None, "policy": "modest",
     "policy_seed": 6, "max_actions": 3000, "every": 25},
    {"name": "arrange-match-must-win", "options": {"must_win_on_own_bid": True}, "match_seed": 4,
     "deal_code": dealcode.encode(dealcode.DealSpec(2, 12345)), "policy": "arrange", "policy_seed": 7,
     "max_actions": 3000, "every": 25},
    {"name": "arrange-deal-code", "options": {}, "match_seed": 5,
     "deal_code": dealcode.encode(dealcode.DealSpec(0, (1 << 127) + 83)), "policy": "arrange",
     "policy_seed": 8, "max_actions": 3000, "every": 25},
]  # fmt: skip


class ScriptedPolicy:
    """A deterministic policy (see the module docstring), with its own :class:`Rng`."""

    def __init__(self, name: str, seed: int | None) -> None:
        if name not in ("first", "random-any", "modest", "arrange"):
            raise ValueError(f"unknown golden policy {name!r}")
        self.name = name
        self.rng = Rng(seed or 0, "golden-policy")

    def _pick(self, n: int) -> int:
        index, self.rng = self.rng.randbelow(n)
        return index

    def choose(self, state: EightyThreeState) -> tuple[int, Action]:
        awaiting = state.awaiting()
        if self.name == "first":
            seat = awaiting[0]
            return seat, state.legal_actions(seat)[0]
        seat = awaiting[self._pick(len(awaiting))]
        legal = state.legal_actions(seat)
        if self.name != "random-any":
            if state.phase == Phase.AUCTION and PASS in legal and self._pick(10) < 7:
                return seat, PASS
            if state.phase == Phase.AUCTION:
                return seat, legal[0]
            if self.name == "arrange" and AUTO in legal:
                return seat, AUTO
        return seat, legal[self._pick(len(legal))]


def _sha(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:32]


def _events(events: tuple[Event, ...]) -> list[Any]:
    return [[e.kind, e.data, e.only, list(e.hidden_from)] for e in events]


def _views(state: EightyThreeState) -> list[Any]:
    return [state.view(seat).to_wire() for seat in (None, 0, 1, 2, 3)]


def transcript(config: dict[str, Any]) -> dict[str, Any]:
    """Play ``config`` and return its result fields (see :data:`RESULT_FIELDS`)."""
    options = GAME.options(**config["options"])
    t = GAME.new_match(options, 4, config["match_seed"], deal_code=config["deal_code"])
    state: EightyThreeState = t.state
    policy = ScriptedPolicy(config["policy"], config["policy_seed"])
    every = config["every"]
    events, views, actions = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    events.update(json.dumps(_events(t.events), sort_keys=True).encode())
    views.update(json.dumps(_views(state), sort_keys=True).encode())
    digests = [state.digest()]
    count = 0
    while state.phase != Phase.MATCH_OVER and count < config["max_actions"]:
        seat, move = policy.choose(state)
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
        "hands": state.round,
        "phase": state.phase.wire,
        "outcome": None if outcome is None else outcome.to_wire(),
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
        if key != "digests" and expected.get(key) != actual.get(key):
            out.append(f"{key}: recorded {expected.get(key)!r}, now {actual.get(key)!r}")
    recorded, now = expected.get("digests", []), actual["digests"]
    for i, (a, b) in enumerate(zip(recorded, now, strict=False)):
        if a != b:
            every = expected["every"]
            out.insert(0, f"states first differ between action {(i - 1) * every if i else 0} and {i * every}")
            break
    else:
        if len(recorded) != len(now):
            out.append(f"digests: {len(recorded)} recorded, {len(now)} now")
    if out and all(expected.get(k) == actual.get(k) for k in BEHAVIOUR_FIELDS):
        out.append("the actions, events and views are the same: only to_data changed (bump its schema)")
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
        + "\nIf intended, run python tests/games/eighty_three/test_e83_golden.py --write and say why."
    )


def test_the_golden_files_are_the_configured_ones() -> None:
    goldens = [load(p) for p in golden_files()]
    assert [g["name"] for g in goldens] == sorted(c["name"] for c in CONFIGS)
    for g in goldens:
        assert g["actions"] > 0 and len(g["digests"]) == 1 + g["actions"] // g["every"]
        assert set(g) >= set(CONFIG_FIELDS) | set(RESULT_FIELDS)
    assert sum(g["phase"] == "match_over" for g in goldens) >= 3  # whole matches among them
    assert {g["policy"] for g in goldens} == {"first", "random-any", "modest", "arrange"}


def test_a_changed_transcript_is_detected() -> None:
    golden = load(golden_files()[0])
    config = {k: golden[k] for k in CONFIG_FIELDS}
    other = dict(config, policy="random-any" if config["policy"] != "random-any" else "first", policy_seed=1)
    problems = differences(golden, transcript(other))
    assert problems and any("actions_digest" in p for p in problems)


def write() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for config in CONFIGS:
        record = {**config, **transcript(config)}
        path = GOLDEN / f"{config['name']}.json"
        path.write_text(json.dumps(record, indent=1, sort_keys=False) + "\n", encoding="utf-8")
        print(f"wrote {path.name}: {record['actions']} actions, {record['hands']} hands, {record['phase']}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/games/eighty_three/test_e83_golden.py --write")
    write()
