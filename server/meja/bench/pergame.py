"""Which game a ``meja bench`` command line asks for (``--game NAME``; the first game by default).

The benchmarks that take ``--game`` (``bots``, ``rules``, ``demo``) build their
options from the game's plugin, so they read ``--game`` before argparse parses
the rest (``WANTS_ARGV``: :func:`meja.cli.main` hands them the command line).
"""

from __future__ import annotations

from collections.abc import Sequence

from meja import games

__all__ = ["game_in"]


def game_in(argv: Sequence[str]) -> str:
    for i, word in enumerate(argv):
        if word == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--game="):
            return word.partition("=")[2]
    return games.names()[0]
