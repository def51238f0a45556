"""Kartu Terakhir's bots: **interim placeholders**, all of them.

Every name here (the three levels a host chooses and the ``random-any``
yardstick) is :class:`meja.bots.base.RandomAnyBot`: uniform over every legal
action, out of turn too (it never declines a catch or a call). They exist so
that a table of this game can seat bots and play through the server today;
real bots (a challenge policy, the seed's tips of kartu-terakhir.md 3.9.6,
catches after a human-like pause) are the next piece of work and will replace
the levels, not the yardstick.
"""

from __future__ import annotations

from typing import Any

from meja.bots.base import Bot, RandomAnyBot

__all__ = ["LEVELS", "YARDSTICKS", "make_bot"]

LEVELS = ("easy", "normal", "hard")
YARDSTICKS = ("random-any",)


def make_bot(name: str, **params: Any) -> Bot:
    """The bot called ``name`` (for now a :class:`RandomAnyBot` for every name; ``ValueError`` otherwise)."""
    if name not in LEVELS + YARDSTICKS:
        raise ValueError(f"Kartu Terakhir has no bot {name!r}; known: {list(LEVELS + YARDSTICKS)}")
    return RandomAnyBot()
