"""Bots for Eighty-Three: interim placeholders, every name a uniformly random legal action.

These are NOT the game's bots. Real bots (bidding from the hand's trump
strength, ``auto_arrange`` in the discard phase, following and trumping by
the tricks' state) are the next task of another engineer. Until then every
name the host can choose (:data:`LEVELS`) and the yardstick
(:data:`YARDSTICKS`) is :class:`meja.bots.base.RandomAnyBot`: uniform over
``view.legal``. That is enough to fill seats and drive the server, because the
rules list only actions they accept and every random walk through them ends a
hand (``tests/games/eighty_three`` checks both); it is no opponent anyone
would choose.
"""

from __future__ import annotations

from typing import Any, Final

from meja.bots.base import Bot, RandomAnyBot

__all__ = ["LEVELS", "YARDSTICKS", "make_bot"]

#: What a host chooses for empty seats, easiest first: all placeholders for now.
LEVELS: Final = ("easy", "normal", "hard")
#: Frozen bots to measure the levels against.
YARDSTICKS: Final = ("random-any",)


def make_bot(name: str, **params: Any) -> Bot:
    """The bot called ``name``: for now :class:`RandomAnyBot` under every name (see the module docstring)."""
    if name not in LEVELS + YARDSTICKS:
        raise ValueError(f"eighty-three has no bot {name!r}; known: {list(LEVELS + YARDSTICKS)}")
    return RandomAnyBot()
