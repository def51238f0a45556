"""What one seat of Eighty-Three sees: :class:`EightyThreeView`, and the hand results it shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from meja.rules.game import Wire
from meja.rules.shared import shared_list, shared_value

from .actions import Action
from .tables import _SUIT_LETTERS, NAMES, TEAMS


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
        return {**self.data, "legal": legal_wire(self.legal)}


def legal_wire(legal: tuple[Action, ...]) -> list[Wire]:
    """A view's ``legal``, in wire form (shared: :mod:`meja.rules.shared`)."""
    return shared_list(Action.to_wire, legal)


# A view's lists are shared (meja.rules.shared): every seat's view of a version holds the same public
# lists, and a list whose source did not change is the object sent last version. Each encoding
# function below is one object, so that its sources' key in the shared lists is stable.


def _card_name(card: int) -> str:
    return NAMES[card]


def _seat_card(pair: tuple[int, int]) -> dict[str, Wire]:
    return {"seat": pair[0], "card": NAMES[pair[1]]}


def _call(call: tuple[int, int]) -> dict[str, Wire]:
    return {"seat": call[0], "bid": call[1] or None}


def _last_trick(trick: tuple[int, tuple[tuple[int, int], ...]]) -> dict[str, Wire]:
    return {"winner": trick[0], "cards": seat_cards(trick[1])}


def names(cards: tuple[int, ...]) -> list[Wire]:
    """Cards by name (a hand, what was given or buried)."""
    return shared_list(_card_name, cards)


def seat_cards(pairs: tuple[tuple[int, int], ...]) -> list[Wire]:
    """``(seat, card)`` pairs as ``{"seat", "card"}`` maps (a trick, the cards shown)."""
    return shared_list(_seat_card, pairs)


def calls(auction: tuple[tuple[int, int], ...]) -> list[Wire]:
    """The auction's calls as ``{"seat", "bid"}`` maps (a pass: no bid)."""
    return shared_list(_call, auction)


def last_trick(winner: int, cards: tuple[tuple[int, int], ...]) -> Wire:
    """The last trick: its winner and its cards."""
    return shared_value(_last_trick, (winner, cards))


def hand_result(result: HandResult) -> Wire:
    """The last scored hand's map."""
    return shared_value(HandResult.to_wire, result)


#: The teams, as every view shows them.
TEAMS_WIRE: Final = shared_list(list, TEAMS)
