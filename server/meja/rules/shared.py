"""A view's lists, built once for every equal source and then shared.

Every seat's view of a version holds the same public lists (hand sizes, scores, ready flags,
winners, legal moves, the last round), and a list whose source did not change since the last
version is the very object built then. A shell that compares a view with the last one it sent
(the patch form, :mod:`meja.protocol.patch`) finds such a value to be the object it sent, and
looks no further. A view is read, never written: these lists are never changed by anyone.

One cache for every game: a source is keyed with the function that encodes its items, so that
``(1,)`` read as numbers never stands for ``(True,)`` read as flags (equal tuples, equal hashes).
So one encoding function takes one type of item: the cache compares items with ``==``, and
``shared_list(str, (True,))`` after ``shared_list(str, (1,))`` would give ``["1"]``.

Equal sources give the very same list, within a view too (a Crazy Eights view's ``scores`` and
``wins`` are one object while they are equal): whoever holds a view reads it and never changes it
in place (the patch form's clients apply patches to what they decoded from the wire, never to
these objects).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .game import Wire

__all__ = ["flags", "ints", "shared_list", "shared_value"]


@lru_cache(maxsize=16384)
def shared_list(encode: Callable[[Any], Wire], items: tuple[Any, ...]) -> list[Wire]:
    """``[encode(item) for item in items]``, the same list object for every equal ``(encode, items)``."""
    return [encode(item) for item in items]


@lru_cache(maxsize=1024)
def shared_value(encode: Callable[[Any], Wire], value: Any) -> Wire:
    """``encode(value)``, the same object for every equal ``(encode, value)`` (e.g. a round's result)."""
    return encode(value)


def ints(values: tuple[int, ...]) -> list[Wire]:
    """A tuple of numbers as a shared list."""
    return shared_list(int, values)


def flags(values: tuple[bool, ...]) -> list[Wire]:
    """A tuple of flags as a shared list."""
    return shared_list(bool, values)
