"""The ``meja`` command: ``meja serve``, ``meja demo`` and ``meja bench rules|bots|server``.

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
    "demo": ("meja.demo", "play a round between bots in the terminal"),
}
BENCHMARKS: dict[str, tuple[str, str]] = {
    "rules": ("meja.bench.rules", "random playouts of the rules engine: rounds/s, actions/s"),
    "bots": ("meja.bench.bots", "duplicate-deal strength of the bot levels"),
    "server": ("meja.bench.server", "load test of real server processes and Redis"),
}


def _add(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, module: str, help: str) -> None:
    parser = sub.add_parser(name, help=help, description=help)
    parser.set_defaults(_module=module)
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        parser.set_defaults(_missing=True)
        return
    mod.add_arguments(parser)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meja", description="Meja, a multiplayer card-table server.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help) in COMMANDS.items():
        _add(sub, name, module, help)
    bench = sub.add_parser("bench", help="benchmarks that print figures (--json for JSON)")
    bench_sub = bench.add_subparsers(dest="benchmark", required=True)
    for name, (module, help) in BENCHMARKS.items():
        _add(bench_sub, name, module, help)
    args = parser.parse_args(argv)
    if getattr(args, "_missing", False):
        print(f"meja: {args._module} is not part of this build", file=sys.stderr)
        return 2
    mod = importlib.import_module(args._module)
    result: int = mod.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
