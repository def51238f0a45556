"""Crazy Eights' actions (:class:`Move`, interned) and the phases of a round."""

from __future__ import annotations

from dataclasses import dataclass
from functools import total_ordering
from typing import Final

from meja.rules.cards import CARDS, Card, Suit
from meja.rules.game import Wire
from meja.rules.kinds import WireEnum

# --------------------------------------------------------------------------- actions


class Kind(WireEnum):
    """Action kinds, in the order legal actions are sorted."""

    PLAY = 0
    SUIT = 1
    DRAW = 2
    PASS = 3
    READY = 4


_KIND_OF_WIRE: Final = Kind.by_wire()


@total_ordering
@dataclass(frozen=True, slots=True)
class Move:
    """One action. ``card`` for ``play``; ``suit`` for ``suit`` and for an 8 that does not go out.

    Use :meth:`play`, :data:`DRAW`, :data:`PASS`... rather than the constructor:
    they return interned values, which keeps legality checks cheap.
    """

    kind: Kind
    card: Card | None = None
    suit: Suit | None = None

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return (
            self.kind,
            -1 if self.card is None else self.card,
            -1 if self.suit is None else self.suit,
        )

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.sort_key < other.sort_key

    @staticmethod
    def play(card: Card | str, suit: Suit | str | None = None) -> Move:
        c = Card.parse(card) if isinstance(card, str) else card
        s = Suit.parse(suit) if isinstance(suit, str) else suit
        return _PLAYS[c][5 if s is None else s]

    @staticmethod
    def choose(suit: Suit | str) -> Move:
        return _SUITS[Suit.parse(suit) if isinstance(suit, str) else suit]

    def to_wire(self) -> dict[str, Wire]:
        out: dict[str, Wire] = {"kind": self.kind.wire}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.suit is not None:
            out["suit"] = self.suit.letter
        return out

    def __str__(self) -> str:
        return " ".join(str(v) for v in (self.kind.wire, self.card, self.suit) if v is not None)


_PLAYS: Final = tuple(
    tuple(Move(Kind.PLAY, CARDS[c], Suit(s) if s < 4 else None) for s in range(6)) for c in range(104)
)
_SUITS: Final = tuple(Move(Kind.SUIT, None, Suit(s)) for s in range(4))
DRAW: Final = Move(Kind.DRAW)
PASS: Final = Move(Kind.PASS)
READY: Final = Move(Kind.READY)


# --------------------------------------------------------------------------- state


class Phase(WireEnum):
    PLAY = 0
    #: a seat must name the active suit (party starter 8; classic forced 8 after a draw)
    CHOOSE_SUIT = 1
    #: the round is scored; every seat says ``ready`` for the next deal
    ROUND_OVER = 2
    MATCH_OVER = 3


# Module constants for the hot paths: looking a member up on an Enum class costs
# about 130 ns in CPython 3.11, a global about 10.
_PLAY, _CHOOSE_SUIT, _ROUND_OVER, _MATCH_OVER = Phase
