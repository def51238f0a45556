"""Snap, the test-only game: registered from tests/ alone (``meja.games.load("toy_game")``,
or ``MEJA_GAMES=toy_game`` with tests/ on the server's ``PYTHONPATH``). See :mod:`.rules`."""

from meja.games.plugin import GamePlugin

from . import bots
from .rules import GAME

PLUGIN = GamePlugin.in_folder(__name__, GAME, bots, terms=("burn",))
