"""Crazy Eights: the ``house`` rules (the product's default) and the ``classic`` and ``party`` presets.

The folder holds everything of the game: :mod:`.rules` (the engine), :mod:`.dealcode`,
:mod:`.bots` (three levels and the frozen yardsticks), ``page/`` (its module for
the page shell: JS, CSS, strings), ``PROTOCOL.md`` (its section of the wire
protocol) and ``fixtures/`` (its golden frames). :data:`PLUGIN` is what the
registry (:mod:`meja.games`) knows of it.
"""

from meja.games.plugin import GamePlugin, Narration

from . import bots, lessons, narration, playouts
from .rules import GAME

PLUGIN = GamePlugin.in_folder(
    __name__,
    GAME,
    bots,
    playouts=playouts.PLAYOUTS,
    narration=Narration(narration.opening, narration.LINES),
    lessons=lessons.guide,
    terms=("eight", "eights", "suit", "reshuffle", "starter", "stock", "penalty"),
)
