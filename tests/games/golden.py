"""Golden transcripts for every game: recorded matches, readable and diffable, that must replay identically.

Like OpenSpiel's playthroughs (and python-chess's perft files before them):
each file in ``tests/games/<game>/golden/<name>.txt`` starts with the run it
records (a header of ``key: value`` lines, values in JSON: preset, options,
seats, match seed, deal code of round 1, a scripted policy and its seed, a cap
on actions, how often to record the state) and then, step by step, what
happened: the seat and the action (in wire form), each event with its audience
(``all``, ``seat N`` for one seat's eyes, ``all but N``), a one-line summary of
the acting seat's view afterwards with a short digest of every seat's and a
spectator's view, and every ``every`` actions a digest of the state record
(``to_data``). It ends with the phase, the number of actions and rounds, and
the outcome. A change of behaviour shows as a diff of these lines, at the
first step that differs, not as a changed digest.

The header is the specification: to add a transcript, write a file holding only
a header (the keys of :data:`HEADER`) and run the writer, which rewrites every
file from its header::

    .venv/bin/python tests/games/golden.py --write [--game NAME] [--only NAME]

(read the diff before committing: an optimisation must never change these
files; a rule fix says why in its commit).

The scripted policies use only :class:`meja.rules.rng.Rng` (its output is
specified), so a transcript means the same on every Python version. Every game
has :data:`POLICIES`:

- ``first``: the lowest awaited seat takes its first legal action (in sorted
  order); when no seat is awaited, the first timed action is applied;
- ``random-any``: a random awaited seat takes a uniformly random legal action
  (the seat drawn even when one is awaited); timed actions as ``first``.

A game may add or replace policies in ``tests/games/<game>/golden_policies.py``
(``POLICIES``, the same shape): the only per-game code of its transcripts.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import importlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script (the writer): tests/ on the path, every game registered
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import conftest  # noqa: F401  (registers the test-only game)

from meja import games
from meja.rules import Event
from meja.rules.rng import Rng

ROOT = Path(__file__).resolve().parent

#: The header's keys, in order: what a transcript records.
HEADER = (
    "game", "name", "preset", "options", "seats", "match_seed", "deal_code", "policy", "policy_seed",
    "max_actions", "every",
)  # fmt: skip
#: The line that ends the header.
RULE = "---"
#: A view summary longer than this is cut (the views' digest on the same line holds all of them).
SUMMARY_WIDTH = 150
#: View fields the summary leaves out: the same at every step, or the step's number (``version``).
SAME = frozenset({"game", "preset", "seat", "seats", "version"})

Pick = Callable[[int], int]
"""``pick(n)``: an index below ``n``, from the policy's own :class:`Rng`."""
Choose = Callable[[Any], "tuple[int, Any]"]
"""A scripted policy during one match: ``choose(state) -> (seat, action)``."""
PolicyMaker = Callable[[Pick], Choose]
"""What a policy's name stands for: given the match's ``pick``, the policy of that match."""


def timed(state: Any) -> tuple[int, Any]:
    """The first timed action (a policy's move when no seat is awaited)."""
    first = state.timed_actions()[0]
    return first.seat, first.action


def first(pick: Pick) -> Choose:
    def choose(state: Any) -> tuple[int, Any]:
        awaiting = state.awaiting()
        if not awaiting:
            return timed(state)
        return awaiting[0], state.legal_actions(awaiting[0])[0]

    return choose


def random_any(pick: Pick) -> Choose:
    def choose(state: Any) -> tuple[int, Any]:
        awaiting = state.awaiting()
        if not awaiting:
            return timed(state)
        seat = awaiting[pick(len(awaiting))]
        legal = state.legal_actions(seat)
        return seat, legal[pick(len(legal))]

    return choose


POLICIES: dict[str, PolicyMaker] = {"first": first, "random-any": random_any}


def folder(game: str) -> Path:
    """Where a game's transcripts are."""
    return ROOT / game / "golden"


def policies(game: str) -> dict[str, PolicyMaker]:
    """:data:`POLICIES` with the game's own (``tests/games/<game>/golden_policies.py``, if any)."""
    if not (ROOT / game / "golden_policies.py").is_file():
        return dict(POLICIES)
    own: dict[str, PolicyMaker] = importlib.import_module(f"games.{game}.golden_policies").POLICIES
    return {**POLICIES, **own}


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(value: Any) -> str:
    return hashlib.sha256(_json(value).encode()).hexdigest()[:12]


def _audience(event: Event) -> str:
    if event.only is not None:
        return "seat " + ",".join(str(s) for s in event.only)
    if event.hidden_from:
        return "all but " + ",".join(str(s) for s in event.hidden_from)
    return "all"


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        if len(value) <= 8 and all(not isinstance(v, (dict, list, tuple)) for v in value):
            return "[" + ",".join(_short(v) for v in value) + "]"
        return f"#{len(value)}"
    if isinstance(value, str):
        return value
    return _json(value)


