"""What reading a game's options argument shares across games.

A game's ``new_match`` and scenario builder take options as the game's options
value or by a preset's name; anything else is a :class:`BadOptionsError`, worded
the same in every game. The options themselves (fields, presets, checks) are the
game's: see :class:`meja.rules.game.GameInfo` and :func:`meja.rules.game.check_options`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .errors import BadOptionsError

__all__ = ["options_or_preset"]

Opts = TypeVar("Opts")


def options_or_preset(options: Any, kind: type[Opts], preset: Callable[[str], Opts]) -> Opts:
    """``options`` if it is a ``kind``; the preset it names (``preset(name)``) if it is a name."""
    if isinstance(options, str):
        return preset(options)
    if not isinstance(options, kind):
        raise BadOptionsError(f"options must be {kind.__name__} or a preset name, not {options!r}")
    return options
