"""Eighty-Three: the partnership bidding and trick-taking game of seed 003 (Pedro / Cinch family).

Four seats in two partnerships; the bots are the levels easy, normal and hard,
the frozen ``yardstick`` and ``random-any``. The folder's modules are found by
:meth:`meja.games.plugin.GamePlugin.in_folder`; :data:`PLUGIN` adds its own terms.
"""

from meja.games.plugin import GamePlugin

PLUGIN = GamePlugin.in_folder(
    __name__,
    # Words of this game only: the server, store, protocol core and page shell never use them.
    terms=(
        "trump", "kitty", "bidder", "trick", "pedro", "joker", "auto_arrange",
        "partner_trumps", "must_win_on_own_bid",
    ),
)  # fmt: skip
