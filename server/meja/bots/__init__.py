"""What every game's bots share: the policy interface and the decision seed.

The bots themselves live with their game (``meja/games/<name>/bots``); the
server finds them through the game's :class:`meja.games.GamePlugin`.
"""

from .base import Bot, History, RandomAnyBot, Roster, decision_rng

__all__ = ["Bot", "History", "RandomAnyBot", "Roster", "decision_rng"]
