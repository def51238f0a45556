"""Snap, the test-only game: registered from tests/ alone (``meja.games.load("toy_game")``,
or ``MEJA_GAMES=toy_game`` with tests/ on the server's ``PYTHONPATH``). See :mod:`.rules`."""

from pathlib import Path

from meja.games.plugin import GamePlugin

from . import bots
from .rules import GAME

PLUGIN = GamePlugin(
    game=GAME,
    bots=bots.make_bot,
    levels=bots.LEVELS,
    yardsticks=bots.YARDSTICKS,
    terms=("burn",),
    protocol=Path(__file__).resolve().parent / "PROTOCOL.md",
)
