"""Crazy Eights: the ``house`` rules (the product's default) and the ``classic`` and ``party`` presets.

The folder holds everything of the game: :mod:`.rules` (the engine), :mod:`.dealcode`,
:mod:`.bots` (three levels and the frozen yardsticks), ``page/`` (its module for
the page shell: JS, CSS, strings), ``PROTOCOL.md`` (its section of the wire
protocol) and ``fixtures/`` (its golden frames). :data:`PLUGIN` is what the
registry (:mod:`meja.games`) knows of it.
"""

from pathlib import Path

from meja.games.plugin import GamePlugin, Narration

from . import bots, lessons, narration, playouts
from .rules import GAME

HERE = Path(__file__).resolve().parent

PLUGIN = GamePlugin(
    game=GAME,
    bots=bots.make_bot,
    levels=bots.LEVELS,
    yardsticks=bots.YARDSTICKS,
    default_level="normal",
    page=HERE / "page",
    protocol=HERE / "PROTOCOL.md",
    fixtures="meja.games.crazy_eights.fixtures",
    playouts=playouts.PLAYOUTS,
    bench_bots="meja.games.crazy_eights.bench_bots",
    narration=Narration(narration.opening, narration.LINES),
    lessons=lessons.guide,
    terms=("eight", "eights", "suit", "reshuffle", "starter", "stock", "penalty"),
)
