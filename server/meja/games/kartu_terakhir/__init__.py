"""Kartu Terakhir ("Last Card"): the UNO-like game of seed 002, for 2-10 seats.

:mod:`.rules` is the engine (its docstring: the rules in brief); the other
modules of the folder (three bot levels and three frozen yardsticks, the
playouts, the narration...) are picked up by name by
:meth:`meja.games.plugin.GamePlugin.in_folder`.
"""

from meja.games.plugin import GamePlugin

PLUGIN = GamePlugin.in_folder(
    __name__,
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
