"""The ``meja`` command: ``meja serve``, ``meja demo``, ``meja audit``, ``meja replay``, ``meja bench ...``.

Each subcommand lives in its own module, imported only when it runs, so that
``meja bench rules`` does not import websockets and ``meja serve`` does not
import the benchmarks. A module provides ``add_arguments(parser)`` and
``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("meja.server.main", "run the table server (embedded store unless --redis)"),
    "demo": ("meja.bench.demo", "play a round between bots in the terminal"),
    "audit": ("meja.server.audit", "replay tables' logs from the store and check what their clients were told"),
    "replay": ("meja.server.archive", "print the moves of an archived match (a /replay/ link's id)"),
}
BENCHMARKS: dict[str, tuple[str, str]] = {
    "rules": ("meja.bench.rules", "random playouts of the rules engine: rounds/s, actions/s"),
    "bots": ("meja.bench.bots", "duplicate-deal strength of the bot levels"),
    "server": ("meja.bench.server", "load test of real server processes and Redis"),
    "chaos": ("meja.bench.chaos", "tables played through random faults, then every accepted action audited"),
    "cluster": ("meja.bench.cluster", "a Redis Cluster's bus traffic and commit latency per move, by masters"),
}


#: Commands that run long enough (and allocate enough) for the collector's settings to matter.
LONG_RUNNING = frozenset({"serve", "server"})


def _chosen(argv: Sequence[str]) -> tuple[str, str] | None:
    """The (name, module) the command line asks for, found without importing anything."""
    words = [a for a in argv if not a.startswith("-")]
    if words[:1] == ["bench"] and len(words) > 1 and words[1] in BENCHMARKS:
        return words[1], BENCHMARKS[words[1]][0]
    if words and words[0] in COMMANDS:
        return words[0], COMMANDS[words[0]][0]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="meja", description="Meja, a multiplayer card-table server.")
    sub = parser.add_subparsers(dest="command", required=True)
    parsers: dict[str, argparse.ArgumentParser] = {}
    for name, (_, help) in COMMANDS.items():
        parsers[name] = sub.add_parser(name, help=help, description=help)
    bench = sub.add_parser("bench", help="benchmarks that print figures (--json for JSON)")
    bench_sub = bench.add_subparsers(dest="benchmark", required=True)
    for name, (_, help) in BENCHMARKS.items():
        parsers[name] = bench_sub.add_parser(name, help=help, description=help)
    chosen = _chosen(argv)
    module = None
    if chosen is not None:
        name, module_name = chosen
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            print(f"meja: {module_name} is not part of this build", file=sys.stderr)
            return 2
        if getattr(module, "WANTS_ARGV", False):
            module.add_arguments(parsers[name], argv)  # it reads the command line first (--game)
        else:
            module.add_arguments(parsers[name])
    args = parser.parse_args(argv)
    assert module is not None  # parse_args exits on anything that chose no command
    if chosen is not None and chosen[0] in LONG_RUNNING:
        from meja.runtime import tune

        tune()  # the collector's settings: see meja.runtime
    result: int = module.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
