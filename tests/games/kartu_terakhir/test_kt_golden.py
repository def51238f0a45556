"""Golden transcripts: recorded Kartu Terakhir matches that must replay identically.

Like python-chess's perft files and Crazy Eights' goldens: each file in
``golden/`` names its options, seat count, the deal code of round 1, the match
seed (later rounds), and a deterministic scripted policy; and records what the
engine did: the number of actions and rounds, the final phase and outcome, a
state digest every ``every`` actions and the final one, and digests of the
action log, of every event (with its audience) and of every seat's and a
spectator's view at each checkpoint.

The policies use only :class:`meja.rules.rng.Rng` (its output is specified), so a
transcript means the same on every Python version:

- ``first``: the first legal action of the lowest awaited seat (the lowest playable
  card; else draw; a Wild Draw Four is taken); in the reaction wait, the timed draw;
  nobody ever calls or catches;
- ``random-card``: a uniformly random play of the lowest awaited seat, else a random
  choice of take or challenge when both are offered, else its first legal action;
  when a catch window opens, the target calls, a random other seat catches, or
  nobody does, one chance in three each; in the reaction wait, the timed draw;
- ``random-all``: uniform over every (seat, action) pair of every actor; when a timed
  action is listed it is taken if there is nothing else or one time in three.

If this test fails, the engine's behaviour changed. If that was intended (a rule
fix), regenerate with ``python tests/games/kartu_terakhir/test_kt_golden.py --write``
and say why in the commit; an optimisation must never change these files.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # when run as a script (--write)

from meja.rules import Event
from meja.rules.rng import Rng

from games.kartu_terakhir.kt_helpers import CALL, CATCH, CHALLENGE, GAME, TAKE, KartuTerakhirState, Kind, Move

GOLDEN = Path(__file__).resolve().parent / "golden"

CONFIG_FIELDS = ("name", "options", "seats", "match_seed", "deal_code", "policy", "policy_seed", "max_actions", "every")
RESULT_FIELDS = (
    "actions", "rounds", "phase", "outcome", "digests", "final_digest", "actions_digest", "events_digest",
    "views_digest",
)  # fmt: skip
BEHAVIOUR_FIELDS = ("actions", "rounds", "phase", "outcome", "actions_digest", "events_digest", "views_digest")

#: What the files are made from (``--write``): name, options, seats, match seed, policy, policy seed, max actions.
SPECS: tuple[tuple[str, dict[str, Any], int, int, str, int | None, int], ...] = (
    ("kt-2-first", {}, 2, 0x6B74_0201, "first", None, 20000),
    ("kt-2-random-card-500", {"match": "500"}, 2, 0x6B74_0202, "random-card", 21, 20000),
    ("kt-4-random-card-stacking", {"stacking": True}, 4, 0x6B74_0401, "random-card", 41, 20000),
    ("kt-4-random-all", {}, 4, 0x6B74_0402, "random-all", 42, 20000),
    ("kt-7-random-card-mandatory", {"stacking": True, "stacking_mandatory": True}, 7, 0x6B74_0701, "random-card",
     71, 20000),
    ("kt-7-first-500", {"match": "500", "reaction_ms": 0}, 7, 0x6B74_0702, "first", None, 20000),
    ("kt-10-random-card", {}, 10, 0x6B74_1001, "random-card", 101, 20000),
    ("kt-10-random-all-stacking-500", {"stacking": True, "match": "500"}, 10, 0x6B74_1002, "random-all", 102, 8000),
)  # fmt: skip


class ScriptedPolicy:
    """A deterministic policy (see the module docstring), with its own :class:`Rng`."""

    def __init__(self, name: str, seed: int | None) -> None:
        if name not in ("first", "random-card", "random-all"):
            raise ValueError(f"unknown golden policy {name!r}")
        self.name = name
        self.rng = Rng(seed or 0, "golden-policy")
        self.window = -1

    def _pick(self, n: int) -> int:
        index, self.rng = self.rng.randbelow(n)
        return index

    def choose(self, state: KartuTerakhirState) -> tuple[int, Move]:
        if self.name == "random-all":
            choices = [(s, a) for s in state.actors() for a in state.legal_actions(s)]
            timed = state.timed_actions()
            if timed and (not choices or self._pick(3) == 0):
                return timed[0].seat, timed[0].action
            return choices[self._pick(len(choices))]
        fresh = state.window >= 0 and state.window != self.window
        self.window = state.window
        if fresh and self.name == "random-card":
            roll = self._pick(3)
            if roll == 0:
                return state.window, CALL
            if roll == 1:
                others = [s for s in range(state.seats) if s != state.window]
                return others[self._pick(len(others))], CATCH
        awaiting = state.awaiting()
        if not awaiting:
            timed = state.timed_actions()[0]
            return timed.seat, timed.action
        seat = awaiting[0]
        legal = state.legal_actions(seat)
        if self.name == "first":
            return seat, legal[0]
        plays = [a for a in legal if a.kind == Kind.PLAY]
        if plays:
            return seat, plays[self._pick(len(plays))]
        if TAKE in legal and CHALLENGE in legal:
            return seat, (TAKE, CHALLENGE)[self._pick(2)]
        return seat, legal[0]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _events(events: tuple[Event, ...]) -> list[Any]:
    return [[e.kind, e.data, e.only, list(e.hidden_from)] for e in events]


def _views(state: KartuTerakhirState) -> list[Any]:
    return [state.view(seat).to_wire() for seat in (None, *range(state.seats))]


def transcript(config: dict[str, Any]) -> dict[str, Any]:
    """Play ``config`` and return its result fields (:data:`RESULT_FIELDS`)."""
    options = GAME.options_from_wire(config["options"])
    t = GAME.new_match(options, config["seats"], config["match_seed"], deal_code=config["deal_code"])
    state: KartuTerakhirState = t.state
    policy = ScriptedPolicy(config["policy"], config["policy_seed"])
    every = config["every"]
    events, views, actions = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
    events.update(json.dumps(_events(t.events), sort_keys=True).encode())
    views.update(json.dumps(_views(state), sort_keys=True).encode())
    digests = [state.digest()]
    count = 0
    while state.outcome() is None and count < config["max_actions"]:
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
    phase = state.phase.wire
    return {
        "actions": count,
        "rounds": state.round,
        "phase": phase,
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
            lo = (i - 1) * expected["every"] if i else "the deal"
            out.insert(0, f"states first differ between action {lo} and action {i * expected['every']}")
            break
    else:
        if len(recorded) != len(now):
            out.append(f"digests: {len(recorded)} recorded, {len(now)} now")
    if out and all(expected.get(k) == actual.get(k) for k in BEHAVIOUR_FIELDS):
        out.append("the actions, events and views are the same: only to_data changed; bump its schema number")
    return out


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_transcript(path: Path) -> None:
    golden = load(path)
    config = {k: golden[k] for k in CONFIG_FIELDS}
    assert config["name"] == path.stem
    problems = differences(golden, transcript(config))
    assert not problems, (
        f"{path.name}: the engine's behaviour changed.\n  " + "\n  ".join(problems)
        + "\nIf intended, run python tests/games/kartu_terakhir/test_kt_golden.py --write and say why in the commit."
    )


def test_there_are_golden_transcripts_at_every_seat_count() -> None:
    goldens = [load(p) for p in golden_files()]
    assert [g["name"] for g in goldens] == sorted(s[0] for s in SPECS)
    assert {g["seats"] for g in goldens} == {2, 4, 7, 10}
    assert {g["policy"] for g in goldens} == {"first", "random-card", "random-all"}
    assert sum(g["phase"] == "match_over" for g in goldens) >= len(goldens) - 1
    assert any(g["rounds"] > 1 for g in goldens)  # a 500 match went on past round 1
    for g in goldens:
        assert g["actions"] > 0 and len(g["digests"]) == 1 + g["actions"] // g["every"]
        assert set(g) >= set(CONFIG_FIELDS) | set(RESULT_FIELDS)


def test_a_changed_transcript_is_detected() -> None:
    golden = load(golden_files()[0])
    config = {k: golden[k] for k in CONFIG_FIELDS}
    other = dict(config, policy="random-card" if config["policy"] != "random-card" else "first", policy_seed=5)
    problems = differences(golden, transcript(other))
    assert problems and any("actions_digest" in p for p in problems)


def write() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.glob("*.json"):
        old.unlink()
    for name, options, seats, seed, policy, policy_seed, max_actions in SPECS:
        opts = GAME.options_from_wire(options)
        code = GAME.new_match(opts, seats, seed).state.deal_code
        config: dict[str, Any] = {
            "name": name, "options": options, "seats": seats, "match_seed": seed, "deal_code": code,
            "policy": policy, "policy_seed": policy_seed, "max_actions": max_actions, "every": 25,
        }  # fmt: skip
        doc = {
            "_comment": "Generated by tests/games/kartu_terakhir/test_kt_golden.py --write; do not edit: this is "
            "the record of the engine's behaviour.",
            **config,
            **transcript(config),
        }
        (GOLDEN / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: {doc['actions']} actions, {doc['rounds']} rounds, {doc['phase']}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        sys.exit("usage: test_kt_golden.py --write")
