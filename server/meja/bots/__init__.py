"""What every game's bots share: the policy interface, the decision seed, and one search.

The bots themselves live with their game (``meja/games/<name>/bots``); the
server finds them through the game's :class:`meja.games.GamePlugin`. A game's
searching ``hard`` bot runs on :mod:`meja.bots.search` over what its seat knows
(:mod:`meja.bots.infoset`), supplying only its hooks (docs/bots.md 5).
"""

from .base import Bot, History, RandomAnyBot, Roster, decision_rng

__all__ = ["Bot", "History", "RandomAnyBot", "Roster", "decision_rng"]
