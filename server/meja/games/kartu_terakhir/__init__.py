"""Kartu Terakhir ("Last Card"): the UNO-like game of seed 002, for 2-10 seats.

The folder holds everything of the game: :mod:`.rules` (the engine; its
docstring is the rules in brief), :mod:`.dealcode`, :mod:`.bots` (three levels
and three frozen yardsticks), ``PROTOCOL.md`` (its section of the wire protocol),
:mod:`.fixtures` (its golden frames), :mod:`.playouts` (how ``meja bench rules
--game kartu_terakhir`` plays it), :mod:`.bench_bots` (``meja bench bots --game
kartu_terakhir``) and :mod:`.narration` (how ``meja demo --game kartu_terakhir``
tells a round).
:data:`PLUGIN` is what the registry (:mod:`meja.games`) knows of it.
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
    # Words of this game the shell (server, store, protocol core, page shell) must not use.
    # Not "catch", "call", "draw", "play", "take", "keep", "skip", "reverse", "colour":
    # the shell uses those in their ordinary senses (a JS promise's catch, a Redis call...).
    terms=(
        "wild",
        "wd4",
        "draw two",
        "draw four",
        "challenge",
        "bluff",
        "stacking",
        "stacking_mandatory",
        "reaction_ms",
        "tangkap",
        "lewati",
        "putar balik",
        "ambil dua",
        "ganti warna",
        "menumpuk",
    ),
)
