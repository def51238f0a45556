"""Eighty-Three: the partnership bidding and trick-taking game of seed 003 (Pedro / Cinch family).

The folder holds everything of the game: :mod:`.rules` (the engine),
:mod:`.dealcode`, :mod:`.bots` (the levels easy, normal and hard, the frozen
``yardstick`` and ``random-any``), ``PROTOCOL.md`` (its section of the wire
protocol), :mod:`.fixtures` and ``fixtures/`` (its golden frames),
:mod:`.playouts` (how ``meja bench rules --game eighty_three`` plays it),
:mod:`.bench_bots` (``meja bench bots --game eighty_three``), :mod:`.narration`
(how ``meja demo --game eighty_three`` tells a hand) and ``page/`` (its module for the page shell:
JS, CSS, strings in four languages).
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
    # Words of this game only: the server, store, protocol core and page shell never use them.
    terms=(
        "trump", "kitty", "bidder", "trick", "pedro", "joker", "auto_arrange",
        "partner_trumps", "must_win_on_own_bid",
    ),
)  # fmt: skip
