"""``meja bench bots`` for any game: ``--game NAME``.

Each game keeps its own bots benchmark module in its folder (named by its
:class:`meja.games.GamePlugin`: ``bench_bots``), since
what a fair measurement is depends on the game (duplicate deals rotate one
candidate through every seat in one game, a pair of partners in another). This
module picks the game's module from ``--game`` (the first game by default) and
hands it the command line: each module provides ``add_arguments(parser)`` and
``run(args) -> int``, like every ``meja`` command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from meja import games

__all__ = ["command", "game_in"]


def game_in(argv: Sequence[str]) -> str:
    for i, word in enumerate(argv):
        if word == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--game="):
            return word.partition("=")[2]
    return games.names()[0]


class _PerGame:
    """A command whose work is the game's own module, named by the plugin attribute ``attr``."""

    def __init__(self, attr: str) -> None:
        self.attr = attr
        self.module: ModuleType | None = None

    def add_arguments(self, parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> None:
        name = game_in(sys.argv[1:] if argv is None else argv)
        parser.add_argument(
            "--game", default=games.names()[0], choices=games.names(), help="the game (default: %(default)s)"
        )
        try:
            plugin = games.get(name)
        except KeyError:
            return  # argparse refuses the --game value with the list of games
        module_name = getattr(plugin, self.attr)
        if module_name is None:
            parser.set_defaults(_missing=f"{name} has no {self.attr.replace('_', ' ')} module")
            return
        self.module = importlib.import_module(module_name)
        self.module.add_arguments(parser)

    def run(self, args: Any) -> int:
        missing = getattr(args, "_missing", None)
        if missing is not None or self.module is None:
            print(f"meja: {missing}", file=sys.stderr)
            return 2
        result: int = self.module.run(args)
        return result


def command(attr: str) -> _PerGame:
    return _PerGame(attr)