def summary(wire: dict[str, Any]) -> str:
    """One line of a view: its fields in order but :data:`SAME`, lists longer than eight (or of
    objects) and the legal actions as ``#`` and their length."""
    line = " ".join(f"{k}={_short(v)}" for k, v in wire.items() if k not in SAME)
    return line if len(line) <= SUMMARY_WIDTH else line[: SUMMARY_WIDTH - 3] + "..."


def play(config: dict[str, Any]) -> Iterator[tuple[int | None, Any, tuple[Event, ...], Any]]:
    """The steps of ``config``'s match: ``(seat, action, events, state after)``; the deal first, seat ``None``."""
    game = games.get(config["game"]).game
    options = game.options_from_wire({"preset": config["preset"], **config["options"]})
    t = game.new_match(options, config["seats"], config["match_seed"], deal_code=config["deal_code"])
    state = t.state
    yield None, None, t.events, state
    makers = policies(config["game"])
    if config["policy"] not in makers:
        raise ValueError(f"{config['game']} has no golden policy {config['policy']!r}; known: {sorted(makers)}")
    rng = Rng(config["policy_seed"] or 0, "golden-policy")

    def pick(n: int) -> int:
        nonlocal rng
        index, rng = rng.randbelow(n)
        return index

    choose = makers[config["policy"]](pick)
    count = 0
    while state.outcome() is None and count < config["max_actions"]:
        seat, action = choose(state)
        t = state.apply(seat, action)
        state = t.state
        count += 1
        yield seat, action, t.events, state


def transcript(config: dict[str, Any]) -> str:
    """The whole file for ``config``: its header, then every step."""
    lines = [f"{key}: {_json(config[key])}" for key in HEADER]
    lines.append(RULE)
    count = 0
    state: Any = None
    for seat, action, events, state in play(config):
        if seat is None:
            lines.append("deal")
        else:
            count += 1
            lines.append(f"{count} seat {seat}: {_json(action.to_wire())}")
        for e in events:
            lines.append(f"  {_audience(e)}: {e.kind} {_json(e.data)}")
        views = [state.view(s).to_wire() for s in (None, *range(state.seats))]
        mine = views[0 if seat is None else seat + 1]
        lines.append(f"  view {'-' if seat is None else seat} #{_digest(views)}: {summary(mine)}")
        if count % config["every"] == 0:
            lines.append(f"  state #{_digest(state.to_data())}")
    outcome = state.outcome()
    lines.append(f"end: {count} actions, round {state.round}, phase {state.view(None).to_wire().get('phase')}")
    lines.append(f"outcome: {_json(None if outcome is None else outcome.to_wire())}")
    return "\n".join(lines) + "\n"


def header(text: str) -> dict[str, Any]:
    """The run a transcript (or a file holding only a header) records."""
    config: dict[str, Any] = {}
    for line in text.splitlines():
        if line == RULE:
            break
        key, _, value = line.partition(": ")
        config[key] = json.loads(value)
    missing = [k for k in HEADER if k not in config]
    if missing:
        raise ValueError(f"a golden header lacks {missing}")
    return config


def files(game: str | None = None) -> list[Path]:
    """Every transcript (of ``game``, or of every registered game)."""
    names = [game] if game is not None else list(games.names())
    return sorted(p for name in names for p in folder(name).glob("*.txt"))


def differences(recorded: str, now: str, context: int = 3, limit: int = 60) -> list[str]:
    """A unified diff of a recorded transcript and a replayed one, cut to ``limit`` lines (empty: the same)."""
    if recorded == now:
        return []
    old, new = recorded.splitlines(), now.splitlines()
    diff = list(difflib.unified_diff(old, new, "recorded", "now", n=context, lineterm=""))
    return diff[:limit] + ([f"... {len(diff) - limit} more lines"] if len(diff) > limit else [])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="rewrite the golden transcripts from their headers")
    parser.add_argument("--write", action="store_true", help="rewrite (without it: list the files that would change)")
    parser.add_argument("--game", help="only this game's")
    parser.add_argument("--only", help="only the transcript of this name")
    args = parser.parse_args(argv)
    changed = 0
    for path in files(args.game):
        if args.only and path.stem != args.only:
            continue
        old = path.read_text(encoding="utf-8")
        new = transcript(header(old))
        if new != old:
            changed += 1
            print(f"{path.relative_to(ROOT.parent)}: {'rewritten' if args.write else 'would change'}")
            if args.write:
                path.write_text(new, encoding="utf-8")
    return 1 if changed and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
