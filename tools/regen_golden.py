#!/usr/bin/env python3
"""Regenerate the golden transcripts of tests/games/crazy_eights/golden/ (see tests/games/crazy_eights/test_golden.py).

    .venv/bin/python tools/regen_golden.py            # check: which files would change (exit 1 if any)
    .venv/bin/python tools/regen_golden.py --write    # rewrite them (read the warning first)
    .venv/bin/python tools/regen_golden.py --write --only party-8-random-any

The golden files are the record of how the game behaves. Rewriting them makes
any change of behaviour pass the tests, so do it only for an intended rule
change, and say which rule changed in the commit message. A change made for
speed or tidiness must leave every file as it is: if the check mode reports a
difference after such a change, the change is a bug.

The configurations are :data:`CONFIGS` below: deal codes and match seeds are
derived from each configuration's name (a SHA-256), so regenerating never
picks new deals; a configuration that asks for a starter 8 takes the first
derived seed whose deal turns an 8 up.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TEST = ROOT / "tests" / "games" / "crazy_eights" / "test_golden.py"

#: name, preset, seats, policy, policy seed, options; extras: starter_eight, max_actions, every.
CONFIGS: list[dict[str, Any]] = [
    {"name": "house-2-first", "preset": "house", "seats": 2, "policy": "first"},
    {"name": "house-2-random-card", "preset": "house", "seats": 2, "policy": "random-card", "policy_seed": 11},
    {"name": "house-2-random-any", "preset": "house", "seats": 2, "policy": "random-any", "policy_seed": 12,
     "every": 100},
    {"name": "house-3-last-play", "preset": "house", "seats": 3, "policy": "last-play"},
    {"name": "house-3-random-card", "preset": "house", "seats": 3, "policy": "random-card", "policy_seed": 13},
    {"name": "classic-2-first", "preset": "classic", "seats": 2, "policy": "first"},
    {"name": "classic-3-bury", "preset": "classic", "seats": 3, "policy": "first", "starter_eight": True},
    {"name": "classic-3-random-any", "preset": "classic", "seats": 3, "policy": "random-any", "policy_seed": 14},
    {"name": "classic-4-optional", "preset": "classic", "seats": 4, "policy": "random-any", "policy_seed": 15,
     "options": {"drawn_card_play": "optional"}},
    {"name": "party-2-last-play", "preset": "party", "seats": 2, "policy": "last-play"},
    {"name": "party-3-starter-eight", "preset": "party", "seats": 3, "policy": "random-card", "policy_seed": 16,
     "starter_eight": True},
    {"name": "party-4-wins", "preset": "party", "seats": 4, "policy": "random-card", "policy_seed": 17,
     "options": {"match_mode": "wins", "rounds": 3, "starter_eight_chooser": "first_player"}},
    {"name": "party-5-random-card", "preset": "party", "seats": 5, "policy": "random-card", "policy_seed": 18},
    {"name": "party-6-first", "preset": "party", "seats": 6, "policy": "first"},
    {"name": "party-8-random-any", "preset": "party", "seats": 8, "policy": "random-any", "policy_seed": 19},
]

WARNING = """
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!!  REWRITING THE GOLDEN TRANSCRIPTS                                          !!
!!  These files are the record of how Crazy Eights behaves. After this, any   !!
!!  change of behaviour passes tests/games/crazy_eights/test_golden.py. Do it only for an  !!
!!  intended rule change, and name the rule in the commit message. An         !!
!!  optimisation must never need this.                                        !!
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
"""


def load_test_module() -> ModuleType:
    """tests/games/crazy_eights/test_golden.py, which holds the policies and the replay (one source of truth)."""
    spec = importlib.util.spec_from_file_location("meja_test_golden", TEST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _derived(name: str, k: int, bits: int) -> int:
    digest = hashlib.sha256(f"meja-golden/{name}/{k}".encode()).digest()
    return int.from_bytes(digest, "big") >> (256 - bits)


def full_config(entry: dict[str, Any]) -> dict[str, Any]:
    """The configuration written in the file: with its deal code and match seed."""
    from meja.games.crazy_eights import dealcode
    from meja.rules import get_game

    game = get_game("crazy_eights")
    preset, seats = entry["preset"], entry["seats"]
    options = game.options(preset, **entry.get("options", {}))
    # house: seat 0 leads round 1 (1.2.1); with a dealer, seat 0 deals and seat 1 leads
    leader = 0 if not options.has_dealer else 1
    k = 0
    while True:
        seed = _derived(entry["name"], k, dealcode.SEED_BITS)
        code = dealcode.encode(dealcode.DealSpec(preset, seats, leader, seed))
        if not entry.get("starter_eight"):
            break
        t = game.new_match(options, seats, 0, deal_code=code)
        start = next(e for e in t.events if e.kind == "round_start")
        if "buried" in start.data or start.data["starter"].startswith("8"):
            break
        k += 1
    return {
        "name": entry["name"],
        "preset": preset,
        "options": entry.get("options", {}),
        "seats": seats,
        "match_seed": _derived(entry["name"], -1, 64),
        "deal_code": code,
        "policy": entry["policy"],
        "policy_seed": entry.get("policy_seed"),
        "max_actions": entry.get("max_actions", 20_000),
        "every": entry.get("every", 20),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="rewrite the files (after a loud warning)")
    parser.add_argument("--only", action="append", metavar="NAME", help="only this configuration")
    args = parser.parse_args(argv)
    test = load_test_module()
    golden_dir: Path = test.GOLDEN
    entries = [e for e in CONFIGS if not args.only or e["name"] in args.only]
    if args.only and len(entries) != len(args.only):
        print(f"unknown configuration in {args.only}; known: {[e['name'] for e in CONFIGS]}", file=sys.stderr)
        return 2
    if args.write:
        print(WARNING, file=sys.stderr)
    changed = 0
    for entry in entries:
        config = full_config(entry)
        result = test.transcript(config)
        path = golden_dir / f"{config['name']}.json"
        record = {
            "_comment": "Generated by tools/regen_golden.py; checked by tests/rules/test_golden.py."
            " Do not edit: this is the record of the engine's behaviour.",
            **config,
            **result,
        }
        old = test.load(path) if path.exists() else None
        if old == record:
            print(f"unchanged  {path.name}")
            continue
        changed += 1
        if old is None:
            print(f"new        {path.name}")
        else:
            for line in test.differences(old, result) or ["configuration changed"]:
                print(f"CHANGED    {path.name}: {line}")
        if args.write:
            golden_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
            print(f"  written  {path.relative_to(ROOT)}")
    if changed and not args.write:
        print(f"{changed} file(s) differ; nothing written (use --write, and read its warning)")
        return 1
    if args.write and changed:
        print(WARNING, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
