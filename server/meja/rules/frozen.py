"""What every game's state does the same way: it is frozen, copied by its instance dict, and hashed.

A game's state is a frozen dataclass *without* ``slots=True``, on purpose: the next
state is the old one's instance dict copied in one ``dict.update`` and then changed
(:meth:`FrozenState._evolve_with`), several times cheaper than
``dataclasses.replace`` on the hot path (``meja bench rules``). Caches derived from
the fields live in the instance dict under names the copy drops (``_legal``, the
seat on turn's legal actions).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Self

__all__ = ["FrozenState", "digest"]


def digest(data: Mapping[str, Any]) -> str:
    """A short hash of a state's record (:meth:`State.to_data`): golden transcripts, replay checks."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class FrozenState:
    """Mix it into a game's state class, before :class:`~meja.rules.game.StateDefaults`.

    It has no fields, so it suits frozen dataclasses; a game whose copies drop
    other caches overrides :meth:`_evolve`.
    """

    __slots__ = ()

    def _evolve(self, **changes: Any) -> Self:
        """A copy with ``changes`` (the state is frozen: this is the only way it 'changes')."""
        return self._evolve_with(changes)

    def _evolve_with(self, changes: dict[str, Any]) -> Self:
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        d.pop("_legal", None)
        return new

    def digest(self) -> str:
        """A short hash of the whole state (for golden transcripts and replay checks)."""
        return digest(self.to_data())  # type: ignore[attr-defined]
