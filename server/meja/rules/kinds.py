"""Enumerations that travel on the wire by name: a game's action kinds and phases.

Every game numbers its action kinds (the order its legal actions sort in) and its
phases, and writes each on the wire as a lower-case word. :class:`WireEnum` says
that once: a member's :attr:`~WireEnum.wire` is its name in lower case, unless
the enumeration spells a member otherwise (:meth:`WireEnum.spelled`), and
:meth:`WireEnum.by_wire` is the reverse map a decoder reads an untrusted kind
with (:func:`meja.rules.wire.action_kind`).

The wire name is an attribute of the member, set once when the class is built:
reading it is a dict look-up, as cheap as the tuple each game used to index.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Self

__all__ = ["WireEnum"]


class WireEnum(IntEnum):
    """An :class:`~enum.IntEnum` whose members each have a wire name (:attr:`wire`)."""

    #: the member's name on the wire
    wire: str

    def __init__(self, *_: object) -> None:
        self.wire = self.spelled(self.name)

    @staticmethod
    def spelled(name: str) -> str:
        """The wire name of the member called ``name``: by default ``name`` in lower case."""
        return name.lower()

    @classmethod
    def by_wire(cls) -> dict[str, Self]:
        """Wire name to member, in the members' order (the order an error lists them in)."""
        return {m.wire: m for m in cls}
