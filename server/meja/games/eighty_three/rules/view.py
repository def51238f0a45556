"""What one seat of Eighty-Three sees: :class:`EightyThreeView`, and the hand results it shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meja.rules.game import Wire

from .actions import Action
from .tables import _SUIT_LETTERS


@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored hand (4.8): who bid what, what each team captured and scored, and its deal code."""

    round: int
    dealer: int
    bidder: int
    bid: int
    trump: int
    captured: tuple[int, int]
    made: bool
    delta: tuple[int, int]
    scores: tuple[int, int]
    deal_code: str

    def to_wire(self) -> dict[str, Wire]:
        return {
            "hand": self.round,
            "dealer": self.dealer,
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": _SUIT_LETTERS[self.trump],
            "captured": list(self.captured),
            "made": self.made,
            "delta": list(self.delta),
            "scores": list(self.scores),
            "deal_code": self.deal_code,
        }

    def to_data(self) -> list[Any]:
        return [
            self.round, self.dealer, self.bidder, self.bid, self.trump, list(self.captured), self.made,
            list(self.delta), list(self.scores), self.deal_code,
        ]  # fmt: skip

    @classmethod
    def from_data(cls, d: Sequence[Any]) -> HandResult:
        return cls(d[0], d[1], d[2], d[3], d[4], (d[5][0], d[5][1]), d[6], (d[7][0], d[7][1]), (d[8][0], d[8][1]), d[9])


@dataclass(frozen=True, slots=True)
class EightyThreeView:
    """One seat's view: plain data chosen field by field, and the seat's legal actions."""

    seat: int | None
    data: dict[str, Wire]
    legal: tuple[Action, ...]

    def to_wire(self) -> dict[str, Wire]:
        return {**self.data, "legal": [a.to_wire() for a in self.legal]}
