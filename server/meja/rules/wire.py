"""Reading an untrusted action: what every game's ``Game.decode_action`` does first.

An action arrives as a map from the wire (``{"kind": "play", "card": "7H"}``); the
game's decoder is the only door for it, strict about keys, types and spellings. The
first step is the same in every game: a map, whose ``kind`` is one of the game's
wire names. The rest (which fields a kind takes, how a card is spelled) is the game's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from .errors import BadActionError

__all__ = ["action_kind"]

K = TypeVar("K")


def action_kind(data: Any, kinds: Mapping[str, K]) -> K:
    """The kind ``data`` names, one of ``kinds`` (wire name to kind, in the order an error lists
    them); :class:`BadActionError` when ``data`` is not a map or names no kind of the game."""
    if not isinstance(data, dict):
        raise BadActionError(f"an action is a map, not {data!r}")
    raw = data.get("kind")
    kind = kinds.get(raw) if isinstance(raw, str) else None
    if kind is None:
        raise BadActionError(f"unknown action kind {raw!r}; known: {list(kinds)}")
    return kind
