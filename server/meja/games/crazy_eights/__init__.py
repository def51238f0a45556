"""Crazy Eights: the ``house`` rules (the product's default) and the ``classic`` and ``party`` presets.

Its folder follows the conventions of :meth:`meja.games.plugin.GamePlugin.in_folder`
(rules, dealcode, bots, page, protocol section and fixtures, playouts, narration,
lessons), so :data:`PLUGIN` declares only the words the shell must not use.
"""

from meja.games.plugin import GamePlugin

PLUGIN = GamePlugin.in_folder(
    __name__,
    terms=("eight", "eights", "suit", "reshuffle", "starter", "stock", "penalty"),
)
